// The states every data region has besides success: empty, loading (skeletons shaped like the
// content), error (the server's detail, its request id, and Retry), plus notices and badges.
import { AlertTriangle, CheckCircle2, Info, type LucideIcon, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import { isApiError } from "../../lib/api-client";
import { Button } from "./Button";
import { Card } from "./Surface";
import styles from "./Feedback.module.css";

export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      <div className={styles.emptyIcon} aria-hidden="true">
        <Icon size={22} />
      </div>
      <h2 className={styles.emptyTitle}>{title}</h2>
      {children ? <p className={styles.emptyText}>{children}</p> : null}
      {action ? <div className={styles.emptyAction}>{action}</div> : null}
    </div>
  );
}

export type Tone = "info" | "success" | "warning" | "danger";
const TONE_ICONS: Record<Tone, LucideIcon> = {
  info: Info,
  success: CheckCircle2,
  warning: AlertTriangle,
  danger: XCircle,
};

export function Notice({
  tone = "info",
  title,
  children,
  meta,
  actions,
  role,
}: {
  tone?: Tone;
  title?: ReactNode;
  children?: ReactNode;
  meta?: ReactNode;
  actions?: ReactNode;
  role?: "status" | "alert";
}) {
  const Icon = TONE_ICONS[tone];
  return (
    <div className={[styles.notice, styles[tone]].join(" ")} role={role}>
      <Icon size={18} aria-hidden="true" />
      <div className={styles.noticeBody}>
        {title ? <span className={styles.noticeTitle}>{title}</span> : null}
        {children ? <span>{children}</span> : null}
        {meta ? <span className={styles.noticeMeta}>{meta}</span> : null}
      </div>
      {actions ? <div className={styles.noticeActions}>{actions}</div> : null}
    </div>
  );
}

/**
 * A failed write: what the server said. With `fieldsInline`, nothing when the server named
 * fields, because each field shows its own message.
 */
export function FailureNotice({
  error,
  fieldsInline = false,
  fallback = "That did not work; try again.",
}: {
  error: unknown;
  fieldsInline?: boolean;
  fallback?: string;
}) {
  if (!error) return null;
  if (fieldsInline && isApiError(error) && error.fieldErrors.length > 0) return null;
  return (
    <Notice tone="danger" role="alert">
      {isApiError(error) ? error.detail : fallback}
    </Notice>
  );
}

/** A failed load: what the server said and its request id, never zeros or stale data. */
export function ErrorPanel({
  error,
  onRetry,
  what,
}: {
  error: unknown;
  onRetry?: () => void;
  what?: string;
}) {
  const detail = isApiError(error) ? error.detail : "Something unexpected went wrong in the dashboard.";
  const requestId = isApiError(error) ? error.requestId : undefined;
  return (
    <Notice
      tone="danger"
      role="alert"
      title={what ? `Could not load ${what}` : "Something went wrong"}
      meta={requestId ? `Request id ${requestId}` : undefined}
      actions={
        onRetry ? (
          <Button size="sm" onClick={onRetry}>
            Retry
          </Button>
        ) : undefined
      }
    >
      {detail}
    </Notice>
  );
}

export function Skeleton({ width = "w100" }: { width?: "w40" | "w60" | "w80" | "w100" }) {
  return <span className={[styles.skeleton, styles[width]].join(" ")} aria-hidden="true" />;
}

/** Placeholder rows shaped like a list, announced once as loading. */
export function SkeletonRows({ rows = 3, label }: { rows?: number; label: string }) {
  const widths = ["w80", "w60", "w100", "w40"] as const;
  return (
    <div className={styles.skeletonStack} role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} width={widths[i % widths.length]} />
      ))}
    </div>
  );
}

export function Badge({ tone, children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span className={[styles.badge, tone ? styles[tone] : ""].filter(Boolean).join(" ")}>{children}</span>
  );
}

/**
 * What a page shows instead of its content while its main query loads or after it failed:
 * skeleton rows in a card titled like the content, or the error with Retry. Null once loaded.
 */
export function loadingOrFailed(
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown },
  { title, what, rows = 4 }: { title: string; what: string; rows?: number },
): ReactNode | null {
  if (query.isPending) {
    return (
      <Card title={title}>
        <SkeletonRows rows={rows} label={`Loading ${what}`} />
      </Card>
    );
  }
  if (query.isError)
    return <ErrorPanel what={what} error={query.error} onRetry={() => void query.refetch()} />;
  return null;
}

/** What a reader without the right to change a page is told, in place of its controls. */
export function ReadOnlyNotice({ canWrite, children }: { canWrite: boolean; children: ReactNode }) {
  return canWrite ? null : (
    <Notice tone="info" role="status">
      {children}
    </Notice>
  );
}
