// The errors breakdown: failed requests grouped by endpoint (app, method, route template) and
// status code, with the consumers they hit, when they were last seen in the window and first seen
// in all the retained data (so a long-standing error does not look new), and whether that is new.
import type { ErrorSortKey } from "@sightline/contracts";
import { API_REQUESTS, ERRORS_DAILY, type EventsExecutor } from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import { type MergedKey, mergedSource, planWindow, servedPart } from "../rollups/merged.js";
import { SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";

const ERROR_SORT_SQL: Readonly<Record<ErrorSortKey, string>> = {
  count: "error_total",
  affected_consumers: "affected_consumers",
  first_seen_at: "first_seen_at",
  last_seen_at: "last_seen_at",
};

export interface ErrorSort {
  readonly by: ErrorSortKey;
  readonly direction: "asc" | "desc";
}

export interface ErrorGroupRow {
  readonly app_id: string;
  readonly method: string;
  readonly path: string;
  readonly status_code: number;
  readonly count: number;
  readonly affected_consumers: number;
  readonly first_seen_at: string;
  readonly last_seen_at: string;
  readonly is_new: boolean;
}

const KEYS = "app_id, method, route, status_code";
const MERGED_KEYS: readonly MergedKey[] = ["app_id", "method", "route", "status_code"].map((name) => ({
  alias: name,
  rollup: name,
  raw: name,
}));

/**
 * One page of (endpoint, status code) groups of the requests `filter` matches (the caller
 * confines it to error statuses), sorted (ties: app, method, route, status code, so paging is
 * stable), and how many groups there are in all, counted in the same statement.
 */
export async function errorGroupsPage(
  events: EventsExecutor,
  filter: RequestFilter & { readonly since: number },
  sort: ErrorSort,
  window: { limit: number; offset: number },
  /** The oldest time still retained, epoch milliseconds; undefined: whatever is stored. */
  retainedSince?: number,
  coverage?: RollupCoverage,
): Promise<{ items: ErrorGroupRow[]; total: number }> {
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const table = qualified(events, API_REQUESTS);
  // The same filter over everything retained up to the window's end: every group of the window
  // has a row there, holding its first occurrence. Either part is read from the errors rollup
  // where it holds whole hours or days (the caller confines statuses to >= 400, as the rollup does).
  const nowMs = Date.now();
  let retainedFilter = { ...filter, since: retainedSince };
  const retainedSplit = await planWindow(ERRORS_DAILY, retainedFilter, coverage, nowMs);
  if (retainedSplit === undefined) {
    // Read raw over everything retained, that is every row of the project (a consumer filter):
    // start where the rollup says the window's groups can first have occurred instead.
    const bound = await firstSeenBound(events, filter, retainedSince, coverage, nowMs);
    if (bound !== undefined && bound > (retainedSince ?? Number.NEGATIVE_INFINITY))
      retainedFilter = { ...filter, since: bound };
  }
  const windowSplit = await planWindow(ERRORS_DAILY, filter, coverage, nowMs);
  const retainedFrom =
    retainedSplit === undefined
      ? `${table} ${requestFilterClause(retainedFilter, params)}`
      : mergedSource(
          events,
          ERRORS_DAILY,
          retainedFilter,
          retainedSplit,
          MERGED_KEYS,
          ["first_seen"],
          params,
        );
  const windowFrom =
    windowSplit === undefined
      ? `${table} ${requestFilterClause(filter, params)}`
      : mergedSource(
          events,
          ERRORS_DAILY,
          filter,
          windowSplit,
          MERGED_KEYS,
          ["requests", "consumers", "last_seen"],
          params,
        );
  const windowFigures =
    windowSplit === undefined
      ? "count() AS error_total, " +
        // Hashed, as the summary counts distinct values: faster, and collisions are negligible.
        "uniqExactIf(cityHash64(consumer_id), consumer_id != '') AS affected_consumers, " +
        "max(timestamp) AS last_seen_at"
      : "sum(c_requests) AS error_total, uniqExactMerge(c_consumers) AS affected_consumers, " +
        "max(c_last_seen) AS last_seen_at";
  const firstEver = retainedSplit === undefined ? "min(timestamp)" : "min(c_first_seen)";
  const rows = await events.query<
    Omit<ErrorGroupRow, "count" | "path" | "is_new"> & {
      route: string;
      error_total: number;
      total_groups: number;
      is_new: number | boolean;
    }
  >(
    // Aliases never reuse a column's name: ClickHouse would read them in WHERE too.
    `SELECT ${KEYS}, error_total, affected_consumers, first_ever AS first_seen_at, last_seen_at, ` +
      `first_ever >= ${params.instant(filter.since)} AS is_new, count() OVER () AS total_groups FROM (` +
      `SELECT ${KEYS}, ${windowFigures} FROM ${windowFrom} GROUP BY ${KEYS}` +
      `) AS w INNER JOIN (SELECT ${KEYS}, ${firstEver} AS first_ever FROM ${retainedFrom} ` +
      `GROUP BY ${KEYS}) AS r USING (${KEYS}) ` +
      `ORDER BY ${ERROR_SORT_SQL[sort.by]} ${direction}, app_id ASC, method ASC, route ASC, status_code ASC ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    if (window.offset === 0) return { items: [], total: 0 };
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT uniqExact(${KEYS}) AS n FROM ${table} ` + requestFilterClause(filter, countParams),
      countParams.values,
    );
    return { items: [], total: row?.n ?? 0 };
  }
  return {
    items: rows.map((row) => ({
      app_id: row.app_id,
      method: row.method,
      path: row.route,
      status_code: row.status_code,
      count: row.error_total,
      affected_consumers: row.affected_consumers,
      first_seen_at: row.first_seen_at,
      last_seen_at: row.last_seen_at,
      is_new: row.is_new === true || row.is_new === 1,
    })),
    total: (rows[0] as { total_groups: number }).total_groups,
  };
}

