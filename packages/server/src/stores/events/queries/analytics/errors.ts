// The errors breakdown: failed requests grouped by endpoint (app, method, route template) and
// status code, with the consumers they hit, when they were last seen in the window and first seen
// in all the retained data (so a long-standing error does not look new), and whether that is new.
import type { ErrorSortKey } from "@sightline/contracts";
import { API_REQUESTS, ERRORS_DAILY, type EventsExecutor } from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import { type MergedKey, mergedSource, planWindow, servedPart } from "../rollups/merged.js";
import type { WindowSplit } from "../rollups/split.js";
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
  // Distinct consumers cost most once many whole days are read (a hash set per group and day):
  // then, unless the order needs them, only the page's groups get them, from a second statement
  // over the same window. Shorter reads keep them in one statement, as a second would read the
  // raw edges again for about what it saves (at 42 M rows: 30 d 213–243 → 171–206 ms, 7 d level).
  const daysRead = (windowSplit?.buckets ?? [])
    .filter((bucket) => bucket.tier === ERRORS_DAILY)
    .reduce((sum, bucket) => sum + (bucket.toMs - bucket.fromMs) / DAY_MS, 0);
  const consumersFirst = sort.by === "affected_consumers" || daysRead < PAGE_CONSUMERS_FROM_DAYS;
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
  const windowFrom = windowSource(events, filter, windowSplit, consumersFirst, params);
  const windowFigures = [
    windowSplit === undefined ? "count() AS error_total" : "sum(c_requests) AS error_total",
    consumersFirst ? affectedConsumersSql(windowSplit) : "0 AS affected_consumers",
    windowSplit === undefined ? "max(timestamp) AS last_seen_at" : "max(c_last_seen) AS last_seen_at",
  ].join(", ");
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
  const consumers =
    consumersFirst || windowSplit === undefined
      ? undefined
      : await pageConsumers(
          events,
          filter,
          windowSplit,
          rows.map((row) => [row.app_id, row.method, row.route, row.status_code]),
        );
  return {
    items: rows.map((row) => ({
      app_id: row.app_id,
      method: row.method,
      path: row.route,
      status_code: row.status_code,
      count: row.error_total,
      affected_consumers:
        consumers?.get(groupKey(row.app_id, row.method, row.route, row.status_code)) ??
        row.affected_consumers,
      first_seen_at: row.first_seen_at,
      last_seen_at: row.last_seen_at,
      is_new: row.is_new === true || row.is_new === 1,
    })),
    total: (rows[0] as { total_groups: number }).total_groups,
  };
}

const DAY_MS = 86_400_000;
/** Whole days of the errors rollup from which the page's distinct consumers are a statement of
 *  their own (pageConsumers). */
const PAGE_CONSUMERS_FROM_DAYS = 14;

type GroupKey = readonly [app_id: string, method: string, route: string, status_code: number];
const groupKey = (...key: GroupKey) => JSON.stringify(key);

/** Where the window's figures come from: raw rows, or the errors rollup and its raw edges
 *  (their distinct consumers only `withConsumers`). */
function windowSource(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit | undefined,
  withConsumers: boolean,
  params: SqlParams,
): string {
  if (split === undefined) return `${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)}`;
  const columns = withConsumers ? ["requests", "consumers", "last_seen"] : ["requests", "last_seen"];
  return mergedSource(events, ERRORS_DAILY, filter, split, MERGED_KEYS, columns, params);
}

const affectedConsumersSql = (split: WindowSplit | undefined) =>
  split === undefined
    ? // Hashed, as the summary counts distinct values: faster, and collisions are negligible.
      "uniqExactIf(cityHash64(consumer_id), consumer_id != '') AS affected_consumers"
    : "uniqExactMerge(c_consumers) AS affected_consumers";

/**
 * The distinct consumers of some groups over the window (the page's): the same figure the page
 * statement would compute for them. On 90 d of 42 M rows the errors page took 316 ms computing it
 * for every group and 100 ms without it; this statement for a page of 25 took 134 ms. Each key
 * column is narrowed to the page's values, which keeps every row of the page's groups (and perhaps
 * a few other groups, whose figures are not used).
 */
async function pageConsumers(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit,
  keys: readonly GroupKey[],
): Promise<Map<string, number>> {
  const params = new SqlParams();
  const values = (index: 0 | 1 | 2) =>
    params.bind([...new Set(keys.map((key) => key[index]))], "Array(String)");
  const narrowed = [
    `app_id IN ${values(0)}`,
    `method IN ${values(1)}`,
    `route IN ${values(2)}`,
    `status_code IN ${params.bind([...new Set(keys.map((key) => key[3]))], "Array(UInt16)")}`,
  ];
  const from = mergedSource(
    events,
    ERRORS_DAILY,
    filter,
    split,
    MERGED_KEYS,
    ["consumers"],
    params,
    narrowed,
  );
  const rows = await events.query<
    Pick<ErrorGroupRow, "app_id" | "method" | "status_code" | "affected_consumers"> & { route: string }
  >(`SELECT ${KEYS}, ${affectedConsumersSql(split)} FROM ${from} GROUP BY ${KEYS}`, params.values);
  return new Map(
    rows.map((row) => [groupKey(row.app_id, row.method, row.route, row.status_code), row.affected_consumers]),
  );
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
