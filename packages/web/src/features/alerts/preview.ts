// The live preview's arithmetic: which analytics time series answers a rule's scope, at what
// bucket width, and the rule's metric over its own window ending at each bucket, from those
// buckets (sums for counts and rates; percentiles cannot be summed, so they stay per bucket).
import type { AlertComparator, AlertMetric, TimeseriesPoint } from "@sightline/contracts";
import { meets } from "./rule-text";

export const PREVIEW_HOURS = 24;
/** The analytics routes answer at most this many buckets. */
const MAX_BUCKETS = 2000;
const BUCKETS_SECONDS = [60, 300, 900, 3600] as const;
const INTERVAL_NAMES: Record<number, "1m" | "5m" | "15m" | "1h"> = {
  60: "1m",
  300: "5m",
  900: "15m",
  3600: "1h",
};

export interface PreviewRule {
  readonly metric: AlertMetric;
  readonly error_status_from: 400 | 500;
  readonly status: string;
  readonly comparator: AlertComparator;
  readonly threshold: number;
  readonly window_seconds: number;
  readonly min_requests: number;
}

export interface PreviewScope {
  readonly app: string;
  readonly environment: string;
  readonly method: string;
  readonly route: string;
}

export interface Bucketing {
  /** Bucket width in seconds. */
  readonly seconds: number;
  readonly interval: "1m" | "5m" | "15m" | "1h";
  /** Buckets in one rule window (the rolling sum's length). */
  readonly perWindow: number;
}

/**
 * The finest bucket width that divides the window and keeps 24 h plus one window under the
 * server's bucket limit; a window that is not a whole number of minutes is rounded up.
 */
export function bucketingFor(windowSeconds: number): Bucketing {
  const fits = (seconds: number) => (PREVIEW_HOURS * 3600 + windowSeconds) / seconds <= MAX_BUCKETS - 2;
  const exact = BUCKETS_SECONDS.find((seconds) => windowSeconds % seconds === 0 && fits(seconds));
  const seconds = exact ?? BUCKETS_SECONDS.find(fits) ?? 3600;
  return {
    seconds,
    interval: INTERVAL_NAMES[seconds] as Bucketing["interval"],
    perWindow: Math.max(1, Math.ceil(windowSeconds / seconds)),
  };
}

/** The analytics route and its query for a scope (project, app + environment, or endpoint). */
export function previewRequest(
  project: string,
  scope: PreviewScope,
  bucketing: Bucketing,
  until: Date,
): { path: string; query: Record<string, string> } {
  const since = new Date(
    until.getTime() - PREVIEW_HOURS * 3_600_000 - bucketing.perWindow * bucketing.seconds * 1000,
  );
  const window = {
    since: since.toISOString(),
    until: until.toISOString(),
    interval: bucketing.interval,
    ...(scope.app !== "" && scope.environment !== "" ? { environment: scope.environment } : {}),
  };
  const p = encodeURIComponent;
  if (scope.app !== "" && scope.method !== "" && scope.route !== "") {
    return {
      path: `/apps/${p(scope.app)}/analytics/endpoint-timeseries`,
      query: { ...window, project, method: scope.method, path: scope.route },
    };
  }
  return {
    path: `/projects/${p(project)}/analytics/timeseries`,
    query: { ...window, ...(scope.app !== "" ? { app_slugs: scope.app } : {}) },
  };
}

/** Why a metric has no preview, or null when it has one. */
export function unsupportedReason(rule: Pick<PreviewRule, "metric" | "status">): string | null {
  if (rule.metric !== "status_count") return null;
  if (/^[45]xx$/.test(rule.status)) return null;
  return "The analytics time series count 4xx and 5xx responses only, so there is no preview for a single status code or another class. The rule itself counts it exactly.";
}

export interface PreviewPoint {
  /** Start of the newest bucket of the window this point measures (ISO, as the server sent it). */
  readonly bucket: string;
  readonly value: number | null;
  readonly requests: number;
  /** The condition holds and the minimum request count is reached. */
  readonly breach: boolean;
}

export interface PreviewSeries {
  readonly points: readonly PreviewPoint[];
  /** The newest point: the window ending now. */
  readonly latest: PreviewPoint | null;
  readonly highest: number | null;
  readonly breaches: number;
  /** Percentiles cannot be combined across buckets: shown per bucket, not per window. */
  readonly perBucket: boolean;
}

function bucketValue(rule: PreviewRule, point: TimeseriesPoint): number {
  switch (rule.metric) {
    case "request_count":
      return point.total_requests;
    case "status_count":
      return rule.status === "4xx" ? point.client_errors : point.server_errors;
    case "error_rate":
      return rule.error_status_from === 400 ? point.error_count : point.server_errors;
    case "p95_latency_ms":
      return point.p95_response_time_ms;
    case "p99_latency_ms":
      return point.p99_response_time_ms;
    case "silent_minutes":
      // Heartbeats are not traffic: the editor shows no preview for silence rules.
      return Number.NaN;
  }
}

/**
 * The rule's metric over its window ending at each of the last 24 h of buckets. Points before
 * a full window of buckets is available are dropped. `min_requests` applies as on the server:
 * not to `request_count`.
 */
export function previewSeries(
  rule: PreviewRule,
  points: readonly TimeseriesPoint[],
  bucketing: Bucketing,
): PreviewSeries {
  const perBucket =
    (rule.metric === "p95_latency_ms" || rule.metric === "p99_latency_ms") && bucketing.perWindow > 1;
  const out: PreviewPoint[] = [];
  let sumValue = 0;
  let sumRequests = 0;
  for (let i = 0; i < points.length; i++) {
    const point = points[i] as TimeseriesPoint;
    sumValue += bucketValue(rule, point);
    sumRequests += point.total_requests;
    const leaving = points[i - bucketing.perWindow];
    if (leaving !== undefined) {
      sumValue -= bucketValue(rule, leaving);
      sumRequests -= leaving.total_requests;
    }
    if (i < bucketing.perWindow - 1) continue;
    const latency = rule.metric === "p95_latency_ms" || rule.metric === "p99_latency_ms";
    const requests = latency && perBucket ? point.total_requests : sumRequests;
    let value: number | null;
    if (rule.metric === "error_rate") value = sumRequests === 0 ? null : (sumValue / sumRequests) * 100;
    else if (latency) value = requests === 0 ? null : bucketValue(rule, point);
    else value = sumValue;
    const enough = rule.metric === "request_count" || requests >= rule.min_requests;
    out.push({
      bucket: point.bucket,
      value,
      requests,
      breach: enough && meets(rule.comparator, value, rule.threshold),
    });
  }
  const visible = out.slice(-Math.round((PREVIEW_HOURS * 3600) / bucketing.seconds));
  let highest: number | null = null;
  let breaches = 0;
  for (const point of visible) {
    if (point.value !== null && (highest === null || point.value > highest)) highest = point.value;
    if (point.breach) breaches++;
  }
  return { points: visible, latest: visible[visible.length - 1] ?? null, highest, breaches, perBucket };
}