/**
 * No later than any first occurrence of the window's groups under `filter`, read from the errors
 * rollup for the part of `filter` it answers (dropping, say, the consumer): that part matches
 * every row `filter` does, so each group first occurred there no later. The window's groups are
 * read raw (one window, not the retention). Undefined when the rollup cannot answer it.
 */
async function firstSeenBound(
  events: EventsExecutor,
  filter: RequestFilter & { readonly since: number },
  retainedSince: number | undefined,
  coverage: RollupCoverage | undefined,
  nowMs: number,
): Promise<number | undefined> {
  const served = servedPart(ERRORS_DAILY, { ...filter, since: retainedSince });
  const split = await planWindow(ERRORS_DAILY, served, coverage, nowMs);
  if (split === undefined) return undefined;
  const params = new SqlParams();
  const source = mergedSource(events, ERRORS_DAILY, served, split, MERGED_KEYS, ["first_seen"], params);
  const [row] = await events.query<{ bound: number | string; groups: number | string }>(
    `SELECT toUnixTimestamp64Milli(min(c_first_seen)) AS bound, count() AS groups FROM ${source} ` +
      `WHERE (${KEYS}) IN (SELECT ${KEYS} FROM ${qualified(events, API_REQUESTS)} ` +
      `${requestFilterClause(filter, params)})`,
    params.values,
  );
  if (row === undefined) return undefined;
  // No group in the window: nothing before it is needed.
  return Number(row.groups) === 0 ? filter.since : Number(row.bound);
}

/**
 * Failed requests per status code under each filter (the windows of a comparison; the caller
 * confines statuses to >= 400), in one statement: each window from the errors rollup where it
 * holds whole days or hours and the filter is one it answers, raw otherwise. Unlike the groups above it
 * needs no first occurrence, so nothing before the windows is read.
 */
export async function errorCodeCounts(
  events: EventsExecutor,
  filters: ReadonlyArray<RequestFilter & { readonly since: number }>,
  coverage?: RollupCoverage,
): Promise<Array<Map<number, number>>> {
  const params = new SqlParams();
  const nowMs = Date.now();
  const splits = await Promise.all(
    filters.map((filter) => planWindow(ERRORS_DAILY, filter, coverage, nowMs)),
  );
  const parts = filters.map((filter, index) => {
    const split = splits[index];
    const tag = `${params.bind(index, "UInt32")} AS w`;
    return split === undefined
      ? `SELECT ${tag}, status_code, count() AS errors FROM ${qualified(events, API_REQUESTS)} ` +
          `${requestFilterClause(filter, params)} GROUP BY status_code`
      : `SELECT ${tag}, status_code, sum(c_requests) AS errors FROM ${mergedSource(
          events,
          ERRORS_DAILY,
          filter,
          split,
          [{ alias: "status_code", rollup: "status_code", raw: "status_code" }],
          ["requests"],
          params,
        )} GROUP BY status_code`;
  });
  const counts = filters.map(() => new Map<number, number>());
  const rows = await events.query<{ w: number; status_code: number; errors: number | string }>(
    parts.join(" UNION ALL "),
    params.values,
  );
  for (const row of rows) counts[Number(row.w)]?.set(Number(row.status_code), Number(row.errors));
  return counts;
}
