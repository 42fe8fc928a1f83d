// Figures per consumer. A consumer is identified by consumer_id; requests without one are the
// single "unknown" consumer. Names and groups can change over time, so the newest non-empty
// value sent is the one shown.
import type { ConsumerSortKey, ConsumerStats, ProjectConsumerStats } from "@sightline/contracts";
import { API_REQUESTS, CONSUMERS_DAILY, type EventsExecutor } from "../../index.js";
import { type RequestFilter, requestConditions, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import {
  LIST_COLUMNS,
  LIST_COUNTS_SQL,
  LIST_HISTOGRAM_SQL,
  LIST_PERCENTILES_SQL,
  listPageSql,
  smallWindow,
} from "../rollups/lists.js";
import { mergedSource, planWindow } from "../rollups/merged.js";
import type { WindowSplit } from "../rollups/split.js";
import { filterClause, SqlParams } from "../sql.js";
import {
  bytesSql,
  errorRate,
  finite,
  PERCENTILES_SQL,
  RESPONSE_TIME_SQL,
  toTrafficFigures,
  type TrafficRow,
} from "../traffic.js";
import { qualified } from "../tenant.js";

interface ConsumerFiguresRow {
  readonly consumer_id: string;
  readonly total_requests: number;
  readonly error_count: number;
  readonly client_errors: number;
  readonly server_errors: number;
  readonly avg_response_time_ms: number | null;
  readonly last_seen_at: string;
}

/**
 * The busiest consumers (ties: consumer_id), with their error and latency figures and newest
 * names. Filtered on an endpoint, every statement reads the `by_endpoint` projection, whose
 * columns they keep to (ADR 0029).
 */
export async function consumerStats(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<ConsumerStats[]> {
  const params = new SqlParams();
  const rows = await events.query<ConsumerFiguresRow>(
    "SELECT consumer_id, " +
      "count() AS total_requests, countIf(status_code >= 400) AS error_count, " +
      "countIf(status_code >= 400 AND status_code < 500) AS client_errors, " +
      "countIf(status_code >= 500) AS server_errors, " +
      `avg(${RESPONSE_TIME_SQL}) AS avg_response_time_ms, ` +
      "max(timestamp) AS last_seen_at " +
      `FROM ${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)} ` +
      `GROUP BY consumer_id ORDER BY total_requests DESC, consumer_id ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
  const names = await newestNames(
    events,
    filter,
    rows.map((row) => row.consumer_id),
  );
  return rows.map((row) => ({
    ...consumerIdentity({ consumer_id: row.consumer_id, ...(names.get(row.consumer_id) ?? NO_NAMES) }),
    total_requests: row.total_requests,
    error_count: row.error_count,
    client_errors: row.client_errors,
    server_errors: row.server_errors,
    error_rate: errorRate(row.error_count, row.total_requests),
    avg_response_time_ms: finite(row.avg_response_time_ms),
    last_seen_at: row.last_seen_at,
  }));
}

type Names = Pick<ConsumerDetailRow, "latest_name" | "latest_group">;
const NO_NAMES: Names = { latest_name: "", latest_group: "" };
/** The newest stretch of a window newestNames reads first. */
const RECENT_NAMES_MS = 86_400_000;

/**
 * The newest non-empty name and group of some consumers in the filter, searched newest first:
 * the window's last day, then the rest for the consumers still lacking one. The same values as
 * one argMaxIf over the whole window, for less: that aggregate copies a string at nearly every
 * row of a time-ordered read, and took half the endpoint card's 0.5 s at 30 d on 100 M rows,
 * while a busy consumer's newest name is nearly always in the last day. Consumers that never
 * send a name or group cost the older stretch's read, not its copies (the If never holds).
 */
async function newestNames(
  events: EventsExecutor,
  filter: RequestFilter,
  consumerIds: readonly string[],
): Promise<Map<string, Names>> {
  const found = new Map<string, Names>();
  let missing = consumerIds.filter((id) => id !== "");
  const { since, until } = filter;
  const split = since !== undefined && until !== undefined && until - since > RECENT_NAMES_MS;
  const stretches: RequestFilter[] = split
    ? [
        { ...filter, since: until - RECENT_NAMES_MS },
        { ...filter, until: until - RECENT_NAMES_MS - 1 },
      ]
    : [filter];
  for (const stretch of stretches) {
    if (missing.length === 0) break;
    const rows = await consumerDetails(events, stretch, missing, { percentiles: false });
    for (const id of missing) {
      // A value found in a newer stretch is newer than any in this one.
      const newer = found.get(id) ?? NO_NAMES;
      const here = rows.get(id) ?? NO_NAMES;
      found.set(id, {
        latest_name: newer.latest_name !== "" ? newer.latest_name : here.latest_name,
        latest_group: newer.latest_group !== "" ? newer.latest_group : here.latest_group,
      });
    }
    missing = missing.filter((id) => {
      const names = found.get(id) ?? NO_NAMES;
      return names.latest_name === "" || names.latest_group === "";
    });
  }
  return found;
}

/** What each consumer sort key orders by, as SQL over the aliases of the page statement. */
const CONSUMER_SORT_SQL: Readonly<Record<ConsumerSortKey, readonly string[]>> = {
  consumer: ["label"],
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

export interface ConsumerSort {
  readonly by: ConsumerSortKey;
  readonly direction: "asc" | "desc";
}

interface ConsumerPageRow extends TrafficRow {
  readonly consumer_id: string;
  readonly latest_name: string;
  readonly latest_group: string;
  readonly last_seen_at: string;
  readonly total_groups: number;
  /** Rolled-up reads only: the requests of every consumer in the filter. */
  readonly window_requests?: number;
}

/** What the second statement adds to a page's rows: the names and the percentiles. */
interface ConsumerDetailRow {
  readonly consumer_id: string;
  readonly latest_name: string;
  readonly latest_group: string;
  /** Left out when the caller did not ask for them. */
  readonly percentiles?: ReadonlyArray<number | null>;
}

const NAMES_SQL =
  "argMaxIf(consumer_name, timestamp, consumer_name != '') AS latest_name, " +
  "argMaxIf(consumer_group, timestamp, consumer_group != '') AS latest_group";

/** The traffic figures without percentiles: cheap enough to compute for every consumer. */
const COUNTS_SQL = [
  "count() AS total_requests",
  "countIf(status_code >= 400) AS error_count",
  "countIf(status_code >= 400 AND status_code < 500) AS client_errors",
  "countIf(status_code >= 500) AS server_errors",
  `avg(${RESPONSE_TIME_SQL}) AS avg_response_time_ms`,
  `sum(${bytesSql("request_size")}) AS total_request_bytes`,
  `sum(${bytesSql("response_size")}) AS total_response_bytes`,
].join(", ");

/**
 * One page of consumers with traffic in the filter, sorted (ties: consumer_id, so a page
 * boundary never splits or repeats one), and how many match in all, counted over the groups in
 * the same statement. `search` matches the id, the newest name or the newest group.
 *
 * Percentiles and newest names are what cost most per group, and a project can have thousands
 * of consumers: the first statement computes them for every consumer only when the sort or the
 * search needs them, and otherwise a second statement computes them for the page's consumers
 * alone (the same filter, so the same figures). Measured on 490k rows and 5,000 consumers: 2-3x
 * faster than one statement computing everything for every consumer. A search sorted by a
 * percentile computes percentiles only for the consumers the search keeps (`matchedOnly`).
 */
export async function consumerStatsPage(
  events: EventsExecutor,
  filter: RequestFilter,
  search: string | undefined,
  sort: ConsumerSort,
  window: { limit: number; offset: number },
  coverage?: RollupCoverage,
): Promise<{ items: ProjectConsumerStats[]; total: number }> {
  const split = await planWindow(CONSUMERS_DAILY, filter, coverage, Date.now());
  if (split !== undefined) {
    const rolled = await rolledConsumersPage(events, filter, split, search, sort, window);
    if (rolled !== undefined) return rolled;
  }
  const needs = {
    names: search !== undefined || sort.by === "consumer",
    percentiles: sort.by.startsWith("p") && sort.by.endsWith("_response_time_ms"),
  };
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const order = [...CONSUMER_SORT_SQL[sort.by].map((sql) => `${sql} ${direction}`), "consumer_id ASC"];
  const label = needs.names ? `, ${LABEL_SQL}` : "";
  const groups = needs.percentiles
    ? consumerGroupsSql(
        events,
        filter,
        undefined,
        needs,
        params,
        matchedOnly(search, (having) => consumerNamesSql(events, filter, having, params)),
      )
    : consumerGroupsSql(events, filter, search, needs, params);
  // The window count runs over the groups HAVING kept; the label is sorted as it is shown.
  const rows = await events.query<ConsumerPageRow>(
    `SELECT *${label}, count() OVER () AS total_groups ` +
      `FROM (${groups}) ` +
      `ORDER BY ${order.join(", ")} ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    if (window.offset === 0) return { items: [], total: 0 };
    // Past the last page: the total still has to be told.
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM (${consumerNamesSql(events, filter, search, countParams)})`,
      countParams.values,
    );
    return { items: [], total: row?.n ?? 0 };
  }
  const details =
    needs.names && needs.percentiles
      ? new Map<string, ConsumerDetailRow>()
      : await consumerDetails(
          events,
          filter,
          rows.map((row) => row.consumer_id),
        );
  return {
    items: rows.map((row) => {
      const detail = details.get(row.consumer_id);
      const complete: ConsumerPageRow = {
        ...row,
        latest_name: needs.names ? row.latest_name : (detail?.latest_name ?? ""),
        latest_group: needs.names ? row.latest_group : (detail?.latest_group ?? ""),
        percentiles: needs.percentiles ? row.percentiles : (detail?.percentiles ?? []),
      };
      return toProjectConsumer(complete);
    }),
    total: (rows[0] as ConsumerPageRow).total_groups,
  };
}

const LABEL_SQL =
  "if(latest_name != '', latest_name, if(consumer_id != '', consumer_id, 'unknown')) AS label";

function toProjectConsumer(row: ConsumerPageRow): ProjectConsumerStats {
  return {
    ...consumerIdentity(row),
    ...toTrafficFigures(row),
    last_seen_at: row.last_seen_at,
  };
}

/**
 * The consumers page from the consumer rollup's whole days and raw rows at the window's edges,
 * or undefined when the window is small enough to be read raw (exact percentiles). Names are
 * cheap here (a max per day and consumer), so they are always read; the latency histograms are
 * merged for every consumer only when the sort needs percentiles, else for the page's alone.
 */
async function rolledConsumersPage(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit,
  search: string | undefined,
  sort: ConsumerSort,
  window: { limit: number; offset: number },
): Promise<{ items: ProjectConsumerStats[]; total: number } | undefined> {
  const byPercentile = sort.by.startsWith("p") && sort.by.endsWith("_response_time_ms");
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const order = [...CONSUMER_SORT_SQL[sort.by].map((sql) => `${sql} ${direction}`), "consumer_id ASC"];
  const params = new SqlParams();
  // Unlike raw rows, the rollup's histograms are not narrowed to a search's matches by a first
  // pass: on 5 M rows (1.1 M rollup rows at 30 d, a search keeping 22 % of consumers) that read
  // twice the rows for 0–15 % less CPU, once the newest names were cheap (newestSql).
  const groups = rolledConsumerGroupsSql(
    events,
    filter,
    split,
    search,
    byPercentile ? "histogram" : "counts",
    params,
  );
  const rows = await events.query<ConsumerPageRow>(
    byPercentile
      ? listPageSql(
          groups,
          order,
          `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
          true,
          `, ${LABEL_SQL}`,
        )
      : `SELECT *, ${LABEL_SQL}, count() OVER () AS total_groups, ` +
          "sum(total_requests) OVER () AS window_requests " +
          `FROM (${groups}) ORDER BY ${order.join(", ")} ` +
          `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  const first = rows[0];
  if (first === undefined) {
    if (window.offset === 0) return { items: [], total: 0 };
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM (${rolledConsumerGroupsSql(events, filter, split, search, "names", countParams)})`,
      countParams.values,
    );
    return { items: [], total: row?.n ?? 0 };
  }
  if (smallWindow(first.window_requests)) return undefined;
  let percentiles = new Map<string, ReadonlyArray<number | null>>();
  if (!byPercentile) {
    const pageParams = new SqlParams();
    const ids = pageParams.bind(
      rows.map((row) => row.consumer_id),
      "Array(String)",
    );
    const page = rolledConsumerGroupsSql(events, filter, split, undefined, "histogram", pageParams, [
      `consumer_id IN ${ids}`,
    ]);
    const found = await events.query<{ consumer_id: string; percentiles: Array<number | null> }>(
      `SELECT consumer_id, percentiles FROM (SELECT *, ${LIST_PERCENTILES_SQL} FROM (${page}))`,
      pageParams.values,
    );
    percentiles = new Map(found.map((row) => [row.consumer_id, row.percentiles]));
  }
  return {
    items: rows.map((row) =>
      toProjectConsumer(byPercentile ? row : { ...row, percentiles: percentiles.get(row.consumer_id) ?? [] }),
    ),
    total: first.total_groups,
  };
}

