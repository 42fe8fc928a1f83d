// How an events table's rows become an insert body, in the format the executor takes: the text
// form every caller can write (JSONCompactEachRow) or RowBinary, built from the table's
// declared column types without any text in between (docs/performance.md, issue 21 §3).
import type { EventsTable } from "./tables/table.js";

/** The insert body formats the drivers send. */
export type InsertFormat = "JSONCompactEachRow" | "RowBinary";

/**
 * Rows of one table in its declared column order, appended one at a time. Values are given as
 * the rows' logical values: strings, finite numbers, string arrays, `Record<string, string>` for
 * maps, and epoch milliseconds for DateTime64 columns. An encoder may overwrite nothing of the
 * caller's array: the pipeline reuses one for every row.
 */
export interface RowEncoder {
  readonly format: InsertFormat;
  readonly rowCount: number;
  add(values: readonly unknown[]): void;
  /** The body of every row added, ready to insert whole (or concatenated with others). */
  finish(): Buffer;
}

export function createRowEncoder(table: EventsTable, format: InsertFormat): RowEncoder {
  return format === "RowBinary" ? new RowBinaryEncoder(table) : new JsonRowEncoder(table);
}

/** The column type without its codec: `String CODEC(ZSTD(1))` → `String`. */
export function bareType(type: string): string {
  const codec = type.indexOf(" CODEC(");
  return (codec === -1 ? type : type.slice(0, codec)).trim();
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));
/** The date part of the last day formatted: rows of one batch mostly share their day. */
let cachedDay = Number.NaN;
let cachedDate = "";

/**
 * `2026-11-21 06:00:00.123`: read as UTC by DateTime64(3, 'UTC') on both engines whatever their
 * input settings. Built from lookup tables: it runs once per row written as text.
 */
export function eventsTimestamp(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDate = new Date(day * DAY_MS).toISOString().slice(0, 10);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${cachedDate} ${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[millis]}`;
}

/** One JSON array per line; DateTime64 milliseconds written as eventsTimestamp text. */
class JsonRowEncoder implements RowEncoder {
  readonly format = "JSONCompactEachRow" as const;
  readonly #lines: string[] = [];
  readonly #times: readonly number[];
  readonly #row: unknown[];

  constructor(table: EventsTable) {
    this.#times = table.columns.flatMap((column, index) =>
      bareType(column.type).startsWith("DateTime64") ? [index] : [],
    );
    this.#row = new Array(table.columns.length);
  }

  get rowCount(): number {
    return this.#lines.length;
  }

  add(values: readonly unknown[]): void {
    const row = this.#row;
    for (let i = 0; i < values.length; i++) row[i] = values[i];
    for (const index of this.#times) {
      const ms = values[index];
      if (typeof ms === "number") row[index] = eventsTimestamp(ms);
    }
    this.#lines.push(JSON.stringify(row));
  }

  finish(): Buffer {
    return Buffer.from(`${this.#lines.join("\n")}\n`);
  }
}

/** Writes one value of a column at the writer's end; throws on a value of the wrong kind. */
type WriteValue = (out: ByteWriter, value: unknown) => void;

/**
 * RowBinary (https://clickhouse.com/docs/interfaces/formats/RowBinary): each row's values in
 * column order, little-endian, strings and arrays prefixed by their LEB128 length. Writers are
 * compiled once per table from its declared types.
 */
class RowBinaryEncoder implements RowEncoder {
  readonly format = "RowBinary" as const;
  readonly #out = new ByteWriter();
  readonly #writers: readonly WriteValue[];
  readonly #names: readonly string[];
  #rows = 0;

  constructor(table: EventsTable) {
    this.#writers = writersOf(table);
    this.#names = table.columnNames;
  }

  get rowCount(): number {
    return this.#rows;
  }

