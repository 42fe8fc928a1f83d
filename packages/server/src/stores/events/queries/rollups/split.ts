// Where a window is read from: the whole hours (or days) rollups hold completely, and raw rows for the
// edges (the partial hours at each end, and any time before the rollups are complete).

export const HOUR_MS = 3_600_000;

/** Inclusive bounds, epoch milliseconds. */
export interface RawRange {
  readonly since: number;
  readonly until: number;
}

export interface WindowSplit {
  /** Whole hours `[fromMs, toMs)` read from a rollup; undefined when the window has none. */
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
): WindowSplit {
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
