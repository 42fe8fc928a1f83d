// The page the invitation e-mail links to (`/invitations/accept?token=…`). Signed-out visitors
// reach it after signing in (the route's session check sends them to sign-in and back). Nothing
// is answered on load, so a mail scanner opening the link uses nothing up: the person chooses.
import type { AcceptedInvitation } from "@sightline/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Button, buttonClass } from "../../components/ui/Button";
import { Notice } from "../../components/ui/Feedback";
import { Card, Page, PageHeader, Stack } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { api, type ApiError, isApiError } from "../../lib/api-client";
import { meQuery } from "../../lib/queries";
import { teamApi } from "../../lib/team-api";
import { teamStyles as styles } from "../team";
import { refreshAfterAnswer } from "./InvitationsPage";

const route = getRouteApi("/app/invitations/accept");

export function AcceptInvitationPage() {
  const { token } = route.useSearch();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const me = useQuery(meQuery);
  const accept = useMutation({
    mutationFn: () => teamApi.accept({ token: token ?? "" }),
    onSuccess: async (answer: AcceptedInvitation) => {
      await refreshAfterAnswer(queryClient);
      toast(answer.message);
      await navigate({ to: "/projects/$project", params: { project: answer.project.slug }, replace: true });
    },
  });
  const decline = useMutation({ mutationFn: () => teamApi.decline({ token: token ?? "" }) });
  // Switching account: sign out here, then sign in again and come back to this same link.
  const switchAccount = useMutation({
    mutationFn: () => api.delete("/auth/session").catch(() => undefined),
    onSettled: () => {
      queryClient.clear();
      void navigate({
        to: "/auth/sign-in",
        search: { next: `/invitations/accept?token=${encodeURIComponent(token ?? "")}` },
        replace: true,
      });
    },
  });

  const failure = [accept.error, decline.error].find(isApiError);
  const email = me.data?.email ?? "";
  const body = (() => {
    if (token === undefined) {
      return (
        <Notice tone="warning" title="This link has no invitation in it" role="alert">
          Open the link from the invitation e-mail again, or find your invitations under Invitations.
        </Notice>
      );
    }
    if (decline.isSuccess) {
      return (
        <Notice tone="info" title="Invitation declined" role="status">
          Nobody was added. Whoever invited you can send another invitation if you change your mind.
        </Notice>
      );
    }
    return (
      <>
        <p className={styles.meta}>
          You are signed in as <strong>{email || "…"}</strong>. Accepting adds this account to the project
          with the role the invitation names; the e-mail says which project and role.
        </p>
        {failure ? (
          <AnswerProblem error={failure} email={email} onSwitch={() => switchAccount.mutate()} />
        ) : null}
        <div className={styles.buttons}>
          <Button
            variant="primary"
            onClick={() => accept.mutate()}
            busy={accept.isPending}
            disabled={decline.isPending || failure?.status === 404}
          >
            Accept invitation
          </Button>
          <Button
            onClick={() => decline.mutate()}
            busy={decline.isPending}
            disabled={accept.isPending || failure?.status === 404}
          >
            Decline
          </Button>
        </div>
      </>
    );
  })();
  return (
    <Page narrow>
      <PageHeader title="Join a project" description="Someone invited you to a Sightline project." />
      <Card title="Your invitation">
        <Stack>{body}</Stack>
      </Card>
    </Page>
  );
}

function AnswerProblem({ error, email, onSwitch }: { error: ApiError; email: string; onSwitch: () => void }) {
  if (error.status === 403) {
    return (
      <Notice
        tone="warning"
        title="This invitation is for another e-mail address"
        role="alert"
        actions={
          <Button size="sm" onClick={onSwitch}>
            Sign in with another account
          </Button>
        }
      >
        You are signed in as {email}, but the invitation was sent to a different address. Sign in with the
        address it was sent to, then open the link again.
      </Notice>
    );
  }
  if (error.status === 404) {
    return (
      <Notice tone="warning" title="This invitation link no longer works" role="alert">
        It was already used, revoked, replaced by a newer invitation, or it expired. Ask for a new one, or
        check <Link to="/invitations">your invitations</Link>.
      </Notice>
    );
  }
  if (error.status === 409) {
    return (
      <Notice tone="info" title="You are already a member" role="status">
        {error.detail}{" "}
        <Link to="/projects" className={buttonClass({ size: "sm", variant: "ghost" })}>
          Your projects
        </Link>
      </Notice>
    );
  }
  return (
    <Notice tone="danger" role="alert">
      {error.detail}
    </Notice>
  );
}
