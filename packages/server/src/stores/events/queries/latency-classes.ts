// The requests page's latency histogram buckets (LATENCY_HISTOGRAM_EDGES_MS) as conditions on
// api_requests rows: the one definition the raw count and the rollup that keeps the counts per
// hour (REQUEST_LATENCY_HOURLY) both use, so their counts are the same rows'.
import { LATENCY_HISTOGRAM_EDGES_MS } from "@sightline/contracts";

/** [min, max) of each bucket in ms; the last is open-ended. */
export const LATENCY_CLASS_BOUNDS: ReadonlyArray<readonly [number, number | null]> =
  LATENCY_HISTOGRAM_EDGES_MS.map((edge, i): readonly [number, number | null] => [
    i === 0 ? 0 : (LATENCY_HISTOGRAM_EDGES_MS[i - 1] ?? 0),
    edge,
  ]).concat([[LATENCY_HISTOGRAM_EDGES_MS[LATENCY_HISTOGRAM_EDGES_MS.length - 1] ?? 0, null]]);

/** The column (raw alias and rollup column) counting bucket `index`. */
export const latencyClassColumn = (index: number) => `latency_${index}`;

/** The condition of bucket `index` on response_time_ms as stored (a NaN or negative value is in
 *  no bucket, as the histogram has always counted it: only in the total). Literals: constants of
 *  the contract, identical in the rollup's view and in every read. */
export function latencyClassCondition(index: number): string {
  const [min, max] = LATENCY_CLASS_BOUNDS[index] ?? [0, null];
  return `response_time_ms >= ${min}` + (max === null ? "" : ` AND response_time_ms < ${max}`);
}
