// Figures per endpoint (method + route template): the sortable stats page, the options list for
// filter pickers, one endpoint's detail, its status codes and payload samples, and the families
// of related endpoints, its top validation errors. One statement each.
import type {
  EndpointDetail,
  EndpointOption,
  EndpointSortKey,
  EndpointStats,
  PayloadSample,
  RelatedApi,
  StatusCodeCount,
  ValidationErrorCount,
} from "@sightline/contracts";
import {
  API_REQUESTS,
  ENDPOINT_STATUSES_HOURLY,
  ENDPOINTS_DAILY,
  type EventsExecutor,
  pickColumns,
} from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import {
  LIST_COLUMNS,
  LIST_COUNTS_SQL,
  LIST_GROUP_SQL,
  LIST_HELPERS,
  LIST_HISTOGRAM_SQL,
  LIST_PERCENTILES_SQL,
  listPageSql,
  smallWindow,
} from "../rollups/lists.js";
import { type MergedKey, mergedSource, planWindow } from "../rollups/merged.js";
import type { WindowSplit } from "../rollups/split.js";
import { SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";
import {
  errorRate,
  finite,
  RESPONSE_TIME_SQL,
  toTrafficFigures,
  TRAFFIC_SQL,
  type TrafficRow,
} from "../traffic.js";

/** What each sort key orders by, as SQL over the aliases of the stats statement. */
const SORT_SQL: Readonly<Record<EndpointSortKey, readonly string[]>> = {
  endpoint: ["method", "route"],
  total_requests: ["total_requests"],
  error_count: ["error_count"],
  error_rate: ["error_count / total_requests"],
  avg_response_time_ms: ["avg_response_time_ms"],
  p50_response_time_ms: ["percentiles[1]"],
  p95_response_time_ms: ["percentiles[2]"],
  p99_response_time_ms: ["percentiles[3]"],
  data_transfer: ["total_request_bytes + total_response_bytes"],
  last_seen_at: ["last_seen_at"],
};

export interface EndpointSort {
  readonly by: EndpointSortKey;
  readonly direction: "asc" | "desc";
}

interface StatsRow extends TrafficRow {
  /** Only when grouped per app. */
  readonly app_id?: string;
  readonly method: string;
  readonly route: string;
  readonly last_seen_at: string;
  readonly total_groups: number;
  /** Rolled-up reads only: the requests of every group in the filter. */
  readonly window_requests?: number;
}

/** A grouping column read under the same name from a rollup and from raw rows. */
const sameKey = (column: string): MergedKey => ({ alias: column, rollup: column, raw: column });

export interface StatsPage<T> {
  readonly items: T[];
  readonly total: number;
}

/**
 * One page of endpoints with traffic in the filter, sorted, and the number of endpoints in all
 * (a window count over the groups: one statement, no second scan). Ties fall back to method,
 * route (and app), so a page boundary never splits or repeats an endpoint. `perApp` groups the
 * project-level list by app too: the same route in two apps is two endpoints.
 */
export async function endpointStatsPage(
  events: EventsExecutor,
  filter: RequestFilter,
  sort: EndpointSort,
  window: { limit: number; offset: number },
  perApp: boolean,
  coverage?: RollupCoverage,
): Promise<StatsPage<EndpointStats & { app_id: string }>> {
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const keys = perApp ? ["method", "route", "app_id"] : ["method", "route"];
  const order = [
    ...SORT_SQL[sort.by].map((expression) => `${expression} ${direction}`),
    ...keys.map((key) => `${key} ASC`),
  ];
  const split = await planWindow(ENDPOINTS_DAILY, filter, coverage, Date.now());
  let rows: StatsRow[] | undefined;
  if (split !== undefined) {
    rows = await rolledStatsRows(events, filter, split, keys, order, window, sort.by.startsWith("p"));
    // A small window is read raw: exact percentiles (ADR 0006) cost little there.
    if (smallWindow(rows[0]?.window_requests)) rows = undefined;
  }
  if (rows === undefined) {
    const params = new SqlParams();
    const where = requestFilterClause(filter, params);
    rows = await events.query<StatsRow>(
      // An alias must never reuse a column's name: ClickHouse would read it in WHERE too.
      `SELECT ${keys.join(", ")}, ${TRAFFIC_SQL}, ` +
        "max(timestamp) AS last_seen_at, count() OVER () AS total_groups " +
        `FROM ${qualified(events, API_REQUESTS)} ${where} GROUP BY ${keys.join(", ")} ` +
        `ORDER BY ${order.join(", ")} ` +
        `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
      params.values,
    );
  }
  if (rows.length === 0) {
    return { items: [], total: window.offset === 0 ? 0 : await countEndpoints(events, filter, keys) };
  }
  return {
    items: rows.map((row) => ({
      app_id: row.app_id ?? "",
      method: row.method,
      path: row.route,
      ...toTrafficFigures(row),
      last_seen_at: row.last_seen_at,
    })),
    total: (rows[0] as StatsRow).total_groups,
  };
}

/**
 * The stats page from the endpoint rollup's whole days and raw rows at the window's edges. The
 * histograms are what cost (merging them for every endpoint of the window dominates the read):
 * they are merged for every endpoint only when the sort is a percentile, else a second statement
 * merges them for the page's endpoints alone.
 */
async function rolledStatsRows(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit,
  keys: readonly string[],
  order: readonly string[],
  window: { limit: number; offset: number },
  byPercentile: boolean,
): Promise<StatsRow[]> {
  const params = new SqlParams();
  const limit = `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`;
  const columns = byPercentile
    ? LIST_COLUMNS
    : LIST_COLUMNS.filter((column) => column !== "latency_histogram");
  const source = mergedSource(events, ENDPOINTS_DAILY, filter, split, keys.map(sameKey), columns, params);
  const groupBy = `GROUP BY ${keys.join(", ")}`;
  if (byPercentile) {
    return events.query<StatsRow>(
      listPageSql(
        `SELECT ${keys.join(", ")}, ${LIST_GROUP_SQL} FROM ${source} ${groupBy}`,
        order,
        limit,
        true,
      ),
      params.values,
    );
  }
  const rows = await events.query<StatsRow>(
    `SELECT *, count() OVER () AS total_groups, sum(total_requests) OVER () AS window_requests ` +
      `FROM (SELECT ${keys.join(", ")}, ${LIST_COUNTS_SQL} FROM ${source} ${groupBy}) ` +
      `ORDER BY ${order.join(", ")} ${limit}`,
    params.values,
  );
  if (rows.length === 0 || smallWindow(rows[0]?.window_requests)) return rows;
  const pageParams = new SqlParams();
  // Each key column confined to the page's values: a superset of the page's endpoints (the
  // extra groups are computed and ignored), bound as plain string arrays.
  const confined = keys.map(
    (key) =>
      `${key} IN ${pageParams.bind(
        [...new Set(rows.map((row) => String(row[key as keyof StatsRow] ?? "")))],
        "Array(String)",
      )}`,
  );
  const pageSource = mergedSource(
    events,
    ENDPOINTS_DAILY,
    filter,
    split,
    keys.map(sameKey),
    ["requests", "latency_histogram"],
    pageParams,
    confined,
  );
  const found = await events.query<Record<string, string> & { percentiles: Array<number | null> }>(
    `SELECT ${keys.join(", ")}, percentiles FROM (SELECT *, ${LIST_PERCENTILES_SQL} FROM ` +
      `(SELECT ${keys.join(", ")}, sum(c_requests) AS total_requests, ${LIST_HISTOGRAM_SQL} ` +
      `FROM ${pageSource} ${groupBy}))`,
    pageParams.values,
  );
  const keyOf = (row: object) =>
    keys.map((key) => String((row as Record<string, unknown>)[key] ?? "")).join("\u0000");
  const percentiles = new Map(found.map((row) => [keyOf(row), row.percentiles]));
  return rows.map((row) => ({ ...row, percentiles: percentiles.get(keyOf(row)) ?? [] }));
}

async function countEndpoints(
  events: EventsExecutor,
  filter: RequestFilter,
  keys: string[],
): Promise<number> {
  const params = new SqlParams();
  const [row] = await events.query<{ n: number }>(
    `SELECT uniqExact(${keys.join(", ")}) AS n FROM ${qualified(events, API_REQUESTS)} ` +
      `${requestFilterClause(filter, params)}`,
    params.values,
  );
  return row?.n ?? 0;
}

/** The busiest endpoints, for filter pickers: by requests, then method and route. */
export async function endpointOptions(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<EndpointOption[]> {
  const params = new SqlParams();
  const rows = await events.query<{ method: string; route: string; total_requests: number }>(
    `SELECT method, route, count() AS total_requests FROM ${qualified(events, API_REQUESTS)} ` +
      `${requestFilterClause(filter, params)} GROUP BY method, route ` +
      `ORDER BY total_requests DESC, method ASC, route ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
  return rows.map((row) => ({ method: row.method, path: row.route, total_requests: row.total_requests }));
}

/** One endpoint's figures; zeros and a null last_seen_at without traffic. */
export async function endpointDetail(
  events: EventsExecutor,
  filter: RequestFilter,
  endpoint: { method: string; route: string },
  coverage?: RollupCoverage,
): Promise<EndpointDetail> {
  const split = await planWindow(ENDPOINTS_DAILY, filter, coverage, Date.now());
  let row: (TrafficRow & { last_seen_at: string }) | undefined;
  if (split !== undefined) {
    const params = new SqlParams();
    const source = mergedSource(events, ENDPOINTS_DAILY, filter, split, [], LIST_COLUMNS, params);
    [row] = await events.query<TrafficRow & { last_seen_at: string }>(
      `SELECT * EXCEPT (${LIST_HELPERS}) FROM ` +
        `(SELECT *, ${LIST_PERCENTILES_SQL} FROM (SELECT ${LIST_GROUP_SQL} FROM ${source}))`,
      params.values,
    );
  }
  // An endpoint's small window is read raw: exact percentiles (ADR 0006) cost little there.
  if (row === undefined || smallWindow(row.total_requests)) {
    const params = new SqlParams();
    [row] = await events.query<TrafficRow & { last_seen_at: string }>(
      `SELECT ${TRAFFIC_SQL}, max(timestamp) AS last_seen_at FROM ${qualified(events, API_REQUESTS)} ` +
        `${requestFilterClause(filter, params)}`,
      params.values,
    );
  }
  const figures = toTrafficFigures(row);
  return {
    method: endpoint.method,
    path: endpoint.route,
    ...figures,
    last_seen_at: figures.total_requests > 0 && row !== undefined ? row.last_seen_at : null,
  };
}

/** Requests per status code, most frequent first (ties: lower code first); exact from the status
 *  rollup's whole hours and raw rows for the rest, or all raw. */
export async function statusCodeCounts(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
  coverage?: RollupCoverage,
): Promise<StatusCodeCount[]> {
  const params = new SqlParams();
  const split = await planWindow(ENDPOINT_STATUSES_HOURLY, filter, coverage, Date.now());
  const from =
    split === undefined
      ? `${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)}`
      : mergedSource(
          events,
          ENDPOINT_STATUSES_HOURLY,
          filter,
          split,
          [sameKey("status_code")],
          ["requests"],
          params,
        );
  const counted = split === undefined ? "count()" : "sum(c_requests)";
  return events.query<StatusCodeCount>(
    `SELECT status_code, ${counted} AS total_requests FROM ${from} GROUP BY status_code ` +
      `ORDER BY total_requests DESC, status_code ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
}

/**
 * Validation errors by field and rule, most frequent first (ties: path, then rule). Each record's
 * parallel arrays are unrolled with ARRAY JOIN; records without errors drop out. `share` is the
 * percentage of the filter's refused requests (those with any validation error) in which the field
 * failed the rule, counted by a scalar subquery over the same conditions.
 */
export async function validationErrorCounts(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<ValidationErrorCount[]> {
  const params = new SqlParams();
  const table = qualified(events, API_REQUESTS);
  const refused =
    `(SELECT uniqExact(id) FROM ${table} ` +
    `${requestFilterClause(filter, params, ["notEmpty(validation_paths)"])})`;
  return events.query<ValidationErrorCount>(
    "SELECT vpath AS path, vrule AS rule, count() AS occurrences, uniqExact(id) AS requests, " +
      `100 * requests / ${refused} AS share, ` +
      "argMax(vmessage, timestamp) AS message, max(timestamp) AS last_seen_at " +
      `FROM ${table} ` +
      "ARRAY JOIN validation_paths AS vpath, validation_rules AS vrule, validation_messages AS vmessage " +
      // ARRAY JOIN drops records without errors anyway; said in the WHERE, the engine reads only
      // the arrays' sizes for them (3.2× faster on an endpoint's 2 M rows without errors).
      `${requestFilterClause(filter, params, ["notEmpty(validation_paths)"])} GROUP BY path, rule ` +
      `ORDER BY occurrences DESC, path ASC, rule ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
}

const PAYLOAD_COLUMNS = pickColumns(API_REQUESTS, [
  "id",
  "timestamp",
  "environment",
  "method",
  "path",
  "route",
  "status_code",
  "response_time_ms",
  "ip_address",
  "user_agent",
  "consumer_id",
  "consumer_name",
  "consumer_group",
  "request_payload",
  "response_payload",
]);

/** The newest requests that carried a request or response payload. */
export async function payloadSamples(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<PayloadSample[]> {
  const params = new SqlParams();
  return events.query<PayloadSample>(
    `SELECT ${PAYLOAD_COLUMNS.join(", ")} FROM ${qualified(events, API_REQUESTS)} ` +
      `${requestFilterClause(filter, params, ["(request_payload != '' OR response_payload != '')"])} ` +
      `ORDER BY timestamp DESC, id DESC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
}

/**
 * Endpoints grouped into families by the first segment of their route template (`/users/{id}`
 * and `/users` are `/users`; the root route is `/`), busiest first (ties: family name).
 */
export async function relatedApis(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<RelatedApi[]> {
  const params = new SqlParams();
  const rows = await events.query<{
    family: string;
    endpoint_count: number;
    total_requests: number;
    error_count: number;
    client_errors: number;
    server_errors: number;
    avg_response_time_ms: number | null;
  }>(
    "SELECT concat('/', splitByChar('/', trim(BOTH '/' FROM route))[1]) AS family, " +
      "uniqExact(method, route) AS endpoint_count, count() AS total_requests, " +
      "countIf(status_code >= 400) AS error_count, " +
      "countIf(status_code >= 400 AND status_code < 500) AS client_errors, " +
      "countIf(status_code >= 500) AS server_errors, " +
      `avg(${RESPONSE_TIME_SQL}) AS avg_response_time_ms ` +
      `FROM ${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)} ` +
      `GROUP BY family ORDER BY total_requests DESC, family ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
  return rows.map((row) => ({
    family: row.family,
    endpoint_count: row.endpoint_count,
    total_requests: row.total_requests,
    error_count: row.error_count,
    client_errors: row.client_errors,
    server_errors: row.server_errors,
    error_rate: errorRate(row.error_count, row.total_requests),
    avg_response_time_ms: finite(row.avg_response_time_ms),
  }));
}
