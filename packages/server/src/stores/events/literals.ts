// Query parameters written into the SQL text as typed literals, for chDB reads only: the `chdb`
// package runs every bound statement of the process through one queue (the engine's parameter
// state is shared between connections), so bound reads never run side by side, whatever the
// sessions. A statement whose values are literals needs no binding and runs on any session.
// Strings travel as hexadecimal (`unhex('…')`), so no value can end a literal or add SQL; every
// value is cast to its placeholder's type, as binding would.
import { EventsStoreError, type QueryParams } from "./executor.js";

/** `{name:Type}`, as ClickHouse spells a placeholder. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g;

/** The statement with each placeholder replaced by `_CAST(<literal>, '<Type>')`. */
export function inlineParams(sql: string, params: QueryParams): string {
  return sql.replace(PLACEHOLDER, (_match, name: string, type: string) => {
    if (!Object.hasOwn(params, name)) {
      throw new EventsStoreError(`No value for query parameter ${name}`, "query", { sql });
    }
    return `_CAST(${literalOf(params[name], name)}, ${quoted(type.trim())})`;
  });
}

function literalOf(value: unknown, name: string): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return hexString(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw unbindable(name, "a non-finite number");
    return Number.isInteger(value) ? value.toFixed(0) : String(value);
  }
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw unbindable(name, "an invalid Date");
    return `fromUnixTimestamp64Milli(${ms.toFixed(0)}, 'UTC')`;
  }
  if (Array.isArray(value)) return `[${value.map((item) => literalOf(item, name)).join(", ")}]`;
  throw unbindable(name, typeof value);
}

/** A string as an expression whose text cannot be anything but its bytes. */
function hexString(value: string): string {
  return `unhex('${Buffer.from(value, "utf8").toString("hex")}')`;
}

/** Our own type names (from our SQL) as a string literal: quotes and backslashes escaped. */
function quoted(text: string): string {
  return `'${text.replace(/[\\']/g, (char) => `\\${char}`)}'`;
}

function unbindable(name: string, what: string): EventsStoreError {
  return new EventsStoreError(`Cannot bind ${what} to query parameter ${name}`, "query");
}
