// Error issues: the ERROR/CRITICAL logs of the window grouped by app and fingerprint (written at
// ingest), with the consumers they hit, first occurrence within retention, whether the issue is
// new or regressed, the newest occurrence's message and stack, and a few traces to open.
import type { ErrorSortKey } from "@sightline/contracts";
import { errorTypeOf } from "../../../../lib/error-fingerprint.js";
import { API_LOGS, type EventsExecutor } from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import { SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";
import type { ErrorSort } from "./errors.js";

/** An issue seen before the window regressed when it had been quiet this long before the window. */
export const REGRESSION_QUIET_MS = 24 * 3_600_000;
/** The stack shown per issue: enough for the top frames, small enough for a page of 100. */
const STACK_BYTES = 8192;

const ISSUE_SORT_SQL: Readonly<Record<ErrorSortKey, string>> = {
  count: "error_total",
  affected_consumers: "affected_consumers",
  first_seen_at: "first_ever",
  last_seen_at: "last_seen_at",
};

export interface ErrorIssueRow {
  readonly app_id: string;
  readonly fingerprint: string;
  readonly error_type: string;
  readonly message: string;
  readonly stack: string;
  readonly count: number;
  readonly affected_consumers: number;
  readonly first_seen_at: string;
  readonly last_seen_at: string;
  readonly is_new: boolean;
  readonly is_regression: boolean;
  readonly sample_trace_ids: string[];
}

/** The api_logs columns the filter may name: the ones both tables share. */
export type IssueFilter = Pick<
  RequestFilter,
  "projectId" | "appIds" | "environment" | "until" | "consumerId"
> & {
  readonly since: number;
};

const KEYS = "app_id, fingerprint";
const flag = (value: unknown): boolean => value === true || value === 1 || value === "1";

/** One page of the window's error issues, sorted (ties: app, fingerprint), and how many there are. */
export async function errorIssuesPage(
  events: EventsExecutor,
  filter: IssueFilter,
  sort: ErrorSort,
  window: { limit: number; offset: number },
  /** The oldest time still retained, epoch milliseconds; undefined: whatever is stored. */
  retainedSince?: number,
): Promise<{ items: ErrorIssueRow[]; total: number }> {
  const params = new SqlParams();
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  const table = qualified(events, API_LOGS);
  const grouped = "fingerprint != ''";
  const inWindow = requestFilterClause(filter, params, [grouped]);
  const retained = requestFilterClause({ ...filter, since: retainedSince }, params, [grouped]);
  const since = params.instant(filter.since);
  const quietSince = params.instant(filter.since - REGRESSION_QUIET_MS);
  const rows = await events.query<
    Omit<ErrorIssueRow, "count" | "is_new" | "is_regression" | "error_type"> & {
      declared_type: string;
      error_total: number;
      is_new: unknown;
      is_regression: unknown;
      total_issues: number;
    }
  >(
    // Aliases never reuse a column's name: ClickHouse would read them in WHERE too.
    `SELECT ${KEYS}, declared_type, sample_message AS message, sample_stack AS stack, error_total, ` +
      "affected_consumers, first_ever AS first_seen_at, last_seen_at, sample_trace_ids, " +
      `first_ever >= ${since} AS is_new, ` +
      `first_ever < ${since} AND before_window < ${quietSince} AS is_regression, ` +
      "count() OVER () AS total_issues FROM (" +
      `SELECT ${KEYS}, count() AS error_total, ` +
      "uniqExactIf(cityHash64(consumer_id), consumer_id != '') AS affected_consumers, " +
      "max(timestamp) AS last_seen_at, argMax(message, timestamp) AS sample_message, " +
      `substringUTF8(argMax(payload, timestamp), 1, ${STACK_BYTES}) AS sample_stack, ` +
      "argMax(attributes['error_type'], timestamp) AS declared_type, " +
      "groupUniqArrayIf(5)(trace_id, trace_id != '') AS sample_trace_ids " +
      `FROM ${table} ${inWindow} GROUP BY ${KEYS}` +
      `) AS w INNER JOIN (SELECT ${KEYS}, min(timestamp) AS first_ever, ` +
      `maxIf(timestamp, timestamp < ${since}) AS before_window FROM ${table} ${retained} ` +
      `GROUP BY ${KEYS}) AS r USING (${KEYS}) ` +
      `ORDER BY ${ISSUE_SORT_SQL[sort.by]} ${direction}, app_id ASC, fingerprint ASC ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    if (window.offset === 0) return { items: [], total: 0 };
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT uniqExact(${KEYS}) AS n FROM ${table} ${requestFilterClause(filter, countParams, [grouped])}`,
      countParams.values,
    );
    return { items: [], total: Number(row?.n ?? 0) };
  }
  return {
    items: rows.map((row) => ({
      app_id: row.app_id,
      fingerprint: row.fingerprint,
      // The SDK sends the class name as an attribute; other loggers often only as a prefix.
      error_type: errorTypeOf(row.message, row.declared_type),
      message: row.message,
      stack: row.stack,
      count: Number(row.error_total),
      affected_consumers: Number(row.affected_consumers),
      first_seen_at: row.first_seen_at,
      last_seen_at: row.last_seen_at,
      is_new: flag(row.is_new),
      is_regression: flag(row.is_regression),
      sample_trace_ids: row.sample_trace_ids,
    })),
    total: Number((rows[0] as { total_issues: number }).total_issues),
  };
}
