// What both events-store drivers share: identifiers, output settings, parameter and error handling.
import { EventsStoreError, type QueryParams } from "./executor.js";

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
 * Dates bind as Unix seconds with `.mmm` when the milliseconds are non-zero, the form
 * @clickhouse/client uses; chDB's own Date formatting drops milliseconds. So a `Date` bound to a
 * `{t:DateTime64(3,'UTC')}` placeholder keeps its milliseconds on both engines.
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
  const seconds = Math.floor(ms / 1000);
  const millis = ms - seconds * 1000;
  return millis === 0 ? String(seconds) : `${seconds}.${String(millis).padStart(3, "0")}`;
}

/** Engine codes that say the engine cannot serve right now (503) rather than that the
 *  statement is wrong (500): overload, memory, network, shutdown, auth misconfiguration. */
const UNAVAILABLE_CODES = new Set([
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  236, // ABORTED
  241, // MEMORY_LIMIT_EXCEEDED
  242, // TABLE_IS_READ_ONLY
  252, // TOO_MANY_PARTS
  516, // AUTHENTICATION_FAILED
]);

export function kindForEngineCode(code: number | undefined): "unavailable" | "query" {
  return code !== undefined && UNAVAILABLE_CODES.has(code) ? "unavailable" : "query";
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
