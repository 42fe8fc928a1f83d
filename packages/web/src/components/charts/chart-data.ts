// Pure shaping of chart data (no DOM, no uPlot): stacking of the visible series, the figures a
// tooltip or table shows for one bucket, and the one-sentence summary screen readers hear.

/** One line or stack layer: raw values, one per bucket (the server zero-fills buckets). */
export interface ChartSeries {
  /** Stable id: toggles and tests refer to it. */
  readonly key: string;
  readonly label: string;
  /** A colour token name from tokens.css (e.g. "--danger"); resolved per theme at draw time. */
  readonly color: string;
  readonly values: readonly number[];
  /**
   * Drawn as a dashed line over the others and never stacked or totalled: the previous period
   * laid over the current one.
   */
  readonly overlay?: boolean;
}

/** Cumulative sums for a stack: layer i is the sum of visible layers 0..i (hidden ones add 0). */
export function stackValues(series: readonly ChartSeries[], hidden: ReadonlySet<string>): number[][] {
  const out: number[][] = [];
  let running: number[] | undefined;
  for (const one of series) {
    if (one.overlay === true) {
      out.push([...one.values]);
      continue;
    }
    const add = hidden.has(one.key) ? one.values.map(() => 0) : one.values;
    running = add.map((value, index) => value + (running?.[index] ?? 0));
    out.push(running);
  }
  return out;
}

/** Milliseconds since epoch for each ISO bucket start. */
export function bucketTimes(buckets: readonly string[]): number[] {
  return buckets.map((bucket) => Date.parse(bucket));
}

/** "Requests per bucket: 120 in all over 60 buckets; peak 14 at 10:05. Series: 2xx, 4xx, 5xx." */
export function chartSummary(
  label: string,
  times: readonly number[],
  series: readonly ChartSeries[],
  mode: "stacked" | "lines",
  formatValue: (value: number) => string,
  formatTime: (ms: number) => string,
): string {
  if (times.length === 0 || series.length === 0) return `${label}: no data in this range.`;
  const span = `${formatTime(times[0] as number)} to ${formatTime(times[times.length - 1] as number)}`;
  const parts = series.map((one) => {
    let peak = 0;
    let at = 0;
    for (let index = 0; index < one.values.length; index++) {
      const value = one.values[index] ?? 0;
      if (value > peak) {
        peak = value;
        at = index;
      }
    }
    const total =
      mode === "stacked" ? `, ${formatValue(one.values.reduce((sum, v) => sum + v, 0))} in all` : "";
    return `${one.label}${total}, peak ${formatValue(peak)}${peak > 0 ? ` at ${formatTime(times[at] as number)}` : ""}`;
  });
  return `${label}, ${times.length} buckets from ${span}. ${parts.join("; ")}.`;
}

/**
 * Values of an earlier period laid onto the current buckets: the earlier bucket starting `shiftMs`
 * before each current one, 0 where there is none (the earlier period had fewer buckets).
 */
export function shiftedValues(
  buckets: readonly string[],
  earlierBuckets: readonly string[],
  earlierValues: readonly number[],
  shiftMs: number,
): number[] {
  const byTime = new Map<number, number>();
  earlierBuckets.forEach((bucket, index) =>
    byTime.set(Date.parse(bucket) + shiftMs, earlierValues[index] ?? 0),
  );
  return buckets.map((bucket) => byTime.get(Date.parse(bucket)) ?? 0);
}
