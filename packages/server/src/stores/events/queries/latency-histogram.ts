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

/**
 * How reads carry a (bucket, count) pair: packed into one UInt64, the bucket offset to be
 * non-negative in the top 16 bits and the count in the low 48. Arrays of one integer column
 * concatenate and sort (a radix sort) far faster than arrays of tuples, and sorting the packed
 * values sorts the pairs by bucket: on the consumers page at 30 d (30 M rows, 12 M pairs merged)
 * the statement took half the CPU of tuple pairs, with the same answers.
 */
const BUCKET_OFFSET = -ZERO_BUCKET;
const COUNT_BITS = 48;
const COUNT_MASK = `0x${"F".repeat(COUNT_BITS / 4)}`;
const packedPair = (bucket: string, count: string) =>
  `bitOr(bitShiftLeft(toUInt64(${bucket} + ${BUCKET_OFFSET}), ${COUNT_BITS}), ${count})`;
const pairBucket = (packed: string) =>
  `(toInt32(bitShiftRight(${packed}, ${COUNT_BITS})) - ${BUCKET_OFFSET})`;
const pairCount = (packed: string) => `bitAnd(${packed}, ${COUNT_MASK})`;

/**
 * How reads take a histogram: as an array of packed pairs, concatenated across rollup rows and
 * raw rows (groupArrayArray) and sorted once per group. Merging the stored maps with sumMap
 * instead cost 3–5× more on the bench data (a map merge per row); stored rows still merge by
 * sumMap in the background, so a day's pairs stay one per bucket.
 */
export const HISTOGRAM_READ = {
  rollup: `arrayMap((bucket, count) -> ${packedPair("bucket", "count")}, latency_histogram.1, latency_histogram.2)`,
  raw: `groupArray(${packedPair(HISTOGRAM_BUCKET_SQL, "1")})`,
} as const;

/** Merges the packed pair arrays of `column` (rollup rows and raw groups alike). */
export const histogramMergeSql = (column: string) => `groupArrayArray(${column})`;

const representative = (bucket: string) =>
  `if(${bucket} = ${ZERO_BUCKET}, 0, exp(${bucket} * ${LN_GAMMA}) * ${REPRESENTATIVE_FACTOR})`;

/**
 * p50, p95, p99 (an array, as PERCENTILES_SQL answers) of the merged packed pairs `histogram`
 * over `count` values: pairs sorted by bucket, rank h = (count − 1)·q, the values at
 * ranks ⌊h⌋ and ⌊h⌋ + 1 found in the cumulative counts, interpolated linearly, as
 * quantilesExactInclusive does. The sort and the cumulative counts are aliased so the engine
 * computes them once per group.
 */
export function histogramPercentilesSql(histogram: string, count: string, alias: string): string {
  const sorted = `${alias}_sorted`;
  const cumulative = `${alias}_cumulative`;
  const rank = `((${count} - 1) * q)`;
  const at = (offset: string) =>
    representative(pairBucket(`${sorted}[arrayFirstIndex(c -> c > floor(${rank})${offset}, ${cumulative})]`));
  const fraction = `(${rank} - floor(${rank}))`;
  return (
    `arraySort(${histogram}) AS ${sorted}, arrayCumSum(arrayMap(pair -> ${pairCount("pair")}, ${sorted})) AS ${cumulative}, ` +
    `arrayMap(q -> if(${count} = 0, nan, (1 - ${fraction}) * ${at("")} + ${fraction} * ${at(" + 1")}), ` +
    `[${PERCENTILE_LEVELS.join(", ")}]) AS ${alias}`
  );
}
