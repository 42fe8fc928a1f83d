// The errors breakdown: failed requests grouped by endpoint (app, method, route template) and
// status code, with the consumers they hit and when they were first and last seen in the window.
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
}

const KEYS = "app_id, method, route, status_code";

/**
 * One page of (endpoint, status code) groups of the requests `filter` matches (the caller
 * confines it to error statuses), sorted (ties: app, method, route, status code, so paging is
 * stable), and how many groups there are in all, counted in the same statement.
 */
export async function errorGroupsPage(
  events: EventsExecutor,
  filter: RequestFilter,
  sort: ErrorSort,
  window: { limit: number; offset: number },
): Promise<{ items: ErrorGroupRow[]; total: number }> {
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const rows = await events.query<
    Omit<ErrorGroupRow, "count" | "path"> & { route: string; error_total: number; total_groups: number }
  >(
    // Aliases never reuse a column's name: ClickHouse would read them in WHERE too.
    `SELECT ${KEYS}, count() AS error_total, ` +
      // Hashed, as the summary counts distinct values: faster, and collisions are negligible.
      "uniqExactIf(cityHash64(consumer_id), consumer_id != '') AS affected_consumers, " +
      "min(timestamp) AS first_seen_at, max(timestamp) AS last_seen_at, count() OVER () AS total_groups " +
      `FROM ${events.database}.api_requests ${requestFilterClause(filter, params)} GROUP BY ${KEYS} ` +
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
    })),
    total: (rows[0] as { total_groups: number }).total_groups,
  };
}
