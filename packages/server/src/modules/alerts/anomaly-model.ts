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
  /** Past weeks only: the windows after it, oldest first (known, unlike this week's). */
  readonly after?: readonly BucketStats[];
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
  /** The last stretch of the level windows of which at least one must be alike (see levelRatio). */
  nearSeconds: 1_800,
  /**
   * Level windows whose ratio to a past week is beyond ×/÷ this are incidents, not level. As
   * large as the smallest change that fires (1 + minRelativeChange would be 1.5; a little less):
   * a week that runs 30 % above a month ago (trend, a busy day) is a level, and a change big
   * enough to fire is never taken for one.
   */
  levelClamp: 1.4,
  /**
   * A past week's value at this time of week is the median of its window then and this many
   * windows either side: one window is as noisy as this week's, and the median of four such put
   * the expected value off by chance often enough to fire on a noisy window now. The median, not
   * the mean, keeps a step of the week (a weekend ending at midnight) on its own side.
   */
  baselineNeighbours: 1,
  /**
   * The spread is also read over the newest stretch alone — the evaluated window and the level
   * windows of this many seconds before it — where the level ratio, fitted over two hours, is
   * carried forward. When the past weeks moved differently from one another there (a new day,
   * with a level of its own), their deviations there are large though the two hours agree, and
   * the band widens with them. Weighted below 1: a median of a dozen or so deviations is a
   * noisier estimate than the median of all, and should widen the band only when it says more.
   */
  nearSpreadSeconds: 900,
  nearSpreadWeight: 0.8,
  /** Half-width of the band in noise units, per sensitivity. */
  bandWidth: { high: 5.5, medium: 6.5, low: 8 } satisfies Record<AnomalySensitivity, number>,
  /**
   * Smallest change that can fire: for counts and latency a factor (× or ÷ 1.5: symmetric, as
   * traffic halving is as large a change as traffic doubling), for errors percentage points.
   */
  minRelativeChange: 0.5,
  minErrorRatePoints: 1,
  /** Relative noise of a p95 from n requests is about latencyNoise / √n (log-normal-like tails). */
  latencyNoise: 1.5,
  /** Error rates are compared on (rate + this) so a level ratio of 0.1 % to 0.2 % is not ×2. */
  errorRateSmoothing: 0.5,
  /**
   * The spread is the median of the leave-one-out deviations (each past week against the median
   * of the others) read as a standard deviation: the median |x − median of k others| of normal
   * noise, per number of weeks (the median of the others is itself noisy, so it is more than
   * |N(0,1)|'s 0.674). The median, not a higher quantile: a past week's incident spoils that
   * week's deviations only, up to a quarter of them, which moves the median little.
   */
  spreadDeviate: { 2: 0.954, 3: 0.826, 4: 0.809 } as Readonly<Record<number, number>>,
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
 * week's incident), not a level, and is left out. Null — the two weeks were unlike each other
 * (an incident then, or one under way now) — with fewer than a third left, or none of the
 * windows of the last half hour (an incident that began less than two hours before).
 * Error rates are compared on (rate + errorRateSmoothing) so 0.1 % against 0.2 % is not ×2.
 */
function levelRatio(
  metric: AnomalyMetric,
  now: readonly BucketStats[],
  then: readonly BucketStats[],
): number | null {
  const shift =
    metric === "request_count" ? 1 : metric === "error_rate" ? ANOMALY_MODEL.errorRateSmoothing : 0;
  const ratios: number[] = [];
  // Level windows are newest first: those of the last half hour are the first `near`.
  const near = Math.max(1, Math.round(now.length * (ANOMALY_MODEL.nearSeconds / ANOMALY_MODEL.levelSeconds)));
  let nearAlike = 0;
  for (let index = 0; index < now.length; index += 1) {
    const a = valueOf(metric, now[index] as BucketStats);
    const b = then[index] === undefined ? null : valueOf(metric, then[index] as BucketStats);
    if (a === null || b === null || b + shift <= 0 || a + shift <= 0) continue;
    const ratio = (a + shift) / (b + shift);
    if (ratio <= ANOMALY_MODEL.levelClamp && ratio * ANOMALY_MODEL.levelClamp >= 1) {
      ratios.push(ratio);
      if (index < near) nearAlike += 1;
    }
  }
  return ratios.length === 0 || ratios.length * 3 < now.length || nearAlike === 0 ? null : median(ratios);
}

/** A past week's value brought to this week's level. */
function scaled(metric: AnomalyMetric, value: number, ratio: number): number {
  if (metric !== "error_rate") return value * ratio;
  const smoothing = ANOMALY_MODEL.errorRateSmoothing;
  return clamp((value + smoothing) * ratio - smoothing, 0, 100);
}

/** The median (the mean of the middle two for an even count); NaN for none. Numeric sort of a
 *  typed copy: most lists are a handful of weeks or windows, evaluated every minute per rule. */
