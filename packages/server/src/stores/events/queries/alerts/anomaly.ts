// The events-store side of anomaly rules: per rule, the window-sized buckets the model reads —
// the evaluated window and the level windows before it, this week and the same stretch in each
// past week (with the windows just after it there) — from one statement per project and window,
// grouped by bucket number.
import type { AnomalyMetric } from "@sightline/contracts";
import { API_REQUESTS, type EventsExecutor } from "../../index.js";
import { allOf, SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";
import { type MetricSpec, metricSql, scopeCondition } from "./metrics.js";

export const WEEK_MS = 7 * 86_400_000;

export interface BucketRange {
  readonly projectId: string;
  /** Epoch ms where bucket 0 ends (exclusive); bucket b covers [end - (b+1)·w, end - b·w). */
  readonly endMs: number;
  readonly windowSeconds: number;
  /** Buckets read back from `endMs` in each of this week and the past weeks. */
  readonly buckets: number;
  /** Past weeks read besides this one (the model's baseline). */
  readonly weeks: number;
  /** Buckets read after `endMs` in the past weeks only (they are known); `at(week, -1 - j)`. */
  readonly ahead?: number;
}

/** What the events store knows of one window of a scope. */
export interface BucketStats {
  readonly requests: number;
  /** Requests counted as errors (error_rate rules; 0 otherwise). */
  readonly errors: number;
  /** The 95th percentile of response time in ms; null without requests (p95 rules only). */
  readonly p95: number | null;
}

/**
 * A rule's buckets: `at(week, bucket)` with week 0 this week; empty buckets are zero requests. In
 * past weeks a negative bucket is a window after the evaluated time (`-1` the first one).
 */
export interface RuleBuckets {
  at(week: number, bucket: number): BucketStats;
}

const EMPTY: BucketStats = { requests: 0, errors: 0, p95: null };

export type AnomalySpec = MetricSpec & { readonly metric: AnomalyMetric };

export async function readBuckets(
  events: EventsExecutor,
  range: BucketRange,
  specs: readonly AnomalySpec[],
): Promise<RuleBuckets[]> {
  if (specs.length === 0) return [];
  const windowMs = range.windowSeconds * 1000;
  const perWeek = WEEK_MS / windowMs;
  const ahead = range.ahead ?? 0;
  // Past weeks' windows after `endMs` take bucket numbers just below that week's first one, which
  // stay clear of the week after's stretch while the two together fit a week.
  if (!Number.isInteger(perWeek) || range.buckets + ahead > perWeek)
    throw new RangeError(`${range.buckets} + ${ahead} buckets of ${range.windowSeconds} s do not fit a week`);
  const params = new SqlParams();
  const end = params.bind(range.endMs, "UInt64");
  const columns = specs.flatMap((spec, index) => {
    const scope = scopeCondition(spec, params);
    const errors = spec.metric === "error_rate" ? metricSql(spec, scope, params) : "toUInt64(0)";
    const p95 =
      spec.metric === "p95_latency_ms" ? metricSql(spec, scope, params) : "CAST(NULL AS Nullable(Float64))";
    return [`countIf(${scope}) AS n${index}`, `${errors} AS e${index}`, `${p95} AS q${index}`];
  });
  const spans = Array.from({ length: range.weeks + 1 }, (_, week) => {
    const weekEnd = range.endMs - week * WEEK_MS;
    const spanStart = weekEnd - range.buckets * windowMs;
    const spanEnd = week === 0 ? weekEnd : weekEnd + ahead * windowMs;
    return `(timestamp >= ${params.instant(spanStart)} AND timestamp < ${params.instant(spanEnd)})`;
  });
  const rows = await events.query<Record<string, number | string | null>>(
    `SELECT intDiv(toInt64(${end}) - toUnixTimestamp64Milli(timestamp) - 1, ${params.bind(windowMs, "UInt64")}) AS b, ` +
      `${columns.join(", ")} FROM ${qualified(events, API_REQUESTS)} ` +
      `WHERE ${allOf([...tenantConditions({ projectId: range.projectId }, params), `(${spans.join(" OR ")})`])} ` +
      `GROUP BY b`,
    params.values,
    "read",
  );
  return specs.map((_, index) => {
    const byBucket = new Map<number, BucketStats>();
    for (const row of rows) {
      const requests = Number(row[`n${index}`] ?? 0);
      if (requests === 0) continue;
      const p95 = row[`q${index}`];
      byBucket.set(Number(row.b), {
        requests,
        errors: Number(row[`e${index}`] ?? 0),
        p95: p95 === null || p95 === undefined || !Number.isFinite(Number(p95)) ? null : Number(p95),
      });
    }
    return { at: (week, bucket) => byBucket.get(week * perWeek + bucket) ?? EMPTY };
  });
}
