// The errors breakdown: failed requests grouped by endpoint (app, method, route template) and
// status code, with the consumers they hit, when they were last seen in the window and first seen
// in all the retained data (so a long-standing error does not look new), and whether that is new.
import type { ErrorSortKey } from "@sightline/contracts";
import type { EventsExecutor } from "../../../stores/events/index.js";
import { type RequestFilter, requestFilterClause } from "../../../stores/events/queries/request-filter.js";
import { SqlParams } from "../../../stores/events/queries/sql.js";

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
): Promise<{ items: ErrorGroupRow[]; total: number }> {
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const table = `${events.database}.api_requests`;
  // The same filter over everything retained up to the window's end: every group of the window
  // has a row there, holding its first occurrence.
  const retained = requestFilterClause({ ...filter, since: retainedSince }, params);
  const inWindow = requestFilterClause(filter, params);
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
      `SELECT ${KEYS}, count() AS error_total, ` +
      // Hashed, as the summary counts distinct values: faster, and collisions are negligible.
      "uniqExactIf(cityHash64(consumer_id), consumer_id != '') AS affected_consumers, " +
      `max(timestamp) AS last_seen_at FROM ${table} ${inWindow} GROUP BY ${KEYS}` +
      `) AS w INNER JOIN (SELECT ${KEYS}, min(timestamp) AS first_ever FROM ${table} ${retained} ` +
      `GROUP BY ${KEYS}) AS r USING (${KEYS}) ` +
      `ORDER BY ${ERROR_SORT_SQL[sort.by]} ${direction}, app_id ASC, method ASC, route ASC, status_code ASC ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    if (window.offset === 0) return { items: [], total: 0 };
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT uniqExact(${KEYS}) AS n FROM ${events.database}.api_requests ` +
        requestFilterClause(filter, countParams),
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
