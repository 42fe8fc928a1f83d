// The latency histogram the list rollups keep instead of a sketch: fixed log-spaced buckets, a
// sparse (bucket, count) map merged by sumMap, and p50/p95/p99 interpolated from it exactly as
// quantilesExactInclusive interpolates raw values, with each value replaced by its bucket's
// representative. Why a histogram and not DDSketch states: docs/adr/0018-rollups.md.
import { PERCENTILE_LEVELS, RESPONSE_TIME_SQL } from "./traffic.js";

/**
 * Bucket k holds response times in (γ^(k-1), γ^k] ms and is represented by 2γ^k / (1 + γ), which
 * is within α of every value in the bucket. A percentile interpolated between two ranks is a
 * convex combination of two values, so replacing each by its representative moves it by at most
 * α of itself: the percentiles stay within α < 1 % of exact (0.0095 leaves room for float
 * rounding). With γ ≈ 1.0192 the accepted range (1 µs to 24 h) spans about 1,300 buckets, and a
 * group of one endpoint and day holds a few dozen to a few hundred of them.
 */
export const HISTOGRAM_RELATIVE_ACCURACY = 0.0095;
const GAMMA = (1 + HISTOGRAM_RELATIVE_ACCURACY) / (1 - HISTOGRAM_RELATIVE_ACCURACY);
/** Literals of the one bucket scheme, printed once so every statement uses the same digits. */
const LN_GAMMA = Math.log(GAMMA).toPrecision(17);
const REPRESENTATIVE_FACTOR = (2 / (1 + GAMMA)).toPrecision(17);
/** The bucket of a response time of 0 (below 1 µs, as RESPONSE_TIME_SQL counts it). */
const ZERO_BUCKET = -32768;

/** The engine type of a histogram: sorted bucket indexes and their counts. */
export const HISTOGRAM_TYPE = "SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64)))";

/** The bucket of a row's response time. */
export const HISTOGRAM_BUCKET_SQL =
  `if((${RESPONSE_TIME_SQL}) = 0, toInt16(${ZERO_BUCKET}), ` +
  `toInt16(ceil(log(${RESPONSE_TIME_SQL}) / ${LN_GAMMA})))`;

/** The histogram of a group of api_requests rows (a value of HISTOGRAM_TYPE). */
export const HISTOGRAM_STATE_SQL = `sumMap([${HISTOGRAM_BUCKET_SQL}], [toUInt64(1)])`;

/** Merges histogram values of `column` (rollup rows and raw groups alike). */
export const histogramMergeSql = (column: string) => `sumMap(${column})`;

const representative = (bucket: string) =>
  `if(${bucket} = ${ZERO_BUCKET}, 0, exp(${bucket} * ${LN_GAMMA}) * ${REPRESENTATIVE_FACTOR})`;

/**
 * p50, p95, p99 (an array, as PERCENTILES_SQL answers) of merged histogram `histogram` over
 * `count` values: rank h = (count - 1)·q, the values at ranks ⌊h⌋ and ⌊h⌋ + 1 taken from the
 * cumulative counts, interpolated linearly, as quantilesExactInclusive does.
 */
export function histogramPercentilesSql(histogram: string, count: string): string {
  const cumulative = `arrayCumSum(${histogram}.2)`;
  const rank = `((${count} - 1) * q)`;
  const at = (offset: string) =>
    representative(`${histogram}.1[arrayFirstIndex(c -> c > floor(${rank})${offset}, ${cumulative})]`);
  const fraction = `(${rank} - floor(${rank}))`;
  return (
    `arrayMap(q -> if(${count} = 0, nan, (1 - ${fraction}) * ${at("")} + ${fraction} * ${at(" + 1")}), ` +
    `[${PERCENTILE_LEVELS.join(", ")}])`
  );
}
