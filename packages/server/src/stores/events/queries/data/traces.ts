// The trace queries as SQL: recent traces (spans grouped by trace id, one statement per page plus
// the total) and everything one trace id names (its spans, request records and log records,
// each found through the trace_id bloom filter within the project).
import { type LogRecord, type RequestRecord, TRACE_LIMITS, type TraceSummary } from "@sightline/contracts";
import { API_LOGS, API_REQUESTS, API_SPANS, type EventsExecutor, pickColumns } from "../../index.js";
import { SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";
import type { Page, PageWindow } from "./requests.js";
import { toStringMap } from "./requests.js";
import type { StoredTraceSpan } from "./trace-spans.js";

export interface TraceFilter {
  readonly projectId: string;
  /** Undefined means every app of the project. */
  readonly appIds?: readonly string[] | undefined;
  readonly environment?: string | undefined;
  /** Inclusive bounds on span start times, epoch milliseconds. */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  readonly minDurationMs?: number | undefined;
}

const SPAN_COLUMNS = pickColumns(API_SPANS, [
  "span_id",
  "parent_span_id",
  "timestamp",
  "duration_ms",
  "name",
  "kind",
  "service_name",
  "app_id",
  "environment",
  "status",
  "status_code",
  "attributes",
]);
const REQUEST_COLUMNS = pickColumns(API_REQUESTS, [
  "id",
  "timestamp",
  "app_id",
  "environment",
  "method",
  "path",
  "route",
  "status_code",
  "response_time_ms",
  "request_size",
  "response_size",
  "ip_address",
  "user_agent",
  "consumer_id",
  "consumer_name",
  "consumer_group",
  "trace_id",
  "span_id",
  "query",
]);
const LOG_COLUMNS = pickColumns(API_LOGS, [
  "id",
  "timestamp",
  "app_id",
  "environment",
  "level",
  "message",
  "logger_name",
  "payload",
  "attributes",
  "trace_id",
  "span_id",
  "endpoint_method",
  "endpoint_path",
]);

function spanFilterClause(filter: TraceFilter, params: SqlParams): string {
  const where = tenantConditions(filter, params);
  return `WHERE ${where.join(" AND ")}`;
}

/**
 * A trace's figures over all of its spans, whatever the query around them: first start,
 * duration in milliseconds from the first start to the last end, span count and error flag. The
 * list and a trace's detail both use these, so they always agree.
 */
const TRACE_FIGURES =
  "min(timestamp) AS started_at, " +
  "greatest(max(toFloat64(toUnixTimestamp64Milli(timestamp)) + duration_ms) - " +
  "toFloat64(toUnixTimestamp64Milli(min(timestamp))), 0) AS duration_ms, " +
  "count() AS span_count, max(status = 'error' OR status_code >= 500) AS error";

/**
 * One row per trace of the filtered spans. The root is the earliest span without a parent (a
 * span whose parent was never received counts as one only when no real root exists: the earliest
 * span then). Durations in milliseconds from the first start to the last end.
 */
function summariesSql(table: string, filter: TraceFilter, params: SqlParams): string {
  const having =
    filter.minDurationMs === undefined
      ? ""
      : `HAVING duration_ms >= ${params.bind(filter.minDurationMs, "Float64")}`;
  const rootOf = (column: string) => `argMin(${column}, (parent_span_id != '', timestamp, span_id))`;
  return (
    `SELECT trace_id, ${TRACE_FIGURES}, ` +
    `${rootOf("span_id")} AS root_span_id, ${rootOf("name")} AS root_name, ${rootOf("kind")} AS root_kind, ` +
    `${rootOf("service_name")} AS root_service_name, ${rootOf("app_id")} AS root_app_id, ` +
    `${rootOf("environment")} AS root_environment ` +
    `FROM ${table} ${spanFilterClause(filter, params)} GROUP BY trace_id ${having}`
  );
}

interface SummaryRow {
  readonly trace_id: string;
  readonly started_at: string;
  readonly duration_ms: number;
  readonly span_count: number;
  readonly error: number | boolean;
  readonly root_span_id: string;
  readonly root_name: string;
  readonly root_kind: string;
  readonly root_service_name: string;
  readonly root_app_id: string;
  readonly root_environment: string;
  readonly total_count?: number;
}

/** A page of traces, newest first (by first span start, then trace id: pages never overlap). */
export async function findTracePage(
  events: EventsExecutor,
  filter: TraceFilter,
  window: PageWindow,
): Promise<Page<TraceSummary>> {
  const table = qualified(events, API_SPANS);
  const params = new SqlParams();
  const grouped = summariesSql(table, filter, params);
  const countParams = new SqlParams();
  const rows = await events.query<SummaryRow>(
    `SELECT * FROM (${grouped}) ORDER BY started_at DESC, trace_id DESC ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  const [count] = await events.query<{ n: number }>(
    `SELECT count() AS n FROM (${summariesSql(table, filter, countParams)})`,
    countParams.values,
  );
  return { items: rows.map(toSummary), total: count?.n ?? 0 };
}

function toSummary(row: SummaryRow): TraceSummary {
  return {
    trace_id: row.trace_id,
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    span_count: row.span_count,
    error: row.error === true || row.error === 1,
    root: {
      span_id: row.root_span_id,
      name: row.root_name,
      kind: row.root_kind,
      service_name: row.root_service_name,
      app_id: row.root_app_id,
      environment: row.root_environment,
    },
  };
}

/** A trace's figures over all of its spans (TRACE_FIGURES); the tree may hold only part. */
export interface TraceFigures {
  readonly spanCount: number;
  readonly durationMs: number;
  readonly error: boolean;
}

export interface TraceRecords {
  /** The earliest-starting spans, at most TRACE_LIMITS.spans of them. */
  readonly spans: readonly StoredTraceSpan[];
  readonly figures: TraceFigures;
  readonly requests: readonly RequestRecord[];
  readonly logs: readonly LogRecord[];
}

/** Everything of the project that carries `traceId` (lower-case hex), oldest first, bounded. */
export async function findTraceRecords(
  events: EventsExecutor,
  projectId: string,
  traceId: string,
): Promise<TraceRecords> {
  const select = (table: string, columns: readonly string[], limit: number) => {
    const params = new SqlParams();
    const sql =
      `SELECT ${columns.join(", ")} FROM ${qualified(events, table)} ` +
      `WHERE ${[...tenantConditions({ projectId }, params), `trace_id = ${params.bind(traceId, "String")}`].join(" AND ")} ` +
      `ORDER BY timestamp, id LIMIT ${params.bind(limit, "UInt32")}`;
    return { sql, params: params.values };
  };
  const spans = select(API_SPANS.name, SPAN_COLUMNS, TRACE_LIMITS.spans);
  const requests = select(API_REQUESTS.name, REQUEST_COLUMNS, TRACE_LIMITS.requests);
  const logs = select(API_LOGS.name, LOG_COLUMNS, TRACE_LIMITS.logs);
  const figuresParams = new SqlParams();
  const figuresSql =
    `SELECT ${TRACE_FIGURES} FROM ${qualified(events, API_SPANS)} ` +
    `WHERE ${[...tenantConditions({ projectId }, figuresParams), `trace_id = ${figuresParams.bind(traceId, "String")}`].join(" AND ")}`;
  const [spanRows, figureRows, requestRows, logRows] = await Promise.all([
    events.query<StoredTraceSpan>(spans.sql, spans.params),
    events.query<Pick<SummaryRow, "span_count" | "duration_ms" | "error">>(figuresSql, figuresParams.values),
    events.query<RequestRecord>(requests.sql, requests.params),
    events.query<Omit<LogRecord, "attributes"> & { attributes: unknown }>(logs.sql, logs.params),
  ]);
  const figures = figureRows[0];
  return {
    spans: spanRows,
    figures: {
      spanCount: Number(figures?.span_count ?? 0),
      durationMs: spanRows.length === 0 ? 0 : Number(figures?.duration_ms ?? 0),
      error: figures?.error === true || figures?.error === 1,
    },
    requests: requestRows,
    logs: logRows.map(({ attributes, ...log }) => ({ ...log, attributes: toStringMap(attributes) })),
  };
}
