// The pieces the sign-in forms share: the e-mail address field, what a refused attempt says
// (with the wait when rate-limited), and the submit button under it.
import type { ReactNode } from "react";
import { Button } from "../../components/ui/Button";
import { TextField } from "../../components/ui/Field";
import { Notice } from "../../components/ui/Feedback";
import { isApiError } from "../../lib/api-client";
import styles from "./Auth.module.css";

export function EmailField({
  value,
  onValue,
  ...rest
}: {
  value: string;
  onValue: (value: string) => void;
  name?: string;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label="E-mail address"
      type="email"
      {...rest}
      autoComplete="email"
      required
      value={value}
      onChange={(event) => onValue(event.target.value)}
      placeholder="you@company.com"
    />
  );
}

export function ProblemNotice({ error, waitSeconds }: { error: unknown; waitSeconds: number }) {
  const apiError = isApiError(error) ? error : undefined;
  if (apiError?.status === 429 && waitSeconds > 0) {
    return (
      <Notice tone="warning" role="alert" title="Too many attempts">
        {apiError.detail} You can try again in {waitSeconds} s.
      </Notice>
    );
  }
  return (
    <Notice tone="danger" role="alert">
      {apiError ? apiError.detail : "Something went wrong; try again."}
    </Notice>
  );
}

/** Why the last attempt failed, then the submit button, held back while the server says wait. */
export function AuthSubmit({
  attempt,
  waitSeconds = 0,
  icon,
  autoFocus,
  children,
}: {
  attempt: { isError: boolean; isPending: boolean; error: unknown };
  waitSeconds?: number;
  icon?: ReactNode;
  autoFocus?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {attempt.isError ? <ProblemNotice error={attempt.error} waitSeconds={waitSeconds} /> : null}
      <Button
        type="submit"
        variant="primary"
        className={styles.submit}
        busy={attempt.isPending}
        disabled={waitSeconds > 0}
        autoFocus={autoFocus}
      >
        {icon}
        {waitSeconds > 0 ? `Try again in ${waitSeconds} s` : children}
      </Button>
    </>
  );
}
