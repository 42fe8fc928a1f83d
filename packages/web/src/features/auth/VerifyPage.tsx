// The page an e-mailed link opens. Opening it spends nothing (mail scanners open links); only
// the click on "Continue" sends the token. A used or expired link says so and offers a new one.
import { useMutation } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { ArrowRight, LinkIcon, Unlink } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Checkbox } from "../../components/ui/Field";
import { isApiError } from "../../lib/api-client";
import styles from "./Auth.module.css";
import { signInWithLink } from "./auth-api";
import { AuthHeading, AuthLayout, LinkSent } from "./AuthLayout";
import { AuthSubmit, EmailField } from "./AuthForm";
import { useSignedIn } from "./SignInPage";
import { useSendLink } from "./useSendLink";

const route = getRouteApi("/auth/verify");

function isDeadLink(error: unknown): boolean {
  return isApiError(error) && (error.code === "token_invalid" || error.code === "token_expired");
}

export function VerifyPage() {
  const { token, next } = route.useSearch();
  const signedIn = useSignedIn();
  const [rememberMe, setRememberMe] = useState(true);
  const verify = useMutation({
    mutationFn: (value: string) => signInWithLink({ token: value, remember_me: rememberMe }),
    onSuccess: () => signedIn(next),
  });

  if (token === undefined || isDeadLink(verify.error)) return <DeadLink />;

  return (
    <AuthLayout>
      <div className={styles.sentIcon} aria-hidden="true">
        <LinkIcon size={24} />
      </div>
      <AuthHeading
        title="Sign in to Sightline"
        subtitle="You're one click away. This link signs you in once, on this browser."
      />
      <form
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          verify.mutate(token);
        }}
      >
        <Checkbox
          label="Keep me signed in for 30 days"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
        <AuthSubmit attempt={verify} autoFocus>
          Continue
          <ArrowRight size={16} aria-hidden="true" />
        </AuthSubmit>
      </form>
    </AuthLayout>
  );
}

function DeadLink() {
  const [email, setEmail] = useState("");
  const { mutation: send, sentTo, waitSeconds } = useSendLink();
  if (sentTo !== null) {
    return (
      <AuthLayout>
        <LinkSent email={sentTo} />
      </AuthLayout>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(email.trim());
  };
  return (
    <AuthLayout>
      <div className={[styles.sentIcon, styles.bad].join(" ")} aria-hidden="true">
        <Unlink size={24} />
      </div>
      <AuthHeading
        title="This link has expired or was already used"
        subtitle="Sign-in links work once, within 15 minutes. Enter your e-mail address and we'll send a fresh one."
      />
      <form className={styles.form} onSubmit={submit}>
        <EmailField value={email} onValue={setEmail} />
        <AuthSubmit attempt={send} waitSeconds={waitSeconds}>
          Send a new link
        </AuthSubmit>
      </form>
      <div className={styles.sentActions}>
        <Link to="/auth/sign-in">Back to sign in</Link>
      </div>
    </AuthLayout>
  );
}
