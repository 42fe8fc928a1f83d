// The figures of a list read from a daily list rollup (endpoints, consumers): what each group
// sums from the merged source, and its percentiles from the merged latency histogram. Aliases
// match TrafficRow, so the raw and the rolled-up reads share their row readers.
import { histogramMergeSql, histogramPercentilesSql } from "../latency-histogram.js";
import { EXACT_PERCENTILE_ROWS } from "../traffic.js";

/** The list rollups' columns a list reads (mergedSource aliases them `c_<column>`). */
export const LIST_COLUMNS = [
  "requests",
  "errors",
  "client_errors",
  "server_errors",
  "response_time_sum",
  "request_bytes",
  "response_bytes",
  "last_seen",
  "latency_histogram",
] as const;

/** Per group over a merged source of LIST_COLUMNS; `histogram` feeds LIST_PERCENTILES_SQL. */
export const LIST_COUNTS_SQL = [
  "sum(c_requests) AS total_requests",
  "sum(c_errors) AS error_count",
  "sum(c_client_errors) AS client_errors",
  "sum(c_server_errors) AS server_errors",
  "sum(c_response_time_sum) / sum(c_requests) AS avg_response_time_ms",
  "sum(c_request_bytes) AS total_request_bytes",
  "sum(c_response_bytes) AS total_response_bytes",
  "max(c_last_seen) AS last_seen_at",
].join(", ");
export const LIST_HISTOGRAM_SQL = `${histogramMergeSql("c_latency_histogram")} AS histogram`;
export const LIST_GROUP_SQL = `${LIST_COUNTS_SQL}, ${LIST_HISTOGRAM_SQL}`;

/** Over LIST_GROUP_SQL's aliases, one level up (an aggregate cannot sit inside a lambda):
 *  `percentiles`, and two helper columns a caller leaves out with LIST_HELPERS. */
export const LIST_PERCENTILES_SQL = histogramPercentilesSql("histogram", "total_requests", "percentiles");
/** The columns `SELECT * EXCEPT (…)` drops from a row carrying LIST_PERCENTILES_SQL. */
export const LIST_HELPERS = "histogram, percentiles_sorted, percentiles_cumulative";

/**
 * Whether a rolled-up read covered few enough requests that it is re-read from raw rows: there
 * exact percentiles (ADR 0006) are cheap, while in a big window they would cost the very scan
 * the rollup saves (so there every group gets the histogram's, within 1 %).
 */
export const smallWindow = (requests: number | undefined) => (requests ?? 0) <= EXACT_PERCENTILE_ROWS;

/**
 * A sorted page over `groups` (rows of LIST_GROUP_SQL), with `total_groups` and
 * `window_requests` counted over every group. Percentiles are computed for every group only
 * when the order needs them, else for the page's rows alone (after the LIMIT).
 */
export function listPageSql(
  groups: string,
  order: readonly string[],
  limit: string,
  byPercentile: boolean,
  extra = "",
): string {
  const counted = `count() OVER () AS total_groups, sum(total_requests) OVER () AS window_requests${extra}`;
  const orderBy = `ORDER BY ${order.join(", ")}`;
  const page = byPercentile
    ? `SELECT *, ${LIST_PERCENTILES_SQL}, ${counted} FROM (${groups}) ${orderBy} ${limit}`
    : `SELECT *, ${LIST_PERCENTILES_SQL} FROM (SELECT *, ${counted} FROM (${groups}) ${orderBy} ${limit})`;
  return `SELECT * EXCEPT (${LIST_HELPERS}) FROM (${page}) ${orderBy}`;
}