  add(values: readonly unknown[]): void {
    const writers = this.#writers;
    if (values.length !== writers.length) {
      throw new TypeError(`RowBinary row has ${values.length} values, expected ${writers.length}`);
    }
    const mark = this.#out.length;
    let i = 0;
    try {
      for (; i < writers.length; i++) (writers[i] as WriteValue)(this.#out, values[i]);
    } catch (error) {
      // A half-written row would shift every later one: the row is dropped whole.
      this.#out.length = mark;
      const reason = error instanceof Error ? error.message : String(error);
      throw new TypeError(`Cannot encode column ${this.#names[i] ?? "?"}: ${reason}`, {
        cause: error,
      });
    }
    this.#rows += 1;
  }

  finish(): Buffer {
    return this.#out.take();
  }
}

const writerCache = new WeakMap<EventsTable, readonly WriteValue[]>();

function writersOf(table: EventsTable): readonly WriteValue[] {
  let writers = writerCache.get(table);
  if (writers === undefined) {
    writers = table.columns.map((column) => {
      try {
        return writerOf(bareType(column.type));
      } catch (error) {
        throw new Error(`${table.name}.${column.name}: ${(error as Error).message}`, { cause: error });
      }
    });
    writerCache.set(table, writers);
  }
  return writers;
}

/** The writer of one (codec-less) ClickHouse type; throws for a type it cannot write. */
export function writerOf(type: string): WriteValue {
  const inner = (prefix: string): string | undefined =>
    type.startsWith(`${prefix}(`) && type.endsWith(")")
      ? type.slice(prefix.length + 1, -1).trim()
      : undefined;
  const lowCardinality = inner("LowCardinality");
  // LowCardinality changes the storage, not the RowBinary encoding.
  if (lowCardinality !== undefined) return writerOf(lowCardinality);
  const nullable = inner("Nullable");
  if (nullable !== undefined) {
    const write = writerOf(nullable);
    return (out, value) => {
      if (value === null || value === undefined) {
        out.byte(1);
      } else {
        out.byte(0);
        write(out, value);
      }
    };
  }
  const array = inner("Array");
  if (array !== undefined) {
    const write = writerOf(array);
    return (out, value) => {
      if (!Array.isArray(value)) throw new TypeError("expected an array");
      out.varint(value.length);
      for (const item of value) write(out, item);
    };
  }
  const map = inner("Map");
  if (map !== undefined) {
    const [keyType, valueType] = splitTopLevel(map);
    if (keyType === undefined || valueType === undefined) throw new Error(`cannot read type ${type}`);
    const writeKey = writerOf(keyType);
    const writeValue = writerOf(valueType);
    return (out, value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new TypeError("expected an object");
      }
      // Own enumerable keys, in the order JSON.stringify writes them.
      const keys = Object.keys(value);
      out.varint(keys.length);
      for (const key of keys) {
        writeKey(out, key);
        writeValue(out, (value as Record<string, unknown>)[key]);
      }
    };
  }
  if (type.startsWith("DateTime64(")) {
    const precision = Number(/^DateTime64\((\d+)/.exec(type)?.[1]);
    if (precision !== 3) throw new Error(`only DateTime64(3) is written, not ${type}`);
    return (out, value) => out.int64(integer(value, -(2 ** 53), 2 ** 53));
  }
  switch (type) {
    case "String":
      return (out, value) => {
        if (typeof value !== "string") throw new TypeError("expected a string");
        out.string(value);
      };
    case "UUID":
      return (out, value) => out.uuid(value);
    case "Date":
      return (out, value) => out.uint16(dateDays(value));
    case "UInt8":
      return (out, value) => out.byte(integer(value, 0, 0xff));
    case "UInt16":
      return (out, value) => out.uint16(integer(value, 0, 0xffff));
    case "UInt32":
      return (out, value) => out.uint32(integer(value, 0, 0xffff_ffff));
    case "UInt64":
      return (out, value) => out.int64(integer(value, 0, Number.MAX_SAFE_INTEGER));
    case "Int64":
      return (out, value) => out.int64(integer(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
    case "Float64":
      return (out, value) => {
        if (typeof value !== "number" || !Number.isFinite(value))
          throw new TypeError("expected a finite number");
        // -0 + 0 is 0: the text form writes both zeros as `0`.
        out.float64(value + 0);
      };
    default:
      throw new Error(`no RowBinary writer for type ${type}`);
  }
}

/** `LowCardinality(String), String` → its two top-level parts. */
function splitTopLevel(text: string): string[] {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "(") depth += 1;
    else if (char === ")") depth -= 1;
    else if (char === "," && depth === 0) return [text.slice(0, i).trim(), text.slice(i + 1).trim()];
  }
  return [text];
}

function integer(value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`expected an integer in ${min}..${max}`);
  }
  return value;
}

/** The last `YYYY-MM-DD` read: a batch's rows share their arrival day. */
let lastDateText = "";
let lastDateDays = 0;

