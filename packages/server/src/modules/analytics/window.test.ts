// The analytics window and timeseries bucketing: defaults, the automatic interval's 50–300 band,
// the bucket cap, and zone validation.
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors.js";
import { QueryProblems } from "../../lib/query-params.js";
import { createTimeZoneCatalogue, type TimeZones } from "../../lib/time-zones.js";
import { chooseInterval, readBucketing, readWindow } from "./window.js";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 2, 30, 12);

describe("readWindow", () => {
  it("defaults until to now and since to 24 hours before until", () => {
    const problems = new QueryProblems();
    expect(readWindow(problems, {}, NOW)).toEqual({ since: NOW - 24 * HOUR, until: NOW });
    expect(readWindow(problems, { until: "2026-03-01T00:00:00Z" }, NOW)).toEqual({
      since: Date.UTC(2026, 1, 28),
      until: Date.UTC(2026, 2, 1),
    });
    expect(() => problems.assertNone()).not.toThrow();
  });

  it("refuses a since in the future when until defaults to now", () => {
    const problems = new QueryProblems();
    readWindow(problems, { since: "2026-03-31" }, NOW);
    expect(() => problems.assertNone()).toThrow(AppError);
  });
});

describe("chooseInterval", () => {
  it("gives between 50 and 300 buckets from one minute's range up to 300 days", () => {
    const widths = {
      "1m": 60_000,
      "5m": 300_000,
      "15m": 900_000,
      "1h": HOUR,
      "6h": 6 * HOUR,
      "1d": 24 * HOUR,
    };
    for (let span = 50 * 60_000; span <= 300 * 24 * HOUR; span = Math.ceil(span * 1.07)) {
      const buckets = span / widths[chooseInterval(span)];
      expect(buckets >= 50 && buckets < 301, `${span} ms -> ${buckets}`).toBe(true);
    }
    expect(chooseInterval(10 * 60_000)).toBe("1m");
    expect(chooseInterval(400 * 24 * HOUR)).toBe("1d");
  });
});

describe("readBucketing", () => {
  const window = { since: NOW - 7 * 24 * HOUR, until: NOW };
  // What an engine's system.time_zones might list: not SystemV/AST4, which Intl accepts.
  let zones: TimeZones;
  beforeAll(async () => {
    zones = await createTimeZoneCatalogue(async () => ["UTC", "Europe/Paris", "America/New_York"]).load();
  });

  it("takes a valid zone in its canonical spelling, else the profile's", () => {
    const problems = new QueryProblems();
    expect(readBucketing(problems, { timezone: "europe/paris" }, window, "UTC", zones)).toEqual({
      interval: "1h",
      timezone: "Europe/Paris",
    });
    expect(readBucketing(problems, {}, window, "America/New_York", zones).timezone).toBe("America/New_York");
    expect(() => problems.assertNone()).not.toThrow();
  });

  it("refuses unknown zones and more than 2000 buckets", () => {
    const problems = new QueryProblems();
    readBucketing(problems, { timezone: "Nowhere/Land", interval: "1m" }, window, "UTC", zones);
    try {
      problems.assertNone();
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).options.errors?.map((e) => e.pointer)).toEqual([
        "#/query/interval",
        "#/query/timezone",
      ]);
    }
  });

  it("refuses a zone Intl knows but the engine does not, and falls back to UTC for such a profile", () => {
    expect(new Intl.DateTimeFormat("en-US", { timeZone: "SystemV/AST4" }).resolvedOptions().timeZone).toBe(
      "SystemV/AST4",
    );
    const problems = new QueryProblems();
    readBucketing(problems, { timezone: "SystemV/AST4" }, window, "UTC", zones);
    expect(() => problems.assertNone()).toThrow(AppError);
    expect(readBucketing(new QueryProblems(), {}, window, "SystemV/AST4", zones).timezone).toBe("UTC");
  });
});