/** What a rolled-up read of consumers computes per consumer: the newest names alone (enough to
 *  search), with the counts and sums, or with the latency histogram too. */
type RolledFigures = "names" | "counts" | "histogram";

/** One row per consumer from the consumer rollup and raw edges; `search` as consumerGroupsSql,
 *  `extra` conditions on consumer_id in every source of the read. */
function rolledConsumerGroupsSql(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit,
  search: string | undefined,
  figures: RolledFigures,
  params: SqlParams,
  extra: readonly string[] = [],
): string {
  const names = ["latest_name", "latest_group"];
  const columns =
    figures === "names"
      ? names
      : [
          ...LIST_COLUMNS.filter((column) => figures === "histogram" || column !== "latency_histogram"),
          ...names,
        ];
  const source = mergedSource(
    events,
    CONSUMERS_DAILY,
    filter,
    split,
    [{ alias: "consumer_id", rollup: "consumer_id", raw: "consumer_id" }],
    columns,
    params,
    extra,
  );
  const sums = figures === "names" ? "" : `${LIST_COUNTS_SQL}, `;
  const histogram = figures === "histogram" ? `${LIST_HISTOGRAM_SQL}, ` : "";
  return (
    `SELECT consumer_id, ${sums}${histogram}` +
    `${newestSql("c_latest_name")} AS latest_name, ${newestSql("c_latest_group")} AS latest_group ` +
    `FROM ${source} GROUP BY consumer_id${searchHaving(search, params)}`
  );
}

