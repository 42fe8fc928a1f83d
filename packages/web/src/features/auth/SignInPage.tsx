// Sign in: an e-mail link by default (the same answer whatever the address), a password for
// accounts that set one, or the code from the e-mail pasted by hand. Signed-in visitors go on.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { KeyRound, Mail, TicketCheck } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../../components/ui/Button";
import { Checkbox, PasswordField, TextField } from "../../components/ui/Field";
import { Notice } from "../../components/ui/Feedback";
import { sessionQuery } from "../../lib/queries";
import { rememberReturnTo, takeReturnTo } from "../../lib/return-to";
import type { SignInReason } from "../../lib/search";
import styles from "./Auth.module.css";
import { signInWithLink, signInWithPassword } from "./auth-api";
import { AuthSubmit, EmailField, ProblemNotice } from "./AuthForm";
import { AuthHeading, AuthLayout, LinkSent } from "./AuthLayout";
import { useSendLink } from "./useSendLink";

const route = getRouteApi("/auth/sign-in");

type Mode = "link" | "password" | "code";

const REASONS: Record<SignInReason, { tone: "info" | "warning"; text: string }> = {
  ended: { tone: "warning", text: "Your session has ended. Sign in again to continue." },
  "signed-out": { tone: "info", text: "You have signed out." },
  deleted: { tone: "info", text: "Your account has been deleted." },
};

/** After signing in: where the person was going, or their projects. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (given: string | undefined) => {
    // Read (and forget) what a sign-in begun in another tab asked to return to.
    const next = given ?? takeReturnTo();
    queryClient.clear();
    await queryClient.prefetchQuery(sessionQuery);
    if (next !== undefined) await navigate({ href: next, replace: true });
    else await navigate({ to: "/projects", replace: true });
  };
}

export function SignInPage() {
  const { next, reason, email: initialEmail } = route.useSearch();
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  // "No session" (or a 401) the route check just got is the answer: asked once, not again on mount.
  const session = useQuery({
    ...sessionQuery,
    staleTime: 0,
    retryOnMount: false,
    refetchOnMount: (query) => query.state.data !== null,
  });
  const [mode, setMode] = useState<Mode>("link");
  const [email, setEmail] = useState(initialEmail ?? "");
  const [rememberMe, setRememberMe] = useState(true);
  const link = useSendLink();
  const { sentTo, waitSeconds } = link;
  const sendLink = link.mutation;

  // Someone already signed in has nothing to do here.
  useEffect(() => {
    if (session.data) {
      if (next !== undefined) void navigate({ href: next, replace: true });
      else void navigate({ to: "/projects", replace: true });
    }
  }, [session.data, next, navigate]);

  const withPassword = useMutation({
    mutationFn: (body: { email: string; password: string }) =>
      signInWithPassword({ ...body, remember_me: rememberMe }),
    onSuccess: () => signedIn(next),
  });
  const withCode = useMutation({
    mutationFn: (token: string) => signInWithLink({ token, remember_me: rememberMe }),
    onSuccess: () => signedIn(next),
  });

  const reasonNotice = reason ? (
    <div className={styles.notice}>
      <Notice tone={REASONS[reason].tone} role="status">
        {REASONS[reason].text}
      </Notice>
    </div>
  ) : null;

  if (sentTo !== null && mode === "link") {
    return (
      <AuthLayout>
        <LinkSent email={sentTo} />
        {sendLink.isError ? <ProblemNotice error={sendLink.error} waitSeconds={waitSeconds} /> : null}
        <div className={styles.sentActions}>
          <Button
            variant="secondary"
            onClick={() => sendLink.mutate(sentTo)}
            busy={sendLink.isPending}
            disabled={waitSeconds > 0}
          >
            {waitSeconds > 0 ? `Send another link in ${waitSeconds} s` : "Send another link"}
          </Button>
          <Button variant="ghost" onClick={() => setMode("code")}>
            Paste the code from the e-mail instead
          </Button>
          <Button variant="ghost" onClick={link.forget}>
            Use a different address
          </Button>
        </div>
      </AuthLayout>
    );
  }

  const submitLink = (event: FormEvent) => {
    event.preventDefault();
    // The e-mailed link opens a new tab without `next`: it finds it here.
    if (next !== undefined) rememberReturnTo(next);
    sendLink.mutate(email.trim());
  };
  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    withPassword.mutate({ email: email.trim(), password });
  };
  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    withCode.mutate(String(new FormData(event.currentTarget).get("code") ?? "").trim());
  };

  const emailField = <EmailField value={email} onValue={setEmail} name="email" autoFocus={mode !== "code"} />;
  const remember = (
    <Checkbox
      label="Keep me signed in for 30 days"
      checked={rememberMe}
      onChange={(event) => setRememberMe(event.target.checked)}
    />
  );

  return (
    <AuthLayout>
      {reasonNotice}
      {mode === "link" ? (
        <>
          <AuthHeading
            title="Sign in to Sightline"
            subtitle="We'll e-mail you a link that signs you in. No password needed."
          />
          <form className={styles.form} onSubmit={submitLink} noValidate={false}>
            {emailField}
            <AuthSubmit
              attempt={sendLink}
              waitSeconds={waitSeconds}
              icon={<Mail size={16} aria-hidden="true" />}
            >
              Email me a sign-in link
            </AuthSubmit>
          </form>
        </>
      ) : null}
      {mode === "password" ? (
        <>
          <AuthHeading
            title="Sign in with a password"
            subtitle="For accounts that have set one under Account → Security."
          />
          <form className={styles.form} onSubmit={submitPassword}>
            {emailField}
            <PasswordField label="Password" name="password" autoComplete="current-password" />
            {remember}
            <AuthSubmit attempt={withPassword}>Sign in</AuthSubmit>
          </form>
        </>
      ) : null}
      {mode === "code" ? (
        <>
          <AuthHeading
            title="Paste your sign-in code"
            subtitle="The e-mail shows the code under the link. Use it when the link opens in another browser."
          />
          <form className={styles.form} onSubmit={submitCode}>
            <TextField
              label="Sign-in code"
              name="code"
              autoComplete="one-time-code"
              spellCheck={false}
              required
              autoFocus
            />
            {remember}
            <AuthSubmit attempt={withCode}>Sign in</AuthSubmit>
          </form>
        </>
      ) : null}
      <div className={styles.divider}>or</div>
      <div className={styles.alternatives}>
        {mode !== "link" ? (
          <Button variant="secondary" onClick={() => setMode("link")}>
            <Mail size={16} aria-hidden="true" />
            Email me a sign-in link
          </Button>
        ) : null}
        {mode !== "password" ? (
          <Button variant="secondary" onClick={() => setMode("password")}>
            <KeyRound size={16} aria-hidden="true" />
            Use a password instead
          </Button>
        ) : null}
        {mode !== "code" ? (
          <Button variant="secondary" onClick={() => setMode("code")}>
            <TicketCheck size={16} aria-hidden="true" />I have a code from the e-mail
          </Button>
        ) : null}
      </div>
    </AuthLayout>
  );
}

/** The server's word on a failed sign-in step; a rate limit says how long to wait. */
