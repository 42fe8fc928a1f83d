// Figures per endpoint (method + route template): the sortable stats page, the options list for
// filter pickers, one endpoint's detail, its status codes and payload samples, and the families
// of related endpoints. One statement each.
import type {
  EndpointDetail,
  EndpointOption,
  EndpointSortKey,
  EndpointStats,
  PayloadSample,
  RelatedApi,
  StatusCodeCount,
} from "@sightline/contracts";
import {
  API_REQUESTS,
  ENDPOINT_LATENCY_HOURLY,
  ENDPOINTS_HOURLY,
  type EventsExecutor,
  LATENCY_SKETCH,
  pickColumns,
} from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import { type MergedKey, mergedSource, planWindow, rollupServes } from "../rollups/merged.js";
import type { WindowSplit } from "../rollups/split.js";
import { SqlParams } from "../sql.js";
import {
  errorRate,
  EXACT_PERCENTILE_ROWS,
  PERCENTILES_SQL,
  finite,
  RESPONSE_TIME_SQL,
  toTrafficFigures,
  TRAFFIC_SQL,
  type TrafficRow,
} from "../traffic.js";
import { qualified } from "../tenant.js";

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
}

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
  // Sorting by a percentile needs every endpoint's sketch: slower from the hourly sketches
  // than from raw rows (docs/adr/0018-rollups.md), so that sort stays raw.
  const split =
    SORT_SQL[sort.by].some((sql) => sql.startsWith("percentiles")) ||
    !rollupServes(ENDPOINT_LATENCY_HOURLY, filter)
      ? undefined
      : await planWindow(ENDPOINTS_HOURLY, filter, coverage, Date.now());
  if (split !== undefined) return rolledStatsPage(events, filter, sort, window, perApp, split);
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const keys = perApp ? ["method", "route", "app_id"] : ["method", "route"];
  const order = [
    ...SORT_SQL[sort.by].map((expression) => `${expression} ${direction}`),
    ...keys.map((key) => `${key} ASC`),
  ];
  const where = requestFilterClause(filter, params);
  const rows = await events.query<StatsRow>(
    // An alias must never reuse a column's name: ClickHouse would read it in WHERE too.
    `SELECT ${keys.join(", ")}, ${TRAFFIC_SQL}, ` +
      "max(timestamp) AS last_seen_at, count() OVER () AS total_groups " +
      `FROM ${qualified(events, API_REQUESTS)} ${where} GROUP BY ${keys.join(", ")} ` +
      `ORDER BY ${order.join(", ")} ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
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

/** Traffic columns over a merged ENDPOINTS_HOURLY source (statuses still apart). */
const ENDPOINT_COUNTS_SQL = [
  "sum(c_requests) AS total_requests",
  "sumIf(c_requests, status_code >= 400) AS error_count",
  "sumIf(c_requests, status_code >= 400 AND status_code < 500) AS client_errors",
  "sumIf(c_requests, status_code >= 500) AS server_errors",
  "sum(c_response_time_sum) / sum(c_requests) AS avg_response_time_ms",
  "sum(c_request_bytes) AS total_request_bytes",
  "sum(c_response_bytes) AS total_response_bytes",
  "max(c_last_seen) AS last_seen_at",
].join(", ");
const ENDPOINT_COUNT_COLUMNS = [
  "requests",
  "response_time_sum",
  "request_bytes",
  "response_bytes",
  "last_seen",
] as const;

const sameKey = (name: string): MergedKey => ({ alias: name, rollup: name, raw: name });

/** The page from the endpoint rollups: counts for every endpoint, sketches for the page's. */
async function rolledStatsPage(
  events: EventsExecutor,
  filter: RequestFilter,
  sort: EndpointSort,
  window: { limit: number; offset: number },
  perApp: boolean,
  split: WindowSplit,
): Promise<StatsPage<EndpointStats & { app_id: string }>> {
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const keys = perApp ? ["method", "route", "app_id"] : ["method", "route"];
  const order = [
    ...SORT_SQL[sort.by].map((expression) => `${expression} ${direction}`),
    ...keys.map((key) => `${key} ASC`),
  ];
  const source = mergedSource(
    events,
    ENDPOINTS_HOURLY,
    filter,
    split,
    [...keys, "status_code"].map(sameKey),
    ENDPOINT_COUNT_COLUMNS,
    params,
  );
  const rows = await events.query<Omit<StatsRow, "percentiles">>(
    `SELECT ${keys.join(", ")}, ${ENDPOINT_COUNTS_SQL}, count() OVER () AS total_groups ` +
      `FROM ${source} GROUP BY ${keys.join(", ")} ORDER BY ${order.join(", ")} ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    return { items: [], total: window.offset === 0 ? 0 : await countEndpoints(events, filter, keys) };
  }
  const percentiles = await endpointPercentiles(events, filter, split, perApp, rows);
  return {
    items: rows.map((row) => {
      const key = endpointKey(row.app_id ?? "", row.method, row.route);
      return {
        app_id: row.app_id ?? "",
        method: row.method,
        path: row.route,
        ...toTrafficFigures({ ...row, percentiles: percentiles.get(key) ?? [] }),
        last_seen_at: row.last_seen_at,
      };
    }),
    total: (rows[0] as StatsRow).total_groups,
  };
}

