// The traffic figures every request aggregate shares (counts, errors, mean, percentiles, bytes):
// one SELECT list and one reader, so "error", "error_rate" and the percentile method mean the
// same thing in every figure.
import { INGEST_LIMITS } from "@sightline/contracts";

/** Groups of at most this many rows get exact percentiles. */
export const EXACT_PERCENTILE_ROWS = 10_000;
/** DDSketch's relative accuracy for larger groups: half of the promised 1%, leaving room for the
 *  difference between the sketch's rank and the interpolated exact rank. */
export const SKETCH_RELATIVE_ACCURACY = 0.005;
export const PERCENTILE_LEVELS = [0.5, 0.95, 0.99] as const;

const LEVELS = PERCENTILE_LEVELS.join(", ");

/**
 * response_time_ms as every figure reads it: within what ingest accepts today (0 to 24 h), and
 * below 1 µs counted as 0. Rows stored before the bounds existed, or written around ingest, can
 * hold anything a Float64 can; an absurd value must not fail the figures of every window that
 * holds it (a DDSketch refuses keys spanning 1e-300 to 1e300), nor dominate them.
 */
export const RESPONSE_TIME_SQL =
  "if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, " +
  `least(response_time_ms, ${INGEST_LIMITS.maxResponseTimeMs}))`;

/** A byte count as sums read it: at most what ingest accepts, so sums cannot wrap around. */
export function bytesSql(column: "request_size" | "response_size"): string {
  return `least(${column}, ${INGEST_LIMITS.maxBodySizeBytes})`;
}

/**
 * p50, p95, p99 of response_time_ms as an array. Up to EXACT_PERCENTILE_ROWS rows the group keeps
 * every value (groupArray with a cap bounds memory on big groups) and takes exact percentiles
 * with linear interpolation between closest ranks; above that a DDSketch answers, whose error
 * is relative to the value. Both states are built for every group; measured on 1.3 M rows the
 * pair costs about as much as one exact quantile and keeps memory bounded.
 */
export const PERCENTILES_SQL =
  `if(count() <= ${EXACT_PERCENTILE_ROWS}, ` +
  `arrayReduce('quantilesExactInclusive(${LEVELS})', groupArray(${EXACT_PERCENTILE_ROWS})(${RESPONSE_TIME_SQL})), ` +
  `quantilesDD(${SKETCH_RELATIVE_ACCURACY}, ${LEVELS})(${RESPONSE_TIME_SQL}))`;

/** The SELECT list of the traffic figures; aliases match TrafficRow. */
export const TRAFFIC_SQL = [
  "count() AS total_requests",
  "countIf(status_code >= 400) AS error_count",
  "countIf(status_code >= 400 AND status_code < 500) AS client_errors",
  "countIf(status_code >= 500) AS server_errors",
  `avg(${RESPONSE_TIME_SQL}) AS avg_response_time_ms`,
  `${PERCENTILES_SQL} AS percentiles`,
  `sum(${bytesSql("request_size")}) AS total_request_bytes`,
  `sum(${bytesSql("response_size")}) AS total_response_bytes`,
].join(", ");

/** A row carrying TRAFFIC_SQL's columns. Empty groups give null (NaN) means and percentiles. */
export interface TrafficRow {
  readonly total_requests: number;
  readonly error_count: number;
  readonly client_errors: number;
  readonly server_errors: number;
  readonly avg_response_time_ms: number | null;
  /** [] for zero-filled buckets that came from an outer join. */
  readonly percentiles: ReadonlyArray<number | null>;
  readonly total_request_bytes: number;
  readonly total_response_bytes: number;
}

export interface TrafficFigures {
  total_requests: number;
  error_count: number;
  client_errors: number;
  server_errors: number;
  error_rate: number;
  avg_response_time_ms: number;
  p50_response_time_ms: number;
  p95_response_time_ms: number;
  p99_response_time_ms: number;
  total_request_bytes: number;
  total_response_bytes: number;
}

/** A finite number, or 0: empty groups never answer NaN or null. */
export function finite(value: number | null | undefined): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** error_count / total × 100, 0 without requests. */
export function errorRate(errors: number, total: number): number {
  return total > 0 ? (errors / total) * 100 : 0;
}

export function toTrafficFigures(row: TrafficRow | undefined): TrafficFigures {
  const total = finite(row?.total_requests);
  const errors = finite(row?.error_count);
  const empty = total === 0;
  return {
    total_requests: total,
    error_count: errors,
    client_errors: finite(row?.client_errors),
    server_errors: finite(row?.server_errors),
    error_rate: errorRate(errors, total),
    avg_response_time_ms: empty ? 0 : finite(row?.avg_response_time_ms),
    p50_response_time_ms: empty ? 0 : finite(row?.percentiles[0]),
    p95_response_time_ms: empty ? 0 : finite(row?.percentiles[1]),
    p99_response_time_ms: empty ? 0 : finite(row?.percentiles[2]),
    total_request_bytes: finite(row?.total_request_bytes),
    total_response_bytes: finite(row?.total_response_bytes),
  };
}
