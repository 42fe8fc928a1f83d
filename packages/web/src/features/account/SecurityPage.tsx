// Security: set or change the password, see every signed-in session (this one marked) and end
// any of them, sign out elsewhere or everywhere, personal access tokens, and delete the account.
import type { ChangePasswordBody, Message, Session, UserProfile } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LogOut, Monitor } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useEndSession } from "../../components/shell/useSignOut";
import { Button } from "../../components/ui/Button";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import { PasswordField } from "../../components/ui/Field";
import { table } from "../../components/ui/Table";
import { Actions, WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { useToast } from "../../components/ui/Toast";
import { Badge, ErrorPanel, FailureNotice, SkeletonRows } from "../../components/ui/Feedback";
import { Card, DangerCard, FormColumn, Stack, SubmitRow } from "../../components/ui/Surface";
import { api, isApiError } from "../../lib/api-client";
import { formatDateTime } from "../../lib/format";
import { keys, meQuery, sessionsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { AccessTokensCard } from "./AccessTokensCard";
import styles from "./Account.module.css";
import { describeUserAgent } from "./user-agent";

export function SecurityPage() {
  const me = useQuery(meQuery);
  return (
    <>
      {me.isPending ? (
        <Card title="Password">
          <SkeletonRows rows={3} label="Loading profile" />
        </Card>
      ) : me.isError ? (
        <ErrorPanel what="your profile" error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <PasswordCard profile={me.data} />
      )}
      <SessionsCard />
      <AccessTokensCard />
      {me.data ? <DeleteAccountCard profile={me.data} /> : null}
    </>
  );
}

function PasswordCard({ profile }: { profile: UserProfile }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const change = useMutation({
    mutationFn: (body: ChangePasswordBody) => api.post<Message>("/auth/session/change-password", body),
    onSuccess: async () => {
      setCurrent("");
      setNext("");
      setConfirm("");
      await queryClient.invalidateQueries({ queryKey: keys.me });
      await queryClient.invalidateQueries({ queryKey: keys.sessions });
      toast("Password saved; your other sessions were signed out");
    },
  });
  const error = isApiError(change.error) ? change.error : undefined;
  const mismatch = confirm !== "" && confirm !== next;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({
      new_password: next,
      confirm_password: confirm,
      ...(profile.has_password ? { current_password: current } : {}),
    });
  };
  return (
    <Card
      title="Password"
      description={
        profile.has_password
          ? "Change the password you sign in with. Your other sessions are signed out."
          : "Optional: add a password to sign in without an e-mail link. Links keep working."
      }
    >
      <form onSubmit={submit}>
        <FormColumn>
          <Stack>
            {profile.has_password ? (
              <PasswordField
                label="Current password"
                autoComplete="current-password"
                value={current}
                onChange={(event) => setCurrent(event.target.value)}
                error={error?.fieldMessage("/current_password")}
              />
            ) : null}
            <PasswordField
              label="New password"
              autoComplete="new-password"
              value={next}
              onChange={(event) => setNext(event.target.value)}
              hint="At least 10 characters, not only digits, and not your e-mail address."
              error={error?.fieldMessage("/new_password")}
            />
            <PasswordField
              label="Confirm new password"
              autoComplete="new-password"
              value={confirm}
              onChange={(event) => setConfirm(event.target.value)}
              error={mismatch ? "The two passwords differ." : error?.fieldMessage("/confirm_password")}
            />
            <FailureNotice error={error} fieldsInline />
            <SubmitRow busy={change.isPending} disabled={next === "" || mismatch}>
              {profile.has_password ? "Change password" : "Set password"}
            </SubmitRow>
          </Stack>
        </FormColumn>
      </form>
    </Card>
  );
}

function SessionsCard() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const endSession = useEndSession();
  const timeZone = useTimeZone();
  const sessions = useQuery(sessionsQuery);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.sessions });
  const revoke = useMutation({
    mutationFn: (session: Session) =>
      api.delete<Message>(`/users/sessions/${encodeURIComponent(session.id)}`),
    onSuccess: async (_data, session) => {
      if (session.is_current) return endSession("signed-out");
      await refresh();
      toast(`Signed out ${describeUserAgent(session.device_info)}`);
    },
  });
  const others = useMutation({
    mutationFn: () => api.post<Message>("/users/logout-others"),
    onSuccess: async (result) => {
      await refresh();
      toast(result.message);
    },
  });
  const everywhere = useMutation({
    mutationFn: () => api.post<Message>("/users/logout-all"),
    onSuccess: () => endSession("signed-out"),
  });
  const confirmEverywhere = useConfirmation(everywhere);
  const otherCount = sessions.data?.filter((session) => !session.is_current).length ?? 0;
  const error = revoke.error ?? others.error;
  return (
    <Card
      title="Sessions"
      description="Where you are signed in. Signing a session out takes effect on its very next request."
      actions={
        <div className={styles.sessionActions}>
          <Button
            size="sm"
            onClick={() => others.mutate()}
            busy={others.isPending}
            disabled={otherCount === 0}
          >
            Sign out other devices
          </Button>
          <Button size="sm" variant="dangerOutline" onClick={confirmEverywhere.show}>
            <LogOut size={14} aria-hidden="true" />
            Sign out everywhere
          </Button>
        </div>
      }
    >
      <FailureNotice error={error} />
      {sessions.isPending ? (
        <SkeletonRows rows={3} label="Loading sessions" />
      ) : sessions.isError ? (
        <ErrorPanel what="your sessions" error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <DataTable
          label="Sessions"
          rows={sessions.data}
          rowKey={(session) => session.id}
          rowData={(session): Record<`data-${string}`, string> =>
            session.is_current ? { "data-current": "true" } : {}
          }
          columns={[
            {
              header: "Device",
              cell: (session) => (
                <div className={styles.device}>
                  <span className={styles.deviceIcon} aria-hidden="true">
                    <Monitor size={16} />
                  </span>
                  <span className={styles.deviceText}>
                    <span className={styles.deviceName}>
                      {describeUserAgent(session.device_info)}
                      {session.is_current ? <Badge tone="success">This device</Badge> : null}
                    </span>
                    <span className={styles.deviceAgent} title={session.device_info}>
                      {session.device_info || "No user agent"}
                    </span>
                  </span>
                </div>
              ),
            },
            { header: "IP address", className: table.muted, cell: (session) => session.ip_address || "—" },
            {
              header: "Last active",
              cell: (session) =>
                session.is_current ? (
                  <span className={table.muted}>Now</span>
                ) : (
                  <WhenCell iso={session.last_used_at} zone={timeZone} />
                ),
            },
            {
              header: "Signed in",
              className: table.muted,
              cell: (session) => formatDateTime(session.created_at, timeZone),
            },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (session) => (
                <Actions>
                  <Button
                    size="sm"
                    variant={session.is_current ? "ghost" : "secondary"}
                    onClick={() => revoke.mutate(session)}
                    disabled={revoke.isPending}
                    aria-label={
                      session.is_current
                        ? "Sign out this device"
                        : `Sign out ${describeUserAgent(session.device_info)} (${session.ip_address})`
                    }
                  >
                    Sign out
                  </Button>
                </Actions>
              ),
            },
          ]}
        />
      )}
      <ConfirmDialog
        {...confirmEverywhere.dialog}
        title="Sign out everywhere?"
        description="Every session ends at once, this one included. You will need an e-mail link or your password to sign in again."
        confirmLabel="Sign out everywhere"
      />
    </Card>
  );
}

function DeleteAccountCard({ profile }: { profile: UserProfile }) {
  const endSession = useEndSession();
  const remove = useMutation({
    mutationFn: () => api.delete<Message>("/users/me"),
    onSuccess: () => endSession("deleted"),
  });
  const confirmRemove = useConfirmation(remove);
  return (
    <DangerCard
      card="Delete account"
      title="Delete your account and your projects"
      meta="Every session ends at once. The address can sign up again as a new account."
      actionLabel="Delete account"
      onAction={confirmRemove.show}
    >
      <ConfirmDialog
        {...confirmRemove.dialog}
        title="Delete your account?"
        consequences={[
          "Your profile, password, picture and every session are removed now.",
          "Projects you own are deleted and their API keys stop working.",
          "What remains: an anonymous record of the account (no e-mail), and recorded requests and logs until retention removes them.",
        ]}
        confirmText={profile.email}
        confirmLabel="Delete account"
      />
    </DangerCard>
  );
}
