// The RowBinary insert body against the JSONCompactEachRow one, on every backend: rows holding
// every column type of the ingest tables and the values that break encoders (unicode, control
// characters, quotes, backslashes, long strings, empty values, extreme numbers, timestamps at ms
// precision) are inserted through both encodings and must be stored byte for byte the same.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  API_LOGS,
  API_REQUESTS,
  API_SPANS,
  type EventsExecutor,
  type EventsTable,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { bareType, createRowEncoder, type InsertFormat } from "../../src/stores/events/row-encoding.js";
import { eventsBackends, removeTestChdbPath, uniqueDatabaseName } from "../support/events.js";

const LONG = "long ünïcödé text \u{1F680} ".repeat(6_000);
const STRINGS = [
  "",
  "plain",
  "日本語 🎉 üñí",
  "\u0000\u0001\u0007\t\n\r\u001b\u001f\u007f\u0080\u009f",
  `quotes " ' \` and backslashes \\ \\n \\\\ \\u0000`,
  "a".repeat(42),
  "b".repeat(43),
  `${"c".repeat(41)}é`,
  `${"d".repeat(127)}`,
  `${"e".repeat(128)}`,
  LONG,
  "tab\tseparated\tand\nnew\nlines",
  "\u2028\u2029 line separators, <script>&amp;",
  "repaired surrogates \ufffd",
];
const NOW = Date.UTC(2026, 10, 26, 8, 0, 0, 0);
const TIMES = [
  NOW,
  NOW + 1,
  NOW + 999,
  NOW - 86_400_000 + 123,
  Date.UTC(2026, 10, 26, 23, 59, 59, 999),
  Date.UTC(2024, 1, 29, 12, 0, 0, 7),
  Date.UTC(1970, 0, 1, 0, 0, 0, 1),
  Date.UTC(2100, 11, 31, 23, 59, 59, 998),
];
const FLOATS = [0, -0, 1, 0.1 + 0.2, 5e-324, 1.7976931348623157e308, 123.456, 1e-7, 2 ** 53, 3_600_000.5];
const UINT64 = [0, 1, 255, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER];
const UINT16 = [0, 1, 200, 404, 599, 65_535];
const ARRAYS = [[], [""], ["one"], STRINGS.slice(0, 10), ["x".repeat(300), "日本"]];
const MAPS: Record<string, string>[] = [
  {},
  { "http.method": "GET" },
  Object.fromEntries(STRINGS.slice(1, 9).map((value, i) => [`key ${i} ${value.slice(0, 20)}`, value])),
  { "": "empty key", ключ: "значение", "\u0000": "\\" },
];
const ROWS = 16;

/** Row `i`'s value of a column of `type`, varied by row and column. */
function valueOf(type: string, i: number, column: number): unknown {
  const pick = <T>(values: readonly T[]): T => values[(i + column) % values.length] as T;
  if (type.startsWith("Array(")) return pick(ARRAYS);
  if (type.startsWith("Map(")) return pick(MAPS);
  if (type.startsWith("DateTime64(")) return TIMES[i % TIMES.length];
  switch (type.replace(/^LowCardinality\((.*)\)$/, "$1")) {
    case "UUID": {
      const id = `0190a1b2-c3d4-7e5f-8a9b-${(0xabcdef000000 + i).toString(16)}`;
      return i % 5 === 3 ? id.toUpperCase() : id;
    }
    case "String":
      return pick(STRINGS);
    case "Date":
      return i % 2 === 0 ? "2026-11-26" : "2026-11-23";
    case "UInt8":
      return i % 2;
    case "UInt16":
      return pick(UINT16);
    case "UInt64":
      return pick(UINT64);
    case "Float64":
      return pick(FLOATS);
    default:
      throw new Error(`no test values for ${type}`);
  }
}

/** Kept long enough that the 1970 row does not expire at once (the TTL drops whole parts). */
const RETENTION_DAYS = 65_535;

function rows(table: EventsTable, project: string): unknown[][] {
  return Array.from({ length: ROWS }, (_, i) =>
    table.columns.map((column, index) =>
      column.name === "project_id"
        ? project
        : column.name === "retention_days"
          ? RETENTION_DAYS
          : valueOf(bareType(column.type), i, index),
    ),
  );
}