export function median(values: ArrayLike<number>): number {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const middle = n >> 1;
  return n % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

const hasTraffic = (week: WeekBuckets) =>
  week.current.requests > 0 || week.recent.some((bucket) => bucket.requests > 0);

export function evaluateAnomaly(history: AnomalyHistory, params: AnomalyParams): AnomalyVerdict {
  const { metric } = params;
  const value = valueOf(metric, history.now.current);
  const withTraffic = history.weeks.filter(hasTraffic);
  const warming: AnomalyVerdict = {
    status: "warming_up",
    value,
    expected: null,
    lower: null,
    upper: null,
    score: null,
    breach: false,
    weeksUsed: withTraffic.length,
  };
  if (withTraffic.length < ANOMALY_MODEL.minWeeks) return warming;

  // Each past week, scaled by how this week's last hours compare with that week's same hours. A
  // week whose last hours were unlike this week's is left out — it was in an incident then (its
  // value now would be one too) — unless too few weeks would remain: then none is scaled, as when
  // this week is the odd one (an incident under way for hours).
  const levels = withTraffic.map((week) => levelRatio(metric, history.now.recent, week.recent));
  const alike = withTraffic.filter((_, k) => levels[k] !== null);
  const weeks = alike.length >= ANOMALY_MODEL.minWeeks ? alike : withTraffic;
  const ratios =
    alike.length >= ANOMALY_MODEL.minWeeks
      ? (levels.filter((r) => r !== null) as number[])
      : weeks.map(() => 1);
  const samples: number[] = [];
  for (let k = 0; k < weeks.length; k += 1) {
    const past = valueAround(metric, weeks[k] as WeekBuckets);
    if (past !== null) samples.push(scaled(metric, past, ratios[k] as number));
  }
  if (samples.length < ANOMALY_MODEL.minWeeks) return warming;
  const expected = median(samples);
  const sd = disagreement(metric, history.now.recent.length, weeks, ratios);

  const requests = history.now.current.requests;
  const width = ANOMALY_MODEL.bandWidth[params.sensitivity];
  const centre = toNoise(metric, expected, requests);
  const minChange =
    metric === "error_rate" ? ANOMALY_MODEL.minErrorRatePoints : ANOMALY_MODEL.minRelativeChange * expected;
  const lowerEdge =
    metric === "error_rate" ? expected - minChange : expected / (1 + ANOMALY_MODEL.minRelativeChange);
  const lower = Math.max(0, Math.min(fromNoise(metric, centre - width * sd, requests), lowerEdge));
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

/**
 * A past week's value at the evaluated time of week: the median of its window then and the
 * windows either side (ANOMALY_MODEL.baselineNeighbours); null when none has a value.
 */
function valueAround(metric: AnomalyMetric, week: WeekBuckets): number | null {
  const around: number[] = [];
  const reach = ANOMALY_MODEL.baselineNeighbours;
  for (let j = -reach; j <= reach; j += 1) {
    const bucket = j === 0 ? week.current : j < 0 ? week.recent[-j - 1] : week.after?.[j - 1];
    const value = bucket === undefined ? null : valueOf(metric, bucket);
    if (value !== null) around.push(value);
  }
  return around.length === 0 ? null : median(around);
}

/**
 * How much the past weeks disagree, in noise units, over the evaluated window and the level
 * windows: each past week's (scaled) value against the median of the other weeks — the question
 * the band asks of this week — and the median of those deviations read as a standard deviation.
 * This week's own windows are left out, as an incident under way would widen the band it is
 * judged by; a past week's incident spoils only its own deviations. At least 1: sampling noise.
 * The larger of that and the same reading over the newest slots alone (ANOMALY_MODEL.nearSpread*).
 */
function disagreement(
  metric: AnomalyMetric,
  levelWindows: number,
  weeks: readonly WeekBuckets[],
  ratios: readonly number[],
): number {
  const slots = levelWindows + 1;
  // Slots are newest first (0 the evaluated window), so the near ones' deviations come first.
  const nearSlots =
    1 +
    Math.max(1, Math.round(levelWindows * (ANOMALY_MODEL.nearSpreadSeconds / ANOMALY_MODEL.levelSeconds)));
  let nearDeviations = 0;
  const deviations: number[] = [];
  const values: number[] = [];
  const counts: number[] = [];
  const others: number[] = [];
  for (let slot = 0; slot < slots; slot += 1) {
    values.length = 0;
    counts.length = 0;
    for (let k = 0; k < weeks.length; k += 1) {
      const week = weeks[k] as WeekBuckets;
      const bucket = slot === 0 ? week.current : week.recent[slot - 1];
      if (bucket === undefined) continue;
      const observed = valueOf(metric, bucket);
      if (observed === null) continue;
      values.push(scaled(metric, observed, ratios[k] as number));
      counts.push(bucket.requests);
    }
    if (values.length < ANOMALY_MODEL.minWeeks) continue;
    if (slot < nearSlots) nearDeviations += values.length;
    for (let i = 0; i < values.length; i += 1) {
      others.length = 0;
      for (let j = 0; j < values.length; j += 1) if (j !== i) others.push(values[j] as number);
      const n = counts[i] as number;
      deviations.push(Math.abs(toNoise(metric, values[i] as number, n) - toNoise(metric, median(others), n)));
    }
  }
  if (deviations.length === 0) return 1;
  const deviate = ANOMALY_MODEL.spreadDeviate[Math.min(weeks.length, ANOMALY_MODEL.weeks)] ?? 0.809;
  const near = nearDeviations === 0 ? 0 : median(deviations.slice(0, nearDeviations));
  return Math.max(1, median(deviations) / deviate, (ANOMALY_MODEL.nearSpreadWeight * near) / deviate);
}

/**
 * The model's history for the window ending `offset` buckets before the range's end; past weeks
 * also take the windows after it, which the range must hold (`ahead` of readBuckets).
 */
export function historyAt(buckets: RuleBuckets, windowSeconds: number, offset = 0): AnomalyHistory {
  const level = levelBucketsOf(windowSeconds);
  const week = (k: number) => ({
    current: buckets.at(k, offset),
    recent: Array.from({ length: level }, (_, j) => buckets.at(k, offset + 1 + j)),
    after:
      k === 0
        ? []
        : Array.from({ length: ANOMALY_MODEL.baselineNeighbours }, (_, j) => buckets.at(k, offset - 1 - j)),
  });
  return {
    now: week(0),
    weeks: Array.from({ length: ANOMALY_MODEL.weeks }, (_, k) => week(k + 1)),
  };
}
