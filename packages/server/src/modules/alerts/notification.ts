// What a notification says, independent of the channel: the rule, the observed value against
// the threshold, the window, and links into the dashboard. Stored as the outbox row's payload,
// then rendered per channel (e-mail, webhook JSON, Slack Block Kit) when it is sent.
import type { AlertComparator, AlertMetric, AlertRuleKind, AnomalySensitivity } from "@sightline/contracts";

export type NotificationKind = "firing" | "resolved" | "test";

export interface Notification {
  readonly kind: NotificationKind;
  /** The alert event it reports; null for a test notification. */
  readonly event_id: string | null;
  readonly occurred_at: string;
  readonly project: { readonly id: string; readonly slug: string; readonly name: string };
  readonly rule: {
    readonly id: string;
    readonly name: string;
    readonly kind: AlertRuleKind;
    readonly metric: AlertMetric;
    /** Threshold rules; null for anomaly rules (see `band`). */
    readonly comparator: AlertComparator | null;
    readonly threshold: number | null;
    /** Anomaly rules; null for threshold rules. */
    readonly sensitivity: AnomalySensitivity | null;
    readonly window_seconds: number;
    readonly error_status_from: number | null;
    readonly status: string | null;
    readonly scope: {
      readonly app: string | null;
      readonly environment: string | null;
      readonly endpoint: { readonly method: string; readonly route: string } | null;
    };
  };
  readonly value: number | null;
  /** Anomaly rules: the expected value and band the value was judged against; null otherwise. */
  readonly band: { readonly expected: number; readonly lower: number; readonly upper: number } | null;
  readonly request_count: number;
  /** Silence rules: the newest heartbeat of the longest-silent app, and the apps silent for the window. */
  readonly silence?: { readonly last_heartbeat_at: string | null; readonly silent_apps: readonly string[] };
  readonly window: { readonly start: string; readonly end: string };
  readonly links: { readonly rule: string; readonly dashboard: string };
}

/**
 * The rule's page and the dashboard page showing what the rule watched, under PUBLIC_URL: the
 * project's overview (filtered to the app and environment) or, for an endpoint rule, the endpoint's
 * page, over the evaluated window so the figures there are the ones the notification reports.
 * Query keys are the dashboard's own (`env`, `path`), not the rule's field names.
 */
export function dashboardLinks(
  publicUrl: string,
  projectSlug: string,
  ruleId: string,
  scope: Notification["rule"]["scope"],
  window: Notification["window"],
): Notification["links"] {
  const project = `${publicUrl}/projects/${encodeURIComponent(projectSlug)}`;
  const query = new URLSearchParams();
  if (scope.app !== null) query.set("app", scope.app);
  if (scope.environment !== null) query.set("env", scope.environment);
  if (scope.endpoint !== null) {
    query.set("method", scope.endpoint.method);
    query.set("path", scope.endpoint.route);
  }
  query.set("since", window.start);
  query.set("until", window.end);
  const page = scope.endpoint !== null ? `${project}/endpoints/detail` : project;
  return {
    rule: `${project}/alerts/${encodeURIComponent(ruleId)}`,
    dashboard: `${page}?${query.toString()}`,
  };
}

const COMPARATOR_TEXT: Record<AlertComparator, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };

const METRIC_TEXT: Record<AlertMetric, string> = {
  error_rate: "error rate",
  p95_latency_ms: "p95 latency",
  p99_latency_ms: "p99 latency",
  request_count: "requests",
  status_count: "responses",
  silent_minutes: "time without a heartbeat",
};

/** `error rate (status >= 500)`, `responses 5xx`, `p95 latency`. */
export function metricLabel(rule: Notification["rule"]): string {
  if (rule.metric === "error_rate") return `error rate (status >= ${rule.error_status_from ?? 500})`;
  if (rule.metric === "status_count") return `responses ${rule.status ?? ""}`.trim();
  return METRIC_TEXT[rule.metric];
}

export function formatValue(metric: AlertMetric, value: number | null): string {
  if (value === null) return "no data";
  if (metric === "error_rate") return `${round(value)}%`;
  if (metric === "p95_latency_ms" || metric === "p99_latency_ms") return `${round(value)} ms`;
  if (metric === "silent_minutes") return `${round(value)} min`;
  return String(Math.round(value));
}

/** What the value is judged against: `Threshold` or, for anomaly rules, `Expected band`. */
export function conditionLabel(notification: Notification): string {
  if (notification.rule.kind === "silence") return "Fires after";
  return notification.rule.kind === "anomaly" ? "Expected band" : "Threshold";
}

/** `> 5%`, or for an anomaly rule `84 – 166 (expected 120)`. */
export function formatCondition(notification: Notification): string {
  const { rule, band } = notification;
  if (rule.kind === "silence") return `${formatWindow(rule.window_seconds)} without a heartbeat`;
  if (rule.comparator === null || rule.threshold === null) {
    if (band === null) return "no baseline yet";
    const value = (x: number) => formatValue(rule.metric, x);
    return `${value(band.lower)} – ${value(band.upper)} (expected ${value(band.expected)})`;
  }
  return `${COMPARATOR_TEXT[rule.comparator]} ${formatValue(rule.metric, rule.threshold)}`;
}

export function formatWindow(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

export function formatScope(notification: Notification): string {
  const { scope } = notification.rule;
  const parts = [scope.app === null ? `project ${notification.project.name}` : `app ${scope.app}`];
  if (scope.environment !== null) parts.push(`environment ${scope.environment}`);
  if (scope.endpoint !== null) parts.push(`${scope.endpoint.method} ${scope.endpoint.route}`);
  return parts.join(", ");
}

export function headline(notification: Notification): string {
  const label = { firing: "FIRING", resolved: "RESOLVED", test: "TEST" }[notification.kind];
  return `[${label}] ${notification.rule.name}`;
}

/** One sentence: `error rate (status >= 500) was 7.5% (> 5%) over 5 min, 240 requests`. */
export function summaryLine(notification: Notification): string {
  const { rule } = notification;
  if (rule.kind === "silence") return silenceLine(notification);
  return (
    `${metricLabel(rule)} was ${formatValue(rule.metric, notification.value)} ` +
    `(${conditionLabel(notification).toLowerCase()} ${formatCondition(notification)}) over ${formatWindow(rule.window_seconds)}, ` +
    `${notification.request_count} request${notification.request_count === 1 ? "" : "s"}`
  );
}

/** `no heartbeat for 12.5 min (fires after 10 min); silent: checkout, billing`. */
function silenceLine(notification: Notification): string {
  const { rule, silence } = notification;
  const apps = silence?.silent_apps ?? [];
  const head =
    notification.value === null
      ? "no heartbeat received yet"
      : `no heartbeat for ${formatValue(rule.metric, notification.value)}`;
  return (
    `${head} (fires after ${formatWindow(rule.window_seconds)})` +
    (apps.length === 0 ? "" : `; silent: ${apps.join(", ")}`)
  );
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}