function body(table: EventsTable, format: InsertFormat, values: readonly unknown[][]): Buffer {
  const encoder = createRowEncoder(table, format);
  for (const row of values) encoder.add(row);
  expect(encoder.rowCount).toBe(values.length);
  return encoder.finish();
}

/** Every column but project_id as the hex of its text form: equal only when equal byte for byte. */
async function stored(store: EventsExecutor, table: EventsTable, project: string): Promise<unknown[]> {
  const columns = table.columnNames.filter((name) => name !== "project_id");
  return store.query(
    `SELECT ${columns.map((name) => `hex(toString(${name})) AS hex_${name}`).join(", ")},
            toUnixTimestamp64Milli(timestamp) AS ms
     FROM ${store.database}.${table.name} WHERE project_id = {project:String} ORDER BY id`,
    { project },
  );
}

afterAll(removeTestChdbPath);

describe.each(eventsBackends())("RowBinary insert bodies on $name", ({ options }) => {
  let store: EventsExecutor;

  beforeEach(async () => {
    store = await openEventsExecutor({ ...options, database: uniqueDatabaseName("enc") });
    await migrateEvents(store);
  });

  afterEach(async () => {
    await store.command(`DROP DATABASE IF EXISTS ${store.database}`);
    await store.close();
  });

  async function insertBoth(table: EventsTable, edit = (values: unknown[][]) => values): Promise<void> {
    for (const [format, project] of [
      ["JSONCompactEachRow", "p-json"],
      ["RowBinary", "p-binary"],
    ] as const) {
      const values = rows(table, project);
      await store.insert({
        table: table.name,
        columns: table.columnNames,
        body: body(table, format, format === "RowBinary" ? edit(values) : values),
        format,
        rowCount: values.length,
      });
    }
  }

  it.each([API_REQUESTS, API_LOGS, API_SPANS])("stores $name rows as the JSON body does", async (table) => {
    await insertBoth(table);
    const json = await stored(store, table, "p-json");
    const binary = await stored(store, table, "p-binary");
    expect(json).toHaveLength(ROWS);
    expect(binary).toEqual(json);
    // Millisecond times kept exactly (the comparison above holds only if both paths are right).
    const sorted = rows(table, "x").map((row) => row[table.columnNames.indexOf("timestamp")]);
    expect(new Set(binary.map((row) => Number((row as { ms: unknown }).ms)))).toEqual(new Set(sorted));
  });

  // The HTTP layer repairs them before any route sees them (http/well-formed.ts); the JSON body
  // would carry them as `\ud800` escapes, which the engine refuses, failing the whole insert.
  it("stores lone surrogates as U+FFFD, the form the HTTP layer repairs them to", async () => {
    const name = API_SPANS.columnNames.indexOf("name");
    await insertBoth(API_SPANS, (values) =>
      values.map((row) =>
        row.map((value, i) => (i === name ? String(value).replaceAll("\ufffd", "\ud800") : value)),
      ),
    );
    expect(await stored(store, API_SPANS, "p-binary")).toEqual(await stored(store, API_SPANS, "p-json"));
  });
});

describe("the RowBinary encoder", () => {
  it("refuses values of the wrong kind before anything is sent", () => {
    const encoder = createRowEncoder(API_SPANS, "RowBinary");
    const good = rows(API_SPANS, "p")[0] as unknown[];
    encoder.add(good);
    const statusCode = API_SPANS.columnNames.indexOf("status_code");
    expect(() => encoder.add(good.map((value, i) => (i === statusCode ? 70_000 : value)))).toThrow(
      /status_code/,
    );
    expect(() => encoder.add(good.map((value, i) => (i === 0 ? "not-a-uuid" : value)))).toThrow(/id/);
    expect(() => encoder.add(good.slice(1))).toThrow(/values/);
    // The refused rows left nothing behind: the body holds the one good row.
    expect(encoder.rowCount).toBe(1);
    const alone = createRowEncoder(API_SPANS, "RowBinary");
    alone.add(good);
    expect(encoder.finish()).toEqual(alone.finish());
  });
});
