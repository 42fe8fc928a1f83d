// Page scaffolding: the page column, its header, cards and simple layout rows.
import type { ReactNode } from "react";
import { Button } from "./Button";
import styles from "./Surface.module.css";

export function Page({ children, narrow = false }: { children: ReactNode; narrow?: boolean }) {
  return (
    <div className={[styles.page, narrow ? styles.narrow : ""].filter(Boolean).join(" ")}>{children}</div>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className={styles.header}>
      <div className={styles.headerText}>
        <h1 className={styles.title}>{title}</h1>
        {description ? <p className={styles.description}>{description}</p> : null}
      </div>
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </header>
  );
}

export function Card({
  title,
  description,
  actions,
  footer,
  tone,
  children,
  labelledBy,
}: {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  footer?: ReactNode;
  tone?: "danger";
  children?: ReactNode;
  labelledBy?: string;
}) {
  return (
    <section
      className={[styles.card, tone === "danger" ? styles.danger : ""].filter(Boolean).join(" ")}
      aria-labelledby={labelledBy}
    >
      {title || actions ? (
        <div className={styles.cardHeader}>
          <div>
            {title ? (
              <h2 className={styles.cardTitle} id={labelledBy}>
                {title}
              </h2>
            ) : null}
            {description ? <p className={styles.cardDescription}>{description}</p> : null}
          </div>
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
      ) : null}
      {children !== undefined ? <div className={styles.cardBody}>{children}</div> : null}
      {footer ? <div className={styles.cardFooter}>{footer}</div> : null}
    </section>
  );
}

export function Stack({ children, tight = false }: { children: ReactNode; tight?: boolean }) {
  return (
    <div className={[styles.stack, tight ? styles.tight : ""].filter(Boolean).join(" ")}>{children}</div>
  );
}

/** The row under a form with its submit button, on the right; `cancel`, a way back, before it. */
export function SubmitRow({
  busy,
  disabled,
  cancel,
  children,
}: {
  busy: boolean;
  disabled?: boolean;
  cancel?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={styles.submitRow}>
      {cancel}
      <Button type="submit" variant="primary" busy={busy} disabled={disabled}>
        {children}
      </Button>
    </div>
  );
}

/**
 * A red card with one destructive action (deleting a project, an app, the account): what it
 * does and what follows, beside its button; `children`, its confirmation dialog.
 */
export function DangerCard({
  card = "Danger zone",
  title,
  meta,
  actionLabel,
  onAction,
  children,
}: {
  card?: string;
  title: ReactNode;
  meta: ReactNode;
  actionLabel: string;
  onAction: () => void;
  children: ReactNode;
}) {
  return (
    <Card title={card} tone="danger">
      <div className={styles.dangerRow}>
        <div className={styles.dangerText}>
          <span className={styles.dangerTitle}>{title}</span>
          <span className={styles.dangerMeta}>{meta}</span>
        </div>
        <Button variant="dangerOutline" onClick={onAction}>
          {actionLabel}
        </Button>
      </div>
      {children}
    </Card>
  );
}

/** A narrow column for short forms (passwords), so fields do not stretch across the card. */
export function FormColumn({ children }: { children: ReactNode }) {
  return <div className={styles.formColumn}>{children}</div>;
}

export function Row({ children }: { children: ReactNode }) {
  return <div className={styles.row}>{children}</div>;
}

export function Grid2({ children }: { children: ReactNode }) {
  return <div className={styles.grid2}>{children}</div>;
}