const endpointKey = (app: string, method: string, route: string) => JSON.stringify([app, method, route]);

/**
 * p50/p95/p99 of some endpoints over the filter: merged hourly sketches for the busy ones,
 * exact from raw rows for those of at most EXACT_PERCENTILE_ROWS requests (as the raw figures).
 */
async function endpointPercentiles(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit,
  perApp: boolean,
  groups: ReadonlyArray<{ app_id?: string; method: string; route: string; total_requests: number }>,
): Promise<Map<string, ReadonlyArray<number | null>>> {
  const keys = perApp ? ["app_id", "method", "route"] : ["method", "route"];
  const table = qualified(events, API_REQUESTS);
  const found = new Map<string, ReadonlyArray<number | null>>();
  const read = async (exact: boolean) => {
    const chosen = groups.filter((group) => group.total_requests <= EXACT_PERCENTILE_ROWS === exact);
    if (chosen.length === 0) return;
    const narrowed: RequestFilter = {
      ...filter,
      endpoints: chosen.map((group) => ({ method: group.method, route: group.route })),
      ...(perApp ? { appIds: [...new Set(chosen.map((group) => group.app_id ?? ""))] } : {}),
    };
    const params = new SqlParams();
    const from = exact
      ? `${table} ${requestFilterClause(narrowed, params)}`
      : mergedSource(
          events,
          ENDPOINT_LATENCY_HOURLY,
          narrowed,
          split,
          keys.map(sameKey),
          ["latency"],
          params,
        );
    const percentiles = exact
      ? PERCENTILES_SQL
      : `${LATENCY_SKETCH.replace("quantilesDD", "quantilesDDMerge")}(c_latency)`;
    const rows = await events.query<{
      app_id?: string;
      method: string;
      route: string;
      percentiles: Array<number | null>;
    }>(
      `SELECT ${keys.join(", ")}, ${percentiles} AS percentiles FROM ${from} GROUP BY ${keys.join(", ")}`,
      params.values,
    );
    for (const row of rows) found.set(endpointKey(row.app_id ?? "", row.method, row.route), row.percentiles);
  };
  await read(false);
  await read(true);
  return found;
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
  const split = rollupServes(ENDPOINT_LATENCY_HOURLY, filter)
    ? await planWindow(ENDPOINTS_HOURLY, filter, coverage, Date.now())
    : undefined;
  if (split !== undefined) {
    const rolled = await rolledDetail(events, filter, endpoint, split);
    if (rolled !== undefined) return rolled;
  }
  const params = new SqlParams();
  const [row] = await events.query<TrafficRow & { last_seen_at: string }>(
    `SELECT ${TRAFFIC_SQL}, max(timestamp) AS last_seen_at FROM ${qualified(events, API_REQUESTS)} ` +
      `${requestFilterClause(filter, params)}`,
    params.values,
  );
  const figures = toTrafficFigures(row);
  return {
    method: endpoint.method,
    path: endpoint.route,
    ...figures,
    last_seen_at: figures.total_requests > 0 && row !== undefined ? row.last_seen_at : null,
  };
}

/** The detail from the endpoint rollups; undefined when its percentiles must be exact. */
async function rolledDetail(
  events: EventsExecutor,
  filter: RequestFilter,
  endpoint: { method: string; route: string },
  split: WindowSplit,
): Promise<EndpointDetail | undefined> {
  const params = new SqlParams();
  const source = mergedSource(
    events,
    ENDPOINTS_HOURLY,
    filter,
    split,
    [sameKey("status_code")],
    ENDPOINT_COUNT_COLUMNS,
    params,
  );
  const [row] = await events.query<Omit<TrafficRow, "percentiles"> & { last_seen_at: string }>(
    `SELECT ${ENDPOINT_COUNTS_SQL} FROM ${source}`,
    params.values,
  );
  const total = row?.total_requests ?? 0;
  if (total > 0 && total <= EXACT_PERCENTILE_ROWS) return undefined;
  const percentiles =
    total === 0
      ? []
      : ((
          await endpointPercentiles(events, filter, split, false, [{ ...endpoint, total_requests: total }])
        ).get(endpointKey("", endpoint.method, endpoint.route)) ?? []);
  const figures = toTrafficFigures(row === undefined ? undefined : { ...row, percentiles });
  return {
    method: endpoint.method,
    path: endpoint.route,
    ...figures,
    last_seen_at: figures.total_requests > 0 && row !== undefined ? row.last_seen_at : null,
  };
}

/** Requests per status code, most frequent first (ties: lower code first). */
export async function statusCodeCounts(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<StatusCodeCount[]> {
  const params = new SqlParams();
  return events.query<StatusCodeCount>(
    `SELECT status_code, count() AS total_requests FROM ${qualified(events, API_REQUESTS)} ` +
      `${requestFilterClause(filter, params)} GROUP BY status_code ` +
      `ORDER BY total_requests DESC, status_code ASC LIMIT ${params.bind(limit, "UInt32")}`,
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
