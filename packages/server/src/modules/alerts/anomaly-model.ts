// The anomaly model of alert rules, without I/O: from the evaluated window, the windows just before
// it and the same windows in past weeks, the expected value, the band around it and whether the
// value is outside. The evaluator, the band route and bench:anomaly all run this code (ADR 0020).
import {
  ANOMALY_WINDOW_SECONDS,
  type AnomalyDirection,
  type AnomalyMetric,
  type AnomalySensitivity,
} from "@sightline/contracts";
import type { BucketStats, RuleBuckets } from "../../stores/events/queries/alerts/anomaly.js";

export type { BucketStats };

/** One week's view: the window at the same time of week, and its level windows. */
export interface WeekBuckets {
  readonly current: BucketStats;
  /** The windows before it, as many as `recent` of the history, newest first. */
  readonly recent: readonly BucketStats[];
}

export interface AnomalyHistory {
  /** This week: the evaluated window and the level windows before it. */
  readonly now: WeekBuckets;
  /** 1 to `ANOMALY_MODEL.weeks` weeks ago, in that order. */
  readonly weeks: readonly WeekBuckets[];
}

export interface AnomalyParams {
  readonly metric: AnomalyMetric;
  readonly sensitivity: AnomalySensitivity;
  readonly direction: AnomalyDirection;
  /** Below this many requests (expected or observed for request_count) the rule does not fire. */
  readonly minRequests: number;
}

export type AnomalyStatus = "warming_up" | "low_volume" | "normal" | "above" | "below";

export interface AnomalyVerdict {
  readonly status: AnomalyStatus;
  /** The observed value; null when it cannot be computed (no requests for a rate or percentile). */
  readonly value: number | null;
  /** Expected value and band; null while warming up (not enough weeks of history). */
  readonly expected: number | null;
  readonly lower: number | null;
  readonly upper: number | null;
  /** How many noise units the value is from the expected value (signed); null when unknown. */
  readonly score: number | null;
  /** Outside the band, in a direction the rule watches, with enough requests: the condition holds. */
  readonly breach: boolean;
  /** Weeks of history the baseline used. */
  readonly weeksUsed: number;
}

/**
 * The model's constants. They are not per rule so that every rule of every project means the
 * same thing by "medium"; the values come from tuning on bench:anomaly's tuning seed (ADR 0020).
 */
export const ANOMALY_MODEL = {
  /** Past weeks read for the seasonal baseline. */
  weeks: 4,
  /** Fewer weeks with traffic than this: warming up, no alerts. */
  minWeeks: 2,
  /** The span before the window whose level, against the same span in past weeks, scales each week. */
  levelSeconds: 7_200,
  /** Level windows whose ratio to a past week is beyond ×/÷ this are incidents, not level. */
  levelClamp: 1.25,
  /** Half-width of the band in noise units, per sensitivity. */
  bandWidth: { high: 4.5, medium: 5.5, low: 7 } satisfies Record<AnomalySensitivity, number>,
  /** Smallest change that can fire: relative for counts and latency, percentage points for errors. */
  minRelativeChange: 0.4,
  minErrorRatePoints: 1,
  /** Relative noise of a p95 from n requests is about latencyNoise / √n (log-normal-like tails). */
  latencyNoise: 1.5,
  /** Error rates are compared on (rate + this) so a level ratio of 0.1 % to 0.2 % is not ×2. */
  errorRateSmoothing: 0.5,
  /**
   * The spread is read from the upper quartile of the deviations, not their median: latency and
   * error bursts have heavier tails than normal noise, and the band is about the tail. Not
   * higher: a past week's incident fills up to a quarter of the deviations.
   */
  spreadQuantile: 0.75,
  /** The normal deviate of that quantile of |deviation| (|N(0,1)| has its 75th percentile at 1.15). */
  spreadQuantileDeviate: 1.1503,
} as const;

/** Windows allowed for anomaly rules: each divides an hour, so weeks and levels are whole windows. */
export const ANOMALY_WINDOWS = ANOMALY_WINDOW_SECONDS;

