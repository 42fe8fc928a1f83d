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
  const nowMs = Date.now();
  // A group's first occurrence is the first of its rows retained up to the window's end. Sorted
  // by it, every group needs it: one statement joins the window's groups to their first
  // occurrences. Otherwise the page is found first, with each group's first occurrence in the
  // window, and a second statement reads the page's groups before the window (pageFirstSeen): at
  // 100 M rows the retention's read was 56 of the 24 h page's 134 ms, and 32 ms for a page of 25.
  const firstSeenFirst = sort.by === "first_seen_at";
  const windowSplit = await planWindow(ERRORS_DAILY, filter, coverage, nowMs);
  // Distinct consumers (a hash set per group and hour or day) are what a rolled-up page costs
  // most: unless the order needs them, only the page's groups get them, from a second statement
  // over the same window (pageConsumers). At 100 M rows that took the 7 d page from 166–190 to
  // 122–133 ms and 24 h from 93–120 to 84–86; at 42 M rows 24 h went from 74 to 91 ms, the cost
  // of reading the raw edges again, under the target either way (docs/performance.md).
  const consumersFirst = sort.by === "affected_consumers" || windowSplit === undefined;
  const columns = ["requests", "last_seen", ...(consumersFirst ? ["consumers"] : [])];
  const figures = [
    windowSplit === undefined ? "count() AS error_total" : "sum(c_requests) AS error_total",
    consumersFirst ? affectedConsumersSql(windowSplit) : "0 AS affected_consumers",
    windowSplit === undefined ? "max(timestamp) AS last_seen_at" : "max(c_last_seen) AS last_seen_at",
  ];
  if (!firstSeenFirst) {
    columns.push("first_seen");
    figures.push(`${firstSeenSql(windowSplit)} AS first_seen_at`);
  }
  // Aliases never reuse a column's name: ClickHouse would read them in WHERE too.
  const groups =
    `SELECT ${KEYS}, ${figures.join(", ")} ` +
    `FROM ${errorsSource(events, filter, windowSplit, columns, params)} GROUP BY ${KEYS}`;
  const upTo = (until: number | undefined) =>
    firstSeenRead(events, filter, retainedSince, until, coverage, nowMs);
  let statement: string;
  let before: Promise<FirstSeenRead> | undefined;
  if (firstSeenFirst) {
    const retained = await upTo(filter.until);
    statement =
      `SELECT ${KEYS}, error_total, affected_consumers, first_ever AS first_seen_at, last_seen_at, ` +
      `first_ever >= ${params.instant(filter.since)} AS is_new, count() OVER () AS total_groups ` +
      `FROM (${groups}) AS w INNER JOIN (SELECT ${KEYS}, ${firstSeenSql(retained.split)} AS first_ever ` +
      `FROM ${errorsSource(events, retained.filter, retained.split, ["first_seen"], params)} ` +
      `GROUP BY ${KEYS}) AS r USING (${KEYS})`;
  } else {
    before = upTo(filter.since - 1);
    statement = `SELECT *, count() OVER () AS total_groups FROM (${groups})`;
  }
  const [rows, beforeRead] = await Promise.all([
    events.query<
      Omit<ErrorGroupRow, "count" | "path" | "is_new"> & {
        route: string;
        error_total: number;
        total_groups: number;
        is_new?: number | boolean;
      }
    >(
      `${statement} ` +
        `ORDER BY ${ERROR_SORT_SQL[sort.by]} ${direction}, app_id ASC, method ASC, route ASC, status_code ASC ` +
        `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
      params.values,
    ),
    before,
  ]);
  if (rows.length === 0) {
    if (window.offset === 0) return { items: [], total: 0 };
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT uniqExact(${KEYS}) AS n FROM ${qualified(events, API_REQUESTS)} ` +
        requestFilterClause(filter, countParams),
      countParams.values,
    );
    return { items: [], total: row?.n ?? 0 };
  }
  const keys = rows.map((row): GroupKey => [row.app_id, row.method, row.route, row.status_code]);
  const [consumers, earlier] = await Promise.all([
    consumersFirst || windowSplit === undefined
      ? undefined
      : pageConsumers(events, filter, windowSplit, keys),
    beforeRead === undefined ? undefined : pageFirstSeen(events, beforeRead, keys),
  ]);
  return {
    items: rows.map((row) => {
      const key = groupKey(row.app_id, row.method, row.route, row.status_code);
      const firstBefore = earlier?.get(key);
      return {
        app_id: row.app_id,
        method: row.method,
        path: row.route,
        status_code: row.status_code,
        count: row.error_total,
        affected_consumers: consumers?.get(key) ?? row.affected_consumers,
        first_seen_at: firstBefore ?? row.first_seen_at,
        last_seen_at: row.last_seen_at,
        // Read before the window: new when nothing was found there.
        is_new: earlier === undefined ? row.is_new === true || row.is_new === 1 : firstBefore === undefined,
      };
    }),
    total: (rows[0] as { total_groups: number }).total_groups,
  };
}

