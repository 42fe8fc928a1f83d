// chDB reads carry their values as literals (stores/events/literals.ts): each value must come
// back exactly as bound, typed as its placeholder says, whatever its text; and a value can never
// become SQL.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EventsExecutor, EventsStoreError, openEventsExecutor } from "../../src/stores/events/index.js";
import { inlineParams } from "../../src/stores/events/literals.js";
import { removeTestChdbPath, testChdbPath, uniqueDatabaseName } from "../support/events.js";

afterAll(removeTestChdbPath);

describe("query values as literals", () => {
  let events: EventsExecutor;

  beforeEach(async () => {
    events = await openEventsExecutor({ chdbPath: testChdbPath(), database: uniqueDatabaseName("lit") });
  });
  afterEach(async () => {
    await events.close();
  });

  it("returns every value as bound, hostile strings included", async () => {
    const hostile = "x') OR 1=1 -- \\' \" \n\t\0 {p:String} é 😀";
    const rows = await events.query<Record<string, unknown>>(
      "SELECT {s:String} AS s, {n:UInt32} AS n, {f:Float64} AS f, {neg:Int64} AS neg, " +
        "{t:DateTime64(3, 'UTC')} AS t, {u:UUID} AS u, {codes:Array(UInt16)} AS codes, " +
        "{names:Array(String)} AS names, {none:Array(String)} AS none, {yes:Bool} AS yes",
      {
        s: hostile,
        n: 4_000_000_000,
        f: 0.1,
        neg: -42,
        t: new Date("2026-11-23T06:00:00.123Z"),
        u: "0190a0b0-0000-7000-8000-000000000001",
        codes: [200, 503],
        names: ["a'b", "c\\d"],
        none: [],
        yes: true,
      },
    );
    expect(rows).toEqual([
      {
        s: hostile,
        n: 4_000_000_000,
        f: 0.1,
        neg: -42,
        t: "2026-11-23T06:00:00.123Z",
        u: "0190a0b0-0000-7000-8000-000000000001",
        codes: [200, 503],
        names: ["a'b", "c\\d"],
        none: [],
        yes: true,
      },
    ]);
  });

  it("compares a bound time with the sort key like a bound parameter", async () => {
    const [row] = await events.query<{ after: number }>(
      "SELECT toDateTime64('2026-11-23 06:00:00.124', 3, 'UTC') > {t:DateTime64(3, 'UTC')} AS after",
      { t: new Date("2026-11-23T06:00:00.123Z") },
    );
    expect(row?.after).toBe(1);
  });

  it("refuses a placeholder without a value and values it cannot write", () => {
    expect(() => inlineParams("SELECT {a:String}", {})).toThrow(EventsStoreError);
    expect(() => inlineParams("SELECT {a:Float64}", { a: Number.NaN })).toThrow(EventsStoreError);
    expect(() => inlineParams("SELECT {a:String}", { a: { nested: 1 } })).toThrow(EventsStoreError);
    expect(inlineParams("SELECT '{}', {a:String}", { a: "'" })).toBe(
      "SELECT '{}', _CAST(unhex('27'), 'String')",
    );
  });
});
