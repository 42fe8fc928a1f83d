// Summary statistics the benches print, in one place.

/** The middle value; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The nearest-rank percentile: the smallest sample with at least `p` of the samples at or below
 * it (rank ⌈p·n⌉). With fewer than 1/(1-p) samples the p95 would be the slowest sample, so the
 * benches take at least 20 samples (and check it with `assertSamples`) before calling it a p95.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p > 0 && p <= 1)) throw new RangeError(`percentile ${p} is not in (0, 1]`);
  if (values.length === 0) throw new RangeError("percentile of no samples");
  const sorted = [...values].sort((a, b) => a - b);
  // The epsilon keeps a product a hair above an integer (float rounding) off the next rank.
  const rank = Math.max(1, Math.ceil(p * sorted.length - 1e-9));
  return sorted[rank - 1] as number;
}

/** The fewest samples for which a nearest-rank p95 is not simply the maximum. */
export const MIN_P95_SAMPLES = 20;

/** Throws unless `count` samples are enough for the percentile a bench reports. */
export function assertSamples(count: number, minimum: number, what: string): void {
  if (!Number.isInteger(count) || count < minimum) {
    throw new RangeError(`${what} must be an integer of at least ${minimum} (got ${count})`);
  }
}