/** Level windows before the evaluated one, for a window of `windowSeconds`. */
export function levelBucketsOf(windowSeconds: number): number {
  return Math.max(1, Math.round(ANOMALY_MODEL.levelSeconds / windowSeconds));
}

export function valueOf(metric: AnomalyMetric, stats: BucketStats): number | null {
  switch (metric) {
    case "request_count":
      return stats.requests;
    case "error_rate":
      return stats.requests === 0 ? null : (stats.errors / stats.requests) * 100;
    case "p95_latency_ms":
      return stats.requests === 0 ? null : stats.p95;
  }
}

/**
 * The noise scale: a transform under which sampling noise has roughly unit spread, so one band
 * width means the same at 5 and at 5,000 requests. Counts: Anscombe's √ (Poisson); error rates:
 * the arcsine of a binomial share; p95: the logarithm, scaled by √n.
 */
function toNoise(metric: AnomalyMetric, value: number, requests: number): number {
  const n = Math.max(requests, 1);
  switch (metric) {
    case "request_count":
      return 2 * Math.sqrt(Math.max(value, 0) + 3 / 8);
    case "error_rate":
      return 2 * Math.sqrt(n) * Math.asin(Math.sqrt(clamp(value / 100, 0, 1)));
    case "p95_latency_ms":
      return (Math.sqrt(n) * Math.log(Math.max(value, 0.01))) / ANOMALY_MODEL.latencyNoise;
  }
}

function fromNoise(metric: AnomalyMetric, y: number, requests: number): number {
  const n = Math.max(requests, 1);
  switch (metric) {
    case "request_count":
      return y <= 2 * Math.sqrt(3 / 8) ? 0 : (y / 2) ** 2 - 3 / 8;
    case "error_rate":
      return 100 * Math.sin(clamp(y / (2 * Math.sqrt(n)), 0, Math.PI / 2)) ** 2;
    case "p95_latency_ms":
      return Math.exp((y * ANOMALY_MODEL.latencyNoise) / Math.sqrt(n));
  }
}

/**
 * How this week's level windows compare with a past week's same windows: the median of the
 * window-by-window ratios within ×/÷ levelClamp. A window beyond that is an incident (or a past
 * week's incident), not a level, and is left out; with fewer than a third left, no scaling (1).
 * Error rates are compared on (rate + errorRateSmoothing) so 0.1 % against 0.2 % is not ×2.
 */
function levelRatio(
  metric: AnomalyMetric,
  now: readonly BucketStats[],
  then: readonly BucketStats[],
): number {
  const shift =
    metric === "request_count" ? 1 : metric === "error_rate" ? ANOMALY_MODEL.errorRateSmoothing : 0;
  const ratios: number[] = [];
  for (let index = 0; index < now.length; index += 1) {
    const a = valueOf(metric, now[index] as BucketStats);
    const b = then[index] === undefined ? null : valueOf(metric, then[index] as BucketStats);
    if (a === null || b === null || b + shift <= 0 || a + shift <= 0) continue;
    const ratio = (a + shift) / (b + shift);
    if (Math.abs(Math.log(ratio)) <= Math.log(ANOMALY_MODEL.levelClamp)) ratios.push(ratio);
  }
  return ratios.length === 0 || ratios.length * 3 < now.length ? 1 : median(ratios);
}

