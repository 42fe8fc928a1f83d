// Where a window is read from: the whole buckets (days, hours) rollup tiers hold completely, coarse
// first, and raw rows for what no tier holds (the partial hours at each end, and any time before
// the rollups are complete).
import type { Rollup } from "../../tables/index.js";

export const HOUR_MS = 3_600_000;

/** Inclusive bounds, epoch milliseconds. */
export interface RawRange {
  readonly since: number;
  readonly until: number;
}

export interface BucketSplit {
  /** Whole buckets `[fromMs, toMs)` read from a rollup; undefined when the window has none. */
  readonly rollup: { readonly fromMs: number; readonly toMs: number } | undefined;
  /** What is read from api_requests, at most two ranges. */
  readonly raw: readonly RawRange[];
}

/**
 * Splits `[since, until]` (inclusive) into whole rollup buckets of `bucketMs` (an hour or a UTC
 * day) and raw edges. `completeFromMs`: rollups hold every row at or after it (earlier buckets
 * are read raw until the backfill reaches them). Fewer than `minBuckets` whole buckets are not
 * worth a second source: all raw.
 */
export function splitWindow(
  since: number,
  until: number,
  completeFromMs: number,
  minBuckets = 1,
  bucketMs = HOUR_MS,
): BucketSplit {
  const from = Math.ceil(Math.max(since, completeFromMs) / bucketMs) * bucketMs;
  const to = Math.floor((until + 1) / bucketMs) * bucketMs;
  if (!Number.isFinite(from) || to - from < minBuckets * bucketMs) {
    return { rollup: undefined, raw: [{ since, until }] };
  }
  const raw: RawRange[] = [];
  if (since < from) raw.push({ since, until: from - 1 });
  if (to <= until) raw.push({ since: to, until });
  return { rollup: { fromMs: from, toMs: to }, raw };
}

/** A rollup tier of a read: its bucket and how far it holds every row. */
export interface Tier<T> {
  readonly tier: T;
  readonly bucketMs: number;
  readonly completeFromMs: number;
}

export interface TieredSplit<T> {
  /** Whole buckets `[fromMs, toMs)` read from each tier, disjoint. */
  readonly buckets: ReadonlyArray<{ readonly tier: T; readonly fromMs: number; readonly toMs: number }>;
  /** What is read from api_requests, at most two ranges per tier boundary. */
  readonly raw: readonly RawRange[];
}

/** How a window splits over a rollup and its finer tiers. */
export type WindowSplit = TieredSplit<Rollup>;

/**
 * Splits `[since, until]` (inclusive) over `tiers`, coarsest first: the first tier's whole
 * buckets, then each remainder (the partial coarse buckets at either end, the time before the
 * tier is complete, or the whole window when it holds no coarse bucket) over the finer tiers,
 * and raw ranges for what is left.
 */
export function splitTiers<T>(since: number, until: number, tiers: readonly Tier<T>[]): TieredSplit<T> {
  const [coarse, ...finer] = tiers;
  if (coarse === undefined) return { buckets: [], raw: [{ since, until }] };
  const split = splitWindow(since, until, coarse.completeFromMs, 1, coarse.bucketMs);
  const buckets = split.rollup === undefined ? [] : [{ tier: coarse.tier, ...split.rollup }];
  const raw: RawRange[] = [];
  for (const range of split.raw) {
    const inner = splitTiers(range.since, range.until, finer);
    buckets.push(...inner.buckets);
    raw.push(...inner.raw);
  }
  return { buckets, raw };
}