/**
 * The value of the newest of a rollup column's (time, value) pairs. argMax on the time, not max
 * of the pairs: comparing tuples of a DateTime64 and a String cost 3.8× more (777 against 203 ms
 * of CPU for 950k rollup rows and 50k consumers), the most costly part of the consumers page.
 * Pairs of the same millisecond with different values keep either, as raw reads' argMaxIf does.
 */
const newestSql = (column: string) => `argMax(tupleElement(${column}, 2), tupleElement(${column}, 1))`;

/**
 * `consumer_id IN (…)` of the consumers `search` keeps, found from their newest names alone
 * (`groupsOf(search)`), or no condition without a search. The search holds the newest name, an
 * aggregate over the whole filter, so raw reads find the matches first and compute percentiles
 * for them alone: on 5 M rows (24 h raw, a search keeping 28 % of consumers) 0.78× the CPU of
 * computing them for every consumer, for twice the rows read.
 */
function matchedOnly(search: string | undefined, groupsOf: (search: string) => string): string[] {
  return search === undefined ? [] : [`consumer_id IN (SELECT consumer_id FROM (${groupsOf(search)}))`];
}

/** `HAVING …` keeping the identified consumers whose id, newest name or group holds `search`. */
function searchHaving(search: string | undefined, params: SqlParams): string {
  if (search === undefined) return "";
  const needle = params.bind(search, "String");
  return (
    ` HAVING consumer_id != '' AND (positionCaseInsensitiveUTF8(consumer_id, ${needle}) > 0 ` +
    `OR positionCaseInsensitiveUTF8(latest_name, ${needle}) > 0 ` +
    `OR positionCaseInsensitiveUTF8(latest_group, ${needle}) > 0)`
  );
}

