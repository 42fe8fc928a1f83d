// The signed-in person's invitations: every pending one addressed to their e-mail, with the
// project, the role and who sent it, answered here without the e-mailed link.
import type { ReceivedInvitation } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Inbox } from "lucide-react";
import { Button } from "../../components/ui/Button";
import { EmptyState, ErrorPanel, FailureNotice, SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { ROLE_LABELS } from "../../lib/access";
import { formatDateTime, relativeTime } from "../../lib/format";
import { keys, receivedInvitationsQuery } from "../../lib/queries";
import { teamApi } from "../../lib/team-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { teamStyles as styles } from "../team";

export function InvitationsPage() {
  const invitations = useQuery(receivedInvitationsQuery);
  return (
    <Page>
      <PageHeader
        title="Invitations"
        description="Projects you have been invited to. Accepting adds you with the role the invitation names."
      />
      <Card title="Pending invitations">
        {invitations.isPending ? (
          <SkeletonRows rows={2} label="Loading invitations" />
        ) : invitations.isError ? (
          <ErrorPanel
            what="your invitations"
            error={invitations.error}
            onRetry={() => void invitations.refetch()}
          />
        ) : invitations.data.invitations.length === 0 ? (
          <EmptyState icon={Inbox} title="No pending invitations">
            When someone invites your e-mail address to a project, it appears here.
          </EmptyState>
        ) : (
          <ul className={styles.inbox}>
            {invitations.data.invitations.map((invitation) => (
              <InvitationItem key={invitation.id} invitation={invitation} />
            ))}
          </ul>
        )}
      </Card>
    </Page>
  );
}

/** After an answer: the lists that show invitations, memberships and roles read again. */
export async function refreshAfterAnswer(queryClient: ReturnType<typeof useQueryClient>): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.receivedInvitations }),
    queryClient.invalidateQueries({ queryKey: keys.projects }),
    queryClient.invalidateQueries({ queryKey: keys.userContext }),
  ]);
}

function InvitationItem({ invitation }: { invitation: ReceivedInvitation }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const timeZone = useTimeZone();
  const accept = useMutation({
    mutationFn: () => teamApi.accept({ id: invitation.id }),
    onSuccess: async (answer) => {
      await refreshAfterAnswer(queryClient);
      toast(answer.message);
      await navigate({ to: "/projects/$project", params: { project: answer.project.slug } });
    },
  });
  const decline = useMutation({
    mutationFn: () => teamApi.decline({ id: invitation.id }),
    onSuccess: async () => {
      toast(`Invitation to ${invitation.project.name} declined`);
      await refreshAfterAnswer(queryClient);
    },
  });
  const inviter = invitation.invited_by.name || invitation.invited_by.email || "A former member";
  const busy = accept.isPending || decline.isPending;
  return (
    <li className={styles.invitation} aria-label={`Invitation to ${invitation.project.name}`}>
      <div className={styles.invitationText}>
        <span className={styles.invitationTitle}>{invitation.project.name}</span>
        <span className={styles.meta}>
          {inviter} invited you as {ROLE_LABELS[invitation.role].label.toLowerCase()} ·{" "}
          <span title={formatDateTime(invitation.expires_at, timeZone)}>
            expires {relativeTime(invitation.expires_at)}
          </span>
        </span>
        <FailureNotice error={accept.error ?? decline.error} />
      </div>
      <div className={styles.buttons}>
        <Button onClick={() => decline.mutate()} busy={decline.isPending} disabled={busy}>
          Decline
        </Button>
        <Button variant="primary" onClick={() => accept.mutate()} busy={accept.isPending} disabled={busy}>
          Accept
        </Button>
      </div>
    </li>
  );
}
