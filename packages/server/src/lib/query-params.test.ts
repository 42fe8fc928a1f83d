// Reading query-string text: comma lists, instants (offsets, dates, impossible dates), status
// codes and classes, and the one 422 naming every problem.
import { describe, expect, it } from "vitest";
import { AppError } from "../errors.js";
import {
  parseInstant,
  QueryProblems,
  readStatusClasses,
  readStatusCodes,
  readTimeRange,
  splitList,
} from "./query-params.js";

describe("splitList", () => {
  it("splits on commas, trims, drops empties and repeats", () => {
    expect(splitList(" a, b,,a ,c ,")).toEqual(["a", "b", "c"]);
    expect(splitList(undefined)).toEqual([]);
    expect(splitList(" , ")).toEqual([]);
  });
});

describe("parseInstant", () => {
  it("reads date-times with and without offsets, fractions cut to milliseconds", () => {
    expect(parseInstant("2026-03-30T12:00:00Z", "start")).toBe(Date.UTC(2026, 2, 30, 12));
    expect(parseInstant("2026-03-30T12:00:00", "start")).toBe(Date.UTC(2026, 2, 30, 12));
    expect(parseInstant("2026-03-30 12:00", "start")).toBe(Date.UTC(2026, 2, 30, 12));
    expect(parseInstant("2026-03-30T14:30:00+02:30", "start")).toBe(Date.UTC(2026, 2, 30, 12));
    expect(parseInstant("2026-03-30T12:00:00.123456789Z", "start")).toBe(
      Date.UTC(2026, 2, 30, 12, 0, 0, 123),
    );
  });

  it("reads a date as the first or the last millisecond of that UTC day", () => {
    expect(parseInstant("2026-03-30", "start")).toBe(Date.UTC(2026, 2, 30));
    expect(parseInstant("2026-03-30", "end")).toBe(Date.UTC(2026, 2, 31) - 1);
  });

  it("refuses free text, impossible dates and out-of-range fields", () => {
    for (const text of [
      "yesterday",
      "2026-02-30",
      "2026-13-01T00:00Z",
      "2026-03-30T24:00:00Z",
      "1e12",
      "",
      "2026-03-30T12:00:00+25:00",
    ]) {
      expect(parseInstant(text, "start"), text).toBeNull();
    }
  });
});

describe("readers with problems", () => {
  it("collects every problem into one validation_error with pointers", () => {
    const problems = new QueryProblems();
    expect(readStatusCodes(problems, "status_codes", "200, 404,abc,99,600")).toEqual([200, 404]);
    expect(readStatusClasses(problems, "status_classes", "2xx,5XX,6xx")).toEqual([2, 5]);
    readTimeRange(problems, { since: "2026-03-30T12:00:00Z", until: "2026-03-30T11:00:00Z" });
    let thrown: unknown;
    try {
      problems.assertNone();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const appError = thrown as AppError;
    expect(appError.code).toBe("validation_error");
    expect(appError.options.errors?.map((error) => error.pointer)).toEqual([
      "#/query/status_codes",
      "#/query/status_codes",
      "#/query/status_codes",
      "#/query/status_classes",
      "#/query/since",
    ]);
    expect(appError.detail).toMatch(/\(and 2 more\)\.$/);
  });

  it("throws nothing when every value is fine", () => {
    const problems = new QueryProblems();
    expect(readTimeRange(problems, { since: "2026-03-30", until: "2026-03-30" })).toEqual({
      since: Date.UTC(2026, 2, 30),
      until: Date.UTC(2026, 2, 31) - 1,
    });
    expect(() => problems.assertNone()).not.toThrow();
  });
});