type GroupKey = readonly [app_id: string, method: string, route: string, status_code: number];
const groupKey = (...key: GroupKey) => JSON.stringify(key);

/** The rows `filter` matches for the errors figures: raw rows, or the errors rollup's `columns`
 *  over `split` and its raw edges; `extra` conditions on the key columns. */
function errorsSource(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit | undefined,
  columns: readonly string[],
  params: SqlParams,
  extra: readonly string[] = [],
): string {
  return split === undefined
    ? `${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params, extra)}`
    : mergedSource(events, ERRORS_DAILY, filter, split, MERGED_KEYS, columns, params, extra);
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
  return pageFigure(
    events,
    keys,
    (params, narrowed) => errorsSource(events, filter, split, ["consumers"], params, narrowed),
    affectedConsumersSql(split),
    (row: { affected_consumers: number }) => row.affected_consumers,
  );
}

/** One figure (`figure`, aliased) for each of some groups, from `source` narrowed to them, by
 *  groupKey; groups without rows are absent. */
async function pageFigure<Row, Value>(
  events: EventsExecutor,
  keys: readonly GroupKey[],
  source: (params: SqlParams, narrowed: readonly string[]) => string,
  figure: string,
  value: (row: Row) => Value,
): Promise<Map<string, Value>> {
  const params = new SqlParams();
  const from = source(params, narrowedTo(keys, params));
  const rows = await events.query<
    Row & Pick<ErrorGroupRow, "app_id" | "method" | "status_code"> & { route: string }
  >(`SELECT ${KEYS}, ${figure} FROM ${from} GROUP BY ${KEYS}`, params.values);
  return new Map(
    rows.map((row) => [groupKey(row.app_id, row.method, row.route, row.status_code), value(row)]),
  );
}

/** Each key column confined to the groups' values: every row of those groups (and perhaps of a
 *  few other groups, whose figures are not used). */
function narrowedTo(keys: readonly GroupKey[], params: SqlParams): string[] {
  const values = (index: 0 | 1 | 2) =>
    params.bind([...new Set(keys.map((key) => key[index]))], "Array(String)");
  return [
    `app_id IN ${values(0)}`,
    `method IN ${values(1)}`,
    `route IN ${values(2)}`,
    `status_code IN ${params.bind([...new Set(keys.map((key) => key[3]))], "Array(UInt16)")}`,
  ];
}

/** A read of first occurrences: `filter` over a range, and how it splits over the errors rollup
 *  (undefined: raw rows). */
interface FirstSeenRead {
  readonly filter: RequestFilter;
  readonly split: WindowSplit | undefined;
}

/**
 * Where first occurrences up to `until` are read: `filter` from the oldest retained time, from the
 * errors rollup where it holds whole days or hours (the caller confines statuses to >= 400, as
 * the rollup does). Raw rows of everything retained are every row of the project (a consumer
 * filter): they start where the rollup says the window's groups can first have occurred instead.
 */
async function firstSeenRead(
  events: EventsExecutor,
  filter: RequestFilter & { readonly since: number },
  retainedSince: number | undefined,
  until: number | undefined,
  coverage: RollupCoverage | undefined,
  nowMs: number,
): Promise<FirstSeenRead> {
  const read = { ...filter, since: retainedSince, until };
  const split = await planWindow(ERRORS_DAILY, read, coverage, nowMs);
  if (split !== undefined) return { filter: read, split };
  const bound = await firstSeenBound(events, filter, retainedSince, coverage, nowMs);
  const since =
    bound !== undefined && bound > (retainedSince ?? Number.NEGATIVE_INFINITY) ? bound : retainedSince;
  return { filter: { ...read, since }, split: undefined };
}

const firstSeenSql = (split: WindowSplit | undefined) =>
  split === undefined ? "min(timestamp)" : "min(c_first_seen)";

/** The first occurrence of each of some groups in a read before the window: only groups found. */
async function pageFirstSeen(
  events: EventsExecutor,
  read: FirstSeenRead,
  keys: readonly GroupKey[],
): Promise<Map<string, string>> {
  const { since, keptSince, until } = read.filter;
  if (until !== undefined && Math.max(since ?? 0, keptSince ?? 0) > until) return new Map();
  return pageFigure(
    events,
    keys,
    (params, narrowed) => errorsSource(events, read.filter, read.split, ["first_seen"], params, narrowed),
    `${firstSeenSql(read.split)} AS first_seen_at`,
    (row: { first_seen_at: string }) => row.first_seen_at,
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