/** A past week's value brought to this week's level. */
function scaled(metric: AnomalyMetric, value: number, ratio: number): number {
  if (metric !== "error_rate") return value * ratio;
  const smoothing = ANOMALY_MODEL.errorRateSmoothing;
  return clamp((value + smoothing) * ratio - smoothing, 0, 100);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The spread in noise units: the spreadQuantile-th |deviation| read as that many sds. */
function spreadOf(deviations: readonly number[]): number {
  const sorted = [...deviations].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.floor(ANOMALY_MODEL.spreadQuantile * sorted.length));
  return (sorted[rank] as number) / ANOMALY_MODEL.spreadQuantileDeviate;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

const hasTraffic = (week: WeekBuckets) =>
  week.current.requests > 0 || week.recent.some((bucket) => bucket.requests > 0);

export function evaluateAnomaly(history: AnomalyHistory, params: AnomalyParams): AnomalyVerdict {
  const { metric } = params;
  const value = valueOf(metric, history.now.current);
  const weeks = history.weeks.filter(hasTraffic);
  const warming: AnomalyVerdict = {
    status: "warming_up",
    value,
    expected: null,
    lower: null,
    upper: null,
    score: null,
    breach: false,
    weeksUsed: weeks.length,
  };
  if (weeks.length < ANOMALY_MODEL.minWeeks) return warming;

  // Each past week, scaled by how this week's last hours compare with that week's same hours.
  const ratios = weeks.map((week) => levelRatio(metric, history.now.recent, week.recent));
  const samples = weeks.flatMap((week, k) => {
    const past = valueOf(metric, week.current);
    return past === null ? [] : [scaled(metric, past, ratios[k] as number)];
  });
  if (samples.length < ANOMALY_MODEL.minWeeks) return warming;
  const expected = median(samples);

  // How far the past weeks' windows (this one and the level windows before it) strayed from
  // their median across weeks, in noise units: how much the weeks disagree. This week's own
  // windows are left out, as an incident under way would widen the band it is judged by. At
  // least 1: sampling noise alone.
  const deviations: number[] = [];
  const slots = history.now.recent.length + 1;
  for (let slot = 0; slot < slots; slot += 1) {
    const bucketOf = (week: WeekBuckets) => (slot === 0 ? week.current : week.recent[slot - 1]);
    const past = weeks.flatMap((week, k) => {
      const bucket = bucketOf(week);
      const observed = bucket === undefined ? null : valueOf(metric, bucket);
      return bucket === undefined || observed === null
        ? []
        : [{ value: scaled(metric, observed, ratios[k] as number), requests: bucket.requests }];
    });
    if (past.length < ANOMALY_MODEL.minWeeks) continue;
    const reference = median(past.map((item) => item.value));
    const spread = (observed: number, requests: number) =>
      Math.abs(toNoise(metric, observed, requests) - toNoise(metric, reference, requests));
    for (const item of past) deviations.push(spread(item.value, item.requests));
  }
  const sd = Math.max(1, deviations.length === 0 ? 1 : spreadOf(deviations));

  const requests = history.now.current.requests;
  const width = ANOMALY_MODEL.bandWidth[params.sensitivity];
  const centre = toNoise(metric, expected, requests);
  const minChange =
    metric === "error_rate" ? ANOMALY_MODEL.minErrorRatePoints : ANOMALY_MODEL.minRelativeChange * expected;
  const lower = Math.max(0, Math.min(fromNoise(metric, centre - width * sd, requests), expected - minChange));
  const upperRaw = Math.max(fromNoise(metric, centre + width * sd, requests), expected + minChange);
  const upper = metric === "error_rate" ? Math.min(100, upperRaw) : upperRaw;
  const score = value === null ? null : (toNoise(metric, value, requests) - centre) / sd;
  const enough =
    metric === "request_count"
      ? Math.max(value ?? 0, expected) >= params.minRequests
      : requests >= Math.max(1, params.minRequests);
  const band = { expected, lower, upper, score, weeksUsed: weeks.length };
  if (value === null) return { ...band, status: "low_volume", value, breach: false };
  const status: AnomalyStatus = value > upper ? "above" : value < lower ? "below" : "normal";
  const watched =
    (status === "above" && params.direction !== "down") || (status === "below" && params.direction !== "up");
  if (!enough) return { ...band, status: "low_volume", value, breach: false };
  return { ...band, status, value, breach: watched };
}

/** The model's history for the window ending `offset` buckets before the range's end. */
export function historyAt(buckets: RuleBuckets, windowSeconds: number, offset = 0): AnomalyHistory {
  const level = levelBucketsOf(windowSeconds);
  const week = (k: number) => ({
    current: buckets.at(k, offset),
    recent: Array.from({ length: level }, (_, j) => buckets.at(k, offset + 1 + j)),
  });
  return {
    now: week(0),
    weeks: Array.from({ length: ANOMALY_MODEL.weeks }, (_, k) => week(k + 1)),
  };
}
