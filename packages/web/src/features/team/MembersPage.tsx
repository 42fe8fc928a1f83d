// A project's team: who is in it with which role, inviting by e-mail, changing roles, removing
// people or leaving, pending invitations with revoke, and (owners) handing the project over.
// What each control offers follows the caller's permissions from the server (lib/access).
import type { Invitation, Member, Role } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { Mail, UserPlus } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../components/ui/Avatar";
import { Button } from "../../components/ui/Button";
import { ConfirmDialog, ConfirmOn, Dialog, DialogActions, useConfirmation } from "../../components/ui/Dialog";
import { SelectField, TextField, Options } from "../../components/ui/Field";
import { Badge, EmptyState, ErrorPanel, FailureNotice, SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { Actions, revokeColumn, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { QueryView } from "../../components/data/QueryView";
import { useToast } from "../../components/ui/Toast";
import { type ProjectAccess, ROLE_LABELS, ROLE_ORDER, useProjectAccess } from "../../lib/access";
import { isApiError } from "../../lib/api-client";
import { formatDate, formatDateTime } from "../../lib/format";
import { invitationsQuery, keys, meQuery, membersQuery } from "../../lib/queries";
import { teamApi } from "../../lib/team-api";
import { useTimeZone } from "../../lib/use-time-zone";
import styles from "./Team.module.css";

const route = getRouteApi("/app/projects/$project/settings/members");

/** The roles the caller may hand out: only owners may make owners. */
function assignableRoles(access: ProjectAccess): Role[] {
  return ROLE_ORDER.filter((role) => role !== "owner" || access.can("owners:manage"));
}

/** Whether the caller may change or remove this member (the server's target rules). */
function mayManage(access: ProjectAccess, member: Member): boolean {
  return access.can("members:manage") && (member.role !== "owner" || access.can("owners:manage"));
}

export function MembersPage() {
  const { project } = route.useParams();
  const access = useProjectAccess(project);
  const members = useQuery(membersQuery(project));
  const me = useQuery(meQuery);
  const [inviting, setInviting] = useState(false);
  const canInvite = access.can("members:manage");
  return (
    <>
      <Card
        title="Members"
        description="Everyone who can see this project, and what their role lets them do."
        actions={
          canInvite ? (
            <Button variant="primary" onClick={() => setInviting(true)}>
              <UserPlus size={16} aria-hidden="true" />
              Invite people
            </Button>
          ) : undefined
        }
      >
        {members.isPending || me.isPending ? (
          <SkeletonRows rows={3} label="Loading members" />
        ) : members.isError ? (
          <ErrorPanel what="the members" error={members.error} onRetry={() => void members.refetch()} />
        ) : (
          <MembersTable
            project={project}
            members={members.data.members}
            myId={me.data?.id ?? ""}
            access={access}
          />
        )}
      </Card>
      {canInvite ? <InvitationsCard project={project} access={access} /> : null}
      {access.can("project:transfer") && members.data ? (
        <TransferCard project={project} members={members.data.members} myId={me.data?.id ?? ""} />
      ) : null}
      <RolesCard />
      {canInvite ? (
        <InviteDialog project={project} access={access} open={inviting} onOpenChange={setInviting} />
      ) : null}
    </>
  );
}

function Person({
  name,
  email,
  picture,
  you,
}: {
  name: string;
  email: string;
  picture: string;
  you: boolean;
}) {
  return (
    <div className={styles.person}>
      <Avatar name={name || email} picture={picture} />
      <div className={styles.personText}>
        <span className={styles.personName}>
          {name || email} {you ? <Badge tone="info">You</Badge> : null}
        </span>
        {name ? <span className={styles.personEmail}>{email}</span> : null}
      </div>
    </div>
  );
}

function MembersTable({
  project,
  members,
  myId,
  access,
}: {
  project: string;
  members: readonly Member[];
  myId: string;
  access: ProjectAccess;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const timeZone = useTimeZone();
  const [removing, setRemoving] = useState<Member | null>(null);
  const owners = members.filter((member) => member.role === "owner").length;
  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      teamApi.changeRole(project, member.user_id, role),
    onSuccess: async (updated) => {
      toast(`${updated.name || updated.email} is now ${ROLE_LABELS[updated.role].label.toLowerCase()}`);
      await queryClient.invalidateQueries({ queryKey: keys.members(project) });
    },
  });
  const remove = useMutation({
    mutationFn: (member: Member) => teamApi.removeMember(project, member.user_id),
    onSuccess: async (_data, member) => {
      setRemoving(null);
      if (member.user_id === myId) {
        // Access ends at once: forget everything cached about the project.
        queryClient.removeQueries({ queryKey: keys.project(project) });
        await queryClient.invalidateQueries({ queryKey: keys.projects });
        await queryClient.invalidateQueries({ queryKey: keys.userContext });
        toast("You left the project");
        await navigate({ to: "/projects" });
        return;
      }
      toast(`${member.name || member.email} removed`);
      await queryClient.invalidateQueries({ queryKey: keys.members(project) });
    },
  });
  const roles = assignableRoles(access);
  return (
    <>
      <FailureNotice error={changeRole.error} />
      <DataTable
        label="Members"
        rows={members}
        rowKey={(member) => member.user_id}
        columns={[
          {
            header: "Person",
            cell: (member) => (
              <Person
                name={member.name}
                email={member.email}
                picture={member.picture_url}
                you={member.user_id === myId}
              />
            ),
          },
          {
            header: "Role",
            cell: (member) =>
              member.user_id !== myId && mayManage(access, member) ? (
                <select
                  className={styles.roleSelect}
                  // Named by e-mail: unique, where display names may repeat.
                  aria-label={`Role of ${member.email || member.name}`}
                  value={member.role}
                  disabled={changeRole.isPending}
                  onChange={(event) => changeRole.mutate({ member, role: event.target.value as Role })}
                >
                  <Options items={roles} value={(role) => role} label={(role) => ROLE_LABELS[role].label} />
                </select>
              ) : (
                <span data-role={member.role}>{ROLE_LABELS[member.role].label}</span>
              ),
          },
          {
            header: "Joined",
            cell: (member) => (
              <span className={table.muted} title={formatDateTime(member.joined_at, timeZone)}>
                {formatDate(member.joined_at, timeZone)}
              </span>
            ),
          },
          {
            header: "Actions",
            hiddenHeader: true,
            cell: (member) => {
              const you = member.user_id === myId;
              const lastOwner = member.role === "owner" && owners <= 1;
              return (
                <Actions>
                  {you && access.can("project:leave") ? (
                    <Button
                      size="sm"
                      variant="dangerOutline"
                      onClick={() => setRemoving(member)}
                      disabled={lastOwner}
                      title={lastOwner ? "Hand the project to someone else first." : undefined}
                    >
                      Leave project
                    </Button>
                  ) : !you && mayManage(access, member) ? (
                    <Button
                      size="sm"
                      variant="dangerOutline"
                      onClick={() => setRemoving(member)}
                      aria-label={`Remove ${member.email || member.name}`}
                    >
                      Remove
                    </Button>
                  ) : null}
                </Actions>
              );
            },
          },
        ]}
      />
      <ConfirmOn
        target={removing}
        onClose={() => setRemoving(null)}
        mutation={remove}
        title={(member) =>
          member.user_id === myId ? "Leave this project?" : `Remove ${member.name || member.email}?`
        }
        description={(member) =>
          member.user_id === myId
            ? "You lose access at once. Someone with members access can invite you again."
            : "They lose access at once; their next request is refused. Their past actions stay in the audit log."
        }
        confirmLabel={removing?.user_id === myId ? "Leave project" : "Remove member"}
      />
    </>
  );
}

function InvitationsCard({ project, access }: { project: string; access: ProjectAccess }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const timeZone = useTimeZone();
  const invitations = useQuery(invitationsQuery(project));
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const revoke = useMutation({
    mutationFn: (invitation: Invitation) => teamApi.revokeInvitation(project, invitation.id),
    onSuccess: async (_data, invitation) => {
      setRevoking(null);
      toast(`Invitation to ${invitation.email} revoked`);
      await queryClient.invalidateQueries({ queryKey: keys.invitations(project) });
    },
  });
  return (
    <Card
      title="Pending invitations"
      description="Each link works once, for 7 days. Revoking one stops its link at once."
    >
      <QueryView
        query={invitations}
        what="the invitations"
        rows={2}
        empty={{
          when: (data) => data.invitations.length === 0,
          show: (
            <EmptyState icon={Mail} title="No pending invitations">
              People you invite appear here until they accept or decline.
            </EmptyState>
          ),
        }}
      >
        {(data) => (
          <DataTable
            label="Pending invitations"
            rows={data.invitations}
            rowKey={(invitation) => invitation.id}
            columns={[
              { header: "E-mail", className: table.strong, cell: (invitation) => invitation.email },
              { header: "Role", cell: (invitation) => ROLE_LABELS[invitation.role].label },
              {
                header: "Invited by",
                className: table.muted,
                cell: (invitation) =>
                  invitation.invited_by.name || invitation.invited_by.email || "Deleted user",
              },
              {
                header: "Expires",
                cell: (invitation) => <WhenCell iso={invitation.expires_at} zone={timeZone} />,
              },
              revokeColumn<Invitation>({
                label: (invitation) => `Revoke invitation to ${invitation.email}`,
                onRevoke: setRevoking,
                can: (invitation) => invitation.role !== "owner" || access.can("owners:manage"),
              }),
            ]}
          />
        )}
      </QueryView>
      <ConfirmOn
        target={revoking}
        onClose={() => setRevoking(null)}
        mutation={revoke}
        title={(invitation) => `Revoke the invitation to ${invitation.email}?`}
        description={() => "The e-mailed link stops working at once. You can invite them again later."}
        confirmLabel="Revoke invitation"
      />
    </Card>
  );
}

function InviteDialog({
  project,
  access,
  open,
  onOpenChange,
}: {
  project: string;
  access: ProjectAccess;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const invite = useMutation({
    mutationFn: () => teamApi.invite(project, { email: email.trim(), role }),
    onSuccess: async (invitation) => {
      close(false);
      toast(`Invitation sent to ${invitation.email}`);
      await queryClient.invalidateQueries({ queryKey: keys.invitations(project) });
    },
  });
  const close = (next: boolean) => {
    if (!next) {
      invite.reset();
      setEmail("");
      setRole("member");
    }
    onOpenChange(next);
  };
  const error = isApiError(invite.error) ? invite.error : undefined;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Invite people"
      description="They get an e-mail with a link that works once, for 7 days."
      onSubmit={() => invite.mutate()}
      footer={
        <DialogActions onCancel={() => close(false)} busy={invite.isPending} disabled={email.trim() === ""}>
          Send invitation
        </DialogActions>
      }
    >
      <TextField
        label="E-mail address"
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        placeholder="grace@company.com"
        maxLength={254}
        required
        autoFocus
        error={error?.fieldMessage("/email")}
      />
      <SelectField
        label="Role"
        value={role}
        onChange={(event) => setRole(event.target.value as Role)}
        hint={ROLE_LABELS[role].summary}
      >
        <Options
          items={assignableRoles(access)}
          value={(option) => option}
          label={(option) => ROLE_LABELS[option].label}
        />
      </SelectField>
      <FailureNotice error={invite.error} fieldsInline />
    </Dialog>
  );
}

function TransferCard({
  project,
  members,
  myId,
}: {
  project: string;
  members: readonly Member[];
  myId: string;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const others = members.filter((member) => member.user_id !== myId);
  const [target, setTarget] = useState("");
  const chosen = others.find((member) => member.user_id === target);
  const transfer = useMutation({
    mutationFn: () => teamApi.transferOwnership(project, target),
    onSuccess: async (answer) => {
      confirmTransfer.hide();
      queryClient.setQueryData(keys.members(project), answer);
      await queryClient.invalidateQueries({ queryKey: keys.userContext });
      await queryClient.invalidateQueries({ queryKey: keys.projects });
      toast(`${chosen?.name || chosen?.email || "They"} now own${chosen ? "s" : ""} the project`);
      setTarget("");
    },
  });
  const confirmTransfer = useConfirmation(transfer);
  return (
    <Card
      title="Transfer ownership"
      labelledBy="transfer-ownership"
      tone="danger"
      description="Hand the project to another member: they become an owner and you become an admin, in one step."
    >
      {others.length === 0 ? (
        <p className={styles.meta}>Invite someone first: ownership goes to an existing member.</p>
      ) : (
        <div className={styles.transferRow}>
          <SelectField label="New owner" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="">Choose a member…</option>
            <Options
              items={others}
              value={(member) => member.user_id}
              label={(member) => (member.name ? `${member.name} (${member.email})` : member.email)}
            />
          </SelectField>
          <Button variant="dangerOutline" disabled={chosen === undefined} onClick={confirmTransfer.show}>
            Transfer ownership
          </Button>
        </div>
      )}
      <ConfirmDialog
        {...confirmTransfer.dialog}
        title={`Make ${chosen?.name || chosen?.email || "them"} the owner?`}
        consequences={[
          "They become an owner: they may delete the project and manage owners.",
          "You become an admin: you keep keys, members and settings, but not deleting or handing over.",
        ]}
        confirmLabel="Transfer ownership"
      />
    </Card>
  );
}

function RolesCard() {
  return (
    <Card title="Roles" description="Each role can do everything the roles below it can.">
      <dl className={styles.roles}>
        {ROLE_ORDER.map((role) => (
          <div key={role} style={{ display: "contents" }}>
            <dt>{ROLE_LABELS[role].label}</dt>
            <dd>{ROLE_LABELS[role].summary}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