/** Newest names (and percentiles, unless left out) of some consumers, over the same filter. */
async function consumerDetails(
  events: EventsExecutor,
  filter: RequestFilter,
  consumerIds: readonly string[],
  read: { percentiles: boolean } = { percentiles: true },
): Promise<Map<string, ConsumerDetailRow>> {
  const params = new SqlParams();
  const where = requestFilterClause(filter, params, [
    `consumer_id IN ${params.bind(consumerIds, "Array(String)")}`,
  ]);
  const percentiles = read.percentiles ? `, ${PERCENTILES_SQL} AS percentiles` : "";
  const rows = await events.query<ConsumerDetailRow>(
    `SELECT consumer_id, ${NAMES_SQL}${percentiles} ` +
      `FROM ${qualified(events, API_REQUESTS)} ${where} GROUP BY consumer_id`,
    params.values,
  );
  return new Map(rows.map((row) => [row.consumer_id, row]));
}

/** One row per consumer with its figures; `search` keeps the identified ones it matches. */
function consumerGroupsSql(
  events: EventsExecutor,
  filter: RequestFilter,
  search: string | undefined,
  needs: { names: boolean; percentiles: boolean },
  params: SqlParams,
  /** Conditions on consumer_id, read with the filter's cheap ones (before any other column). */
  extra: readonly string[] = [],
): string {
  const { cheap, late } = requestConditions(filter, params);
  const where = filterClause([...cheap, ...extra], late);
  const having = searchHaving(search, params);
  const optional = [
    ...(needs.names ? [NAMES_SQL] : []),
    ...(needs.percentiles ? [`${PERCENTILES_SQL} AS percentiles`] : []),
  ];
  return (
    `SELECT consumer_id, ${[COUNTS_SQL, ...optional].join(", ")}, max(timestamp) AS last_seen_at ` +
    `FROM ${qualified(events, API_REQUESTS)} ${where} GROUP BY consumer_id${having}`
  );
}

/** One row per consumer with its newest name and group alone; `search` as consumerGroupsSql. */
function consumerNamesSql(
  events: EventsExecutor,
  filter: RequestFilter,
  search: string | undefined,
  params: SqlParams,
): string {
  const where = requestFilterClause(filter, params);
  return (
    `SELECT consumer_id, ${NAMES_SQL} FROM ${qualified(events, API_REQUESTS)} ${where} ` +
    `GROUP BY consumer_id${searchHaving(search, params)}`
  );
}

/** How a consumer is named: its newest name, else its id; requests without an id are "unknown". */
function consumerIdentity(row: {
  readonly consumer_id: string;
  readonly latest_name: string;
  readonly latest_group: string;
}): { consumer: string; consumer_id: string; consumer_name: string; consumer_group: string } {
  const known = row.consumer_id !== "";
  const name = known ? row.latest_name : "";
  return {
    consumer: name !== "" ? name : known ? row.consumer_id : "unknown",
    consumer_id: row.consumer_id,
    consumer_name: name,
    consumer_group: known ? row.latest_group : "",
  };
}
