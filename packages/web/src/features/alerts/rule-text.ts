// How a rule reads to a person: metric names and units, comparators, windows, scope and state,
// and its condition in one sentence. Pure functions, shared by the list, the detail and the form.
import type { AlertComparator, AlertMetric, AlertRule, AlertScope } from "@sightline/contracts";

export const METRIC_LABELS: Record<AlertMetric, string> = {
  error_rate: "Error rate",
  p95_latency_ms: "p95 latency",
  p99_latency_ms: "p99 latency",
  request_count: "Request count",
  status_count: "Status count",
  silent_minutes: "Time without a heartbeat",
};

export const COMPARATOR_SYMBOLS: Record<AlertComparator, string> = { gt: ">", gte: "≥", lt: "<", lte: "≤" };
export const COMPARATOR_WORDS: Record<AlertComparator, string> = {
  gt: "above",
  gte: "at or above",
  lt: "below",
  lte: "at or below",
};

/** The metric's unit suffix, as figures are shown. */
export function metricUnit(metric: AlertMetric): "%" | "ms" | "min" | "" {
  if (metric === "error_rate") return "%";
  if (metric === "silent_minutes") return "min";
  if (metric === "p95_latency_ms" || metric === "p99_latency_ms") return "ms";
  return "";
}

/** "25.0 %", "240 ms", "1,204": a value of the metric. */
export function formatMetricValue(metric: AlertMetric, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "—";
  const unit = metricUnit(metric);
  if (unit === "%") return `${value.toFixed(1)} %`;
  if (unit === "min") return `${Number(value.toFixed(1))} min`;
  if (unit === "ms")
    return `${value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(1)} ms`;
  return Math.round(value).toLocaleString("en-US");
}

/** "5 min", "1 h 30 min", "24 h", "90 s". */
export function formatWindow(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds.toLocaleString("en-US")} s`;
  const minutes = seconds / 60;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${minutes} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** What is measured, with its qualifier: "Error rate (5xx)", "Status count (503)". */
export function metricName(rule: Pick<AlertRule, "metric" | "error_status_from" | "status">): string {
  if (rule.metric === "error_rate")
    return `Error rate (${rule.error_status_from === 400 ? "4xx + 5xx" : "5xx"})`;
  if (rule.metric === "status_count") return `Status count (${rule.status ?? "?"})`;
  return METRIC_LABELS[rule.metric];
}

/** "Error rate (5xx) > 5.0 % over 5 min". */
export function conditionText(
  rule: Pick<
    AlertRule,
    "metric" | "error_status_from" | "status" | "comparator" | "threshold" | "window_seconds"
  >,
): string {
  // Silence rules (the only ones on this metric): the window is the silence that fires.
  if (rule.metric === "silent_minutes") return `No heartbeat for ${formatWindow(rule.window_seconds)}`;
  if (rule.comparator === null || rule.threshold === null)
    return `${metricName(rule)} outside the expected band over ${formatWindow(rule.window_seconds)}`;
  return `${metricName(rule)} ${COMPARATOR_SYMBOLS[rule.comparator]} ${formatMetricValue(
    rule.metric,
    rule.threshold,
  )} over ${formatWindow(rule.window_seconds)}`;
}

/** "Whole project", "checkout-api · production · GET /orders/{id}". */
export function scopeText(scope: AlertScope): string {
  if (scope.app === null) return "Whole project";
  return [
    scope.app.name,
    scope.environment,
    scope.endpoint ? `${scope.endpoint.method} ${scope.endpoint.route}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(" · ");
}

export function isMuted(rule: Pick<AlertRule, "muted_until">, now: number = Date.now()): boolean {
  return rule.muted_until !== null && Date.parse(rule.muted_until) > now;
}

/** Whether `value` meets the condition (a null value never does, as on the server). */
export function meets(comparator: AlertComparator, value: number | null, threshold: number): boolean {
  if (value === null) return false;
  switch (comparator) {
    case "gt":
      return value > threshold;
    case "gte":
      return value >= threshold;
    case "lt":
      return value < threshold;
    case "lte":
      return value <= threshold;
  }
}

export type StateLabel = "Firing" | "Pending" | "OK" | "Muted" | "Disabled";

/** The badges a rule shows: its evaluated state, and whether it is muted or switched off. */
export function stateBadges(
  rule: Pick<AlertRule, "state" | "enabled" | "muted_until">,
  now: number = Date.now(),
): StateLabel[] {
  if (!rule.enabled) return ["Disabled"];
  const state: StateLabel = rule.state === "firing" ? "Firing" : rule.state === "pending" ? "Pending" : "OK";
  return isMuted(rule, now) ? [state, "Muted"] : [state];
}
