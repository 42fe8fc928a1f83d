// The request search and the request detail as SQL: one statement per page (rows plus the total
// as a scalar subquery), newest first with the id as tie-breaker, so pages never overlap or skip.
import type { RequestDetail, RequestRecord, RequestSortKey } from "@sightline/contracts";
import { API_REQUESTS, type EventsExecutor, pickColumns } from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import { afterCursor, limitClause, NEWEST_FIRST } from "../keyset.js";
import { SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";

/** Columns of a search item, in the contract's order. Payloads and headers stay out of lists. */
const ITEM_COLUMNS = pickColumns(API_REQUESTS, [
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

const DETAIL_COLUMNS = pickColumns(API_REQUESTS, [
  ...ITEM_COLUMNS,
  "base_url",
  "scheme",
  "validation_paths",
  "validation_rules",
  "validation_messages",
  "request_payload",
  "response_payload",
  "request_headers",
  "response_headers",
]);

export interface PageWindow {
  readonly limit: number;
  readonly offset: number;
}

export interface Page<T> {
  readonly items: T[];
  readonly total: number;
}

/** The order of a request page; ties always fall back to newest first, then the id. */
export interface RequestSort {
  readonly by: RequestSortKey;
  readonly direction: "asc" | "desc";
}

const NEWEST: RequestSort = { by: "timestamp", direction: "desc" };

/**
 * The ORDER BY of `sort`, total so offset pages never overlap or skip. Newest first reads in the
 * table's sort key and stops early; slowest and largest are a top-N over the filtered rows.
 */
function requestOrder(sort: RequestSort): string {
  const direction = sort.direction === "asc" ? "ASC" : "DESC";
  if (sort.by === "timestamp") return `ORDER BY timestamp ${direction}, id ${direction}`;
  return `ORDER BY ${sort.by} ${direction}, timestamp DESC, id DESC`;
}

/** The rows of one page in `sort` order (newest first by default), and how many rows match in all. */
export async function findRequestPage(
  events: EventsExecutor,
  filter: RequestFilter,
  window: PageWindow,
  sort: RequestSort = NEWEST,
): Promise<Page<RequestRecord>> {
  const params = new SqlParams();
  const table = qualified(events, API_REQUESTS);
  const where = requestFilterClause(filter, params);
  const rows = await events.query<RequestRecord & { total_count: number }>(
    `SELECT ${ITEM_COLUMNS.join(", ")}, (SELECT count() FROM ${table} ${where}) AS total_count ` +
      `FROM ${table} ${where} ` +
      `${requestOrder(sort)} ` +
      `LIMIT ${params.bind(window.limit, "UInt32")} OFFSET ${params.bind(window.offset, "UInt64")}`,
    params.values,
  );
  if (rows.length === 0) {
    // Past the last page (or nothing matches): the total still has to be told.
    return { items: [], total: window.offset === 0 ? 0 : await countRequests(events, filter) };
  }
  const total = (rows[0] as { total_count: number }).total_count;
  return { items: rows.map(({ total_count: _total, ...item }) => item), total };
}

/** Every request the filter matches, newest first, in the search's record shape: streamed by
 *  the engine, so memory holds one batch however many rows match. */
export function streamRequests(
  events: EventsExecutor,
  filter: RequestFilter,
): AsyncIterable<RequestRecord[]> {
  return events.stream<RequestRecord>({
    page(after, limit) {
      const params = new SqlParams();
      const where = requestFilterClause(
        filter,
        params,
        after === undefined ? [] : [afterCursor(after, params)],
      );
      return {
        sql:
          `SELECT ${ITEM_COLUMNS.join(", ")} FROM ${qualified(events, API_REQUESTS)} ${where} ` +
          `${NEWEST_FIRST}${limitClause(limit, params)}`,
        params: params.values,
      };
    },
  });
}

async function countRequests(events: EventsExecutor, filter: RequestFilter): Promise<number> {
  const params = new SqlParams();
  const [row] = await events.query<{ n: number }>(
    `SELECT count() AS n FROM ${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)}`,
    params.values,
  );
  return row?.n ?? 0;
}

/** One request of the project, payloads and headers included; null when there is none. The
 *  id is a UUIDv7 carrying the record's timestamp, so this is a primary-key lookup. */
export async function findRequest(
  events: EventsExecutor,
  projectId: string,
  id: string,
  timestampMs: number,
): Promise<RequestDetail | null> {
  const params = new SqlParams();
  const [row] = await events.query<
    Omit<RequestDetail, "request_headers" | "response_headers" | "validation_errors"> &
      StoredHeaders &
      StoredValidationErrors
  >(
    `SELECT ${DETAIL_COLUMNS.join(", ")} FROM ${qualified(events, API_REQUESTS)} ` +
      `WHERE project_id = ${params.bind(projectId, "String")} ` +
      `AND timestamp = ${params.instant(timestampMs)} AND id = ${params.bind(id, "UUID")} LIMIT 1`,
    params.values,
  );
  if (row === undefined) return null;
  const { validation_paths: paths, validation_rules: rules, validation_messages: messages, ...rest } = row;
  return {
    ...rest,
    validation_errors: paths.map((path, i) => ({ path, rule: rules[i] ?? "", message: messages[i] ?? "" })),
    request_headers: toStringMap(row.request_headers),
    response_headers: toStringMap(row.response_headers),
  };
}

interface StoredHeaders {
  readonly request_headers: unknown;
  readonly response_headers: unknown;
}

/** The parallel arrays validation errors are stored in (one entry per failed field and rule). */
interface StoredValidationErrors {
  readonly validation_paths: string[];
  readonly validation_rules: string[];
  readonly validation_messages: string[];
}

/**
 * A name -> text map from a stored column: the JSON text of an object (how ingest stores
 * headers) or a Map column (read back as an object). Anything unreadable is an empty map rather
 * than a failed answer: the rest of the record is still worth showing.
 */
export function toStringMap(stored: unknown): Record<string, string> {
  let value = stored;
  if (typeof stored === "string") {
    try {
      value = JSON.parse(stored) as unknown;
    } catch {
      return {};
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const entries = Object.entries(value as Record<string, unknown>).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string",
  );
  // fromEntries defines own properties: a "__proto__" name stays a name.
  return Object.fromEntries(entries);
}
