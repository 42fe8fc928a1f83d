// The frame of the signed-out pages: the wordmark, one card, a quiet footer.
import { MailCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Logo } from "../../components/shell/Logo";
import styles from "./Auth.module.css";

export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className={styles.page}>
      <div className={styles.column}>
        <Logo />
        <div className={styles.card}>{children}</div>
        <footer className={styles.footer}>
          <span>Self-hosted API observability</span>
          <span aria-hidden="true">·</span>
          <a href="/api/v1/docs">API reference</a>
        </footer>
      </div>
    </main>
  );
}

export function AuthHeading({ title, subtitle }: { title: ReactNode; subtitle?: ReactNode }) {
  return (
    <div className={styles.heading}>
      <h1 className={styles.title}>{title}</h1>
      {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
    </div>
  );
}

/** The answer to asking for a link: the same words whatever the address. */
export function LinkSent({ email, children }: { email: string; children?: ReactNode }) {
  return (
    <>
      <div className={styles.sentIcon} aria-hidden="true">
        <MailCheck size={24} />
      </div>
      <AuthHeading
        title="Check your inbox"
        subtitle={
          <>
            If <strong>{email}</strong> can receive e-mail, a sign-in link is on its way. It works once,
            within 15 minutes.
          </>
        }
      />
      {children}
    </>
  );
}
