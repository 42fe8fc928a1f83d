// The log search as SQL: the project's rows narrowed by app, environment, time, levels, loggers,
// trace and a literal case-insensitive text search; one statement per page, newest first.
import type { LogRecord } from "@sightline/contracts";
import { API_LOGS, type EventsExecutor, pickColumns } from "../../index.js";
import { afterCursor, limitClause, NEWEST_FIRST } from "../keyset.js";
import { filterClause, SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";
import { type Page, type PageWindow, toStringMap } from "./requests.js";

export interface LogFilter {
  readonly projectId: string;
  /** Undefined means every app of the project. */
  readonly appIds?: readonly string[] | undefined;
  readonly environment?: string | undefined;
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  /** Stored levels (DEBUG … CRITICAL). */
  readonly levels?: readonly string[] | undefined;
  readonly loggers?: readonly string[] | undefined;
  /** Lower-case hex. */
  readonly traceId?: string | undefined;
  /** Searched literally, case-insensitively, in message, logger name, attribute keys and values. */
  readonly search?: string | undefined;
}

const COLUMNS = pickColumns(API_LOGS, [
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

/** `WHERE …`, or with a search (or `late` conditions) `PREWHERE … WHERE <search>`: the text
 *  columns are read only for rows the other conditions keep. */
function logFilterClause(filter: LogFilter, params: SqlParams, late: readonly string[] = []): string {
  const where = tenantConditions(filter, params);
  if (filter.levels !== undefined && filter.levels.length > 0) {
    where.push(`level IN ${params.bind(filter.levels, "Array(String)")}`);
  }
  if (filter.loggers !== undefined && filter.loggers.length > 0) {
    where.push(`logger_name IN ${params.bind(filter.loggers, "Array(String)")}`);
  }
  if (filter.traceId !== undefined) where.push(`trace_id = ${params.bind(filter.traceId, "String")}`);
  const search: string[] = [...late];
  if (filter.search !== undefined) {
    // position() takes the needle as text, so `%`, `_` and `\` need no escaping.
    const needle = params.bind(filter.search, "String");
    const found = (text: string) => `positionCaseInsensitiveUTF8(${text}, ${needle}) > 0`;
    search.push(
      `(${found("message")} OR ${found("logger_name")} ` +
        `OR arrayExists(key -> ${found("key")}, mapKeys(attributes)) ` +
        `OR arrayExists(value -> ${found("value")}, mapValues(attributes)))`,
    );
  }
  return filterClause(where, search);
}

type StoredLog = Omit<LogRecord, "attributes"> & { attributes: unknown };

/** A stored row in the search's record shape: attributes as a name -> text object. */
function toLogRecord({ attributes, ...item }: StoredLog): LogRecord {
  return { ...item, attributes: toStringMap(attributes) };
}

/** Every log the filter matches, newest first, in the search's record shape: streamed by the
 *  engine, so memory holds one batch however many rows match. */
export async function* streamLogs(events: EventsExecutor, filter: LogFilter): AsyncIterable<LogRecord[]> {
  const rows = events.stream<StoredLog>({
    page(after, limit) {
      const params = new SqlParams();
      const where = logFilterClause(filter, params, after === undefined ? [] : [afterCursor(after, params)]);
      return {
        sql:
          `SELECT ${COLUMNS.join(", ")} FROM ${qualified(events, API_LOGS)} ${where} ` +
          `${NEWEST_FIRST}${limitClause(limit, params)}`,
        params: params.values,
      };
    },
  });
  for await (const batch of rows) yield batch.map(toLogRecord);
}

export async function findLogPage(
  events: EventsExecutor,
  filter: LogFilter,
  window: PageWindow,
): Promise<Page<LogRecord>> {
  const params = new SqlParams();
  const table = qualified(events, API_LOGS);
  const where = logFilterClause(filter, params);
  const rows = await events.query<StoredLog & { total_count: number }>(
    `SELECT ${COLUMNS.join(", ")}, (SELECT count() FROM ${table} ${where}) AS total_count ` +
      `FROM ${table} ${where} ORDER BY timestamp DESC, id DESC ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    if (window.offset === 0) return { items: [], total: 0 };
    const countParams = new SqlParams();
    const [row] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM ${table} ${logFilterClause(filter, countParams)}`,
      countParams.values,
    );
    return { items: [], total: row?.n ?? 0 };
  }
  const total = (rows[0] as { total_count: number }).total_count;
  return {
    items: rows.map(({ total_count: _total, ...item }) => toLogRecord(item)),
    total,
  };
}
