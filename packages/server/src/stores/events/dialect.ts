// What both events-store drivers share: identifiers, output settings, parameter and error handling.
import { type EventsFailureKind, EventsStoreError, type QueryParams } from "./executor.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Identifiers cannot be bound as parameters, so any that reach SQL text are checked first. */
export function assertIdentifier(name: string, what: string): string {
  if (!IDENTIFIER.test(name)) {
    throw new EventsStoreError(
      `Invalid ${what} name ${JSON.stringify(name)}: expected ${IDENTIFIER}`,
      "query",
    );
  }
  return name;
}

/** The rule for table names: SQL text names `${database}.table`; an InsertBatch names the bare
 *  table and the executor qualifies it here. */
export function qualifiedTable(database: string, table: string): string {
  return `${assertIdentifier(database, "database")}.${assertIdentifier(table, "table")}`;
}

/**
 * Settings every call runs with, on both engines, so rows come back in one shape:
 * DateTime64(3,'UTC') as `2026-11-21T06:00:00.123Z`, 64-bit integers as JSON numbers, ISO
 * date-times accepted on input, and time functions (now(), toStartOfHour() on zone-less values)
 * evaluated in UTC whatever the host's zone. chDB's build already defaults
 * date_time_input_format to best_effort while a ClickHouse server defaults to basic: named so
 * both agree.
 */
export const OUTPUT_SETTINGS = {
  date_time_output_format: "iso",
  date_time_input_format: "best_effort",
  output_format_json_quote_64bit_integers: 0,
  session_timezone: "UTC",
} as const;

/** True when a call binds at least one parameter (chDB serialises bound calls process-wide). */
export function hasParams(params: QueryParams | undefined): params is QueryParams {
  return params !== undefined && Object.keys(params).length > 0;
}

/**
 * Dates bind as Unix seconds with three decimals (`1700000000.123`, `0.000`), which both engines
 * read exactly; chDB's own Date formatting drops milliseconds. The decimals are always written:
 * a bare small integer (`0`, `86400`) is not read as Unix seconds and fails the statement. So a
 * `Date` bound to a `{t:DateTime64(3,'UTC')}` placeholder keeps its milliseconds on both engines.
 */
export function normaliseParams(params: QueryParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) out[name] = normaliseValue(value);
  return out;
}

function normaliseValue(value: unknown): unknown {
  if (value instanceof Date) return unixSeconds(value);
  if (Array.isArray(value)) return value.map(normaliseValue);
  return value;
}

function unixSeconds(date: Date): string {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new EventsStoreError("Cannot bind an invalid Date", "query");
  const abs = Math.abs(ms);
  return `${ms < 0 ? "-" : ""}${Math.floor(abs / 1000)}.${String(abs % 1000).padStart(3, "0")}`;
}

/** Engine codes that say the engine cannot serve right now (503) rather than that the
 *  statement is wrong (500): overload, memory, network, shutdown, auth misconfiguration. */
const UNAVAILABLE_CODES = new Set([
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  159, // TIMEOUT_EXCEEDED: a read over its class's max_execution_time
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  236, // ABORTED
  241, // MEMORY_LIMIT_EXCEEDED
  242, // TABLE_IS_READ_ONLY
  252, // TOO_MANY_PARTS
  516, // AUTHENTICATION_FAILED
  // A cluster's shard or Keeper is down or unreachable (docs/adr/0024-clickhouse-clusters.md).
  198, // DNS_ERROR
  225, // NO_ZOOKEEPER
  279, // ALL_CONNECTION_TRIES_FAILED
  319, // UNKNOWN_STATUS_OF_INSERT
  999, // KEEPER_EXCEPTION
]);

export function kindForEngineCode(code: number | undefined): "unavailable" | "query" {
  return code !== undefined && UNAVAILABLE_CODES.has(code) ? "unavailable" : "query";
}

/** Engine codes that say an INSERT statement itself is wrong (our schema, settings or grants)
 *  rather than the rows it carries: the statement text is the same for every insert of a table. */
const STATEMENT_FAULT_CODES = new Set([
  16, // NO_SUCH_COLUMN_IN_TABLE
  47, // UNKNOWN_IDENTIFIER
  60, // UNKNOWN_TABLE
  62, // SYNTAX_ERROR
  73, // UNKNOWN_FORMAT
  81, // UNKNOWN_DATABASE
  115, // UNKNOWN_SETTING
  497, // ACCESS_DENIED
]);

/**
 * An insert failure as the writer needs it: the engine's code and error name and the row it
 * stopped at, but not its text, which quotes the rows (paths, ids, payloads) and must never reach
 * a log line through `cause`. An engine refusal that is not about the statement is about the
 * rows: `rejected`, so the writer can isolate the batch that carries them.
 */
export function insertFailure(failure: EventsStoreError, failedAtRow: number | undefined): EventsStoreError {
  const code = failure.clickhouseCode;
  const kind: EventsFailureKind =
    failure.kind !== "query" || code === undefined || STATEMENT_FAULT_CODES.has(code)
      ? failure.kind
      : "rejected";
  return new EventsStoreError(failure.message, kind, {
    clickhouseCode: code,
    engineError: failure.engineError,
    failedAtRow,
  });
}

/** The row number in an engine message's `(at row 3)`: a number, safe to keep. */
export function failedRowOf(engineMessage: string): number | undefined {
  const match = /\(at row (\d+)\)/.exec(engineMessage);
  return match === null ? undefined : Number(match[1]);
}

/** The trailing `(UNKNOWN_TABLE)` of an engine message: safe to show, unlike the rest of it. */
export function engineErrorName(engineMessage: string): string | undefined {
  const names = [...engineMessage.matchAll(/\(([A-Z][A-Z0-9_]+)\)/g)];
  return names.at(-1)?.[1];
}

/** A message naming only the action and the engine's code: engine text can quote the statement
 *  and the rows it was given, so it stays on `cause`. */
export function failureMessage(action: string, code: number | undefined, name: string | undefined): string {
  if (code === undefined && name === undefined) return `Events store ${action} failed`;
  const detail = [code === undefined ? undefined : String(code), name].filter((part) => part !== undefined);
  return `Events store ${action} failed: ClickHouse error ${detail.join(" ")}`;
}

/** The action word used in messages, with the row count for inserts. */
export function describeInsert(table: string, rowCount: number): string {
  return `insert of ${rowCount} row${rowCount === 1 ? "" : "s"} into ${table}`;
}