function dateDays(value: unknown): number {
  if (value === lastDateText) return lastDateDays;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    throw new TypeError("expected a YYYY-MM-DD date");
  }
  const ms = Date.parse(`${value}T00:00:00Z`);
  const days = ms / DAY_MS;
  if (
    !Number.isInteger(days) ||
    days < 0 ||
    days > 0xffff ||
    new Date(ms).toISOString().slice(0, 10) !== value
  ) {
    throw new TypeError("expected a date from 1970-01-01 to 2149-06-06");
  }
  lastDateText = value;
  lastDateDays = days;
  return days;
}

/** Hex digit values by character code (-1: not a hex digit). */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX_VALUE[i.toString(16).charCodeAt(0)] = i;
  HEX_VALUE[i.toString(16).toUpperCase().charCodeAt(0)] = i;
}
/** Offsets of the 32 hex digits of `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
const UUID_DIGITS = [
  0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32,
  33, 34, 35,
];

/** A growable buffer written front to back. */
class ByteWriter {
  #buffer = Buffer.allocUnsafe(64 * 1024);
  length = 0;

  #reserve(bytes: number): void {
    const needed = this.length + bytes;
    if (needed <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
    this.#buffer.copy(grown, 0, 0, this.length);
    this.#buffer = grown;
  }

  /** The bytes written, in a buffer of their own size; the writer starts over. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    this.#buffer.copy(out, 0, 0, this.length);
    this.length = 0;
    return out;
  }

  byte(value: number): void {
    this.#reserve(1);
    this.#buffer[this.length++] = value;
  }

  uint16(value: number): void {
    this.#reserve(2);
    this.#buffer.writeUInt16LE(value, this.length);
    this.length += 2;
  }

  uint32(value: number): void {
    this.#reserve(4);
    this.#buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }

  /** A safe integer as a two's-complement 64-bit little-endian value. */
  int64(value: number): void {
    this.#reserve(8);
    const high = Math.floor(value / 0x1_0000_0000);
    this.#buffer.writeUInt32LE(value - high * 0x1_0000_0000, this.length);
    this.#buffer.writeInt32LE(high, this.length + 4);
    this.length += 8;
  }

  float64(value: number): void {
    this.#reserve(8);
    this.#buffer.writeDoubleLE(value, this.length);
    this.length += 8;
  }

  varint(value: number): void {
    this.#reserve(10);
    let rest = value;
    while (rest >= 0x80) {
      this.#buffer[this.length++] = (rest & 0x7f) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.#buffer[this.length++] = rest;
  }

  /**
   * UTF-8 with its byte length first. Short ASCII strings (most labels) are copied by hand: a
   * call into Buffer#write costs more than the copy. Lone surrogates become U+FFFD either way.
   */
  string(value: string): void {
    const chars = value.length;
    if (chars < 43) {
      // At most 126 bytes: the length fits one varint byte, written once the bytes are.
      this.#reserve(1 + chars * 3);
      const buffer = this.#buffer;
      const start = this.length + 1;
      let at = start;
      let i = 0;
      for (; i < chars; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        buffer[at++] = code;
      }
      if (i < chars) at = start + buffer.write(value, start, "utf8");
      buffer[this.length] = at - start;
      this.length = at;
      return;
    }
    const bytes = Buffer.byteLength(value, "utf8");
    this.varint(bytes);
    this.#reserve(bytes);
    this.length += this.#buffer.write(value, this.length, bytes, "utf8");
  }

  /** ClickHouse's UUID: its two 64-bit halves, each little-endian. */
  uuid(value: unknown): void {
    if (typeof value !== "string" || value.length !== 36) throw new TypeError("expected a UUID");
    this.#reserve(16);
    const buffer = this.#buffer;
    for (let byte = 0; byte < 16; byte++) {
      const high = HEX_VALUE[value.charCodeAt(UUID_DIGITS[byte * 2] as number)] ?? -1;
      const low = HEX_VALUE[value.charCodeAt(UUID_DIGITS[byte * 2 + 1] as number)] ?? -1;
      if (high < 0 || low < 0) throw new TypeError("expected a UUID");
      // Bytes 0–7 reversed, then bytes 8–15 reversed.
      buffer[this.length + (byte < 8 ? 7 - byte : 23 - byte)] = (high << 4) | low;
    }
    if (value[8] !== "-" || value[13] !== "-" || value[18] !== "-" || value[23] !== "-") {
      throw new TypeError("expected a UUID");
    }
    this.length += 16;
  }
}
