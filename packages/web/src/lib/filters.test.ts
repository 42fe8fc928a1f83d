// URL state of the traffic pages: malformed values dropped, windows from presets and custom
// spans, wall-clock times in a zone turned into instants and back (across a DST change).
import { describe, expect, it } from "vitest";
import {
  intervalMs,
  isoToZonedInput,
  previousWindow,
  timeWindow,
  validateTrafficSearch,
  zonedInputToIso,
} from "./filters";

describe("validateTrafficSearch", () => {
  it("keeps valid filters and normalises lists", () => {
    expect(
      validateTrafficSearch({
        range: "7d",
        app: "checkout",
        method: "get,post",
        status: "4xx,5xx",
        codes: "404,500",
        page: "3",
        live: "true",
        trace: "4BF92F3577B34DA6A3CE929D0E0E4736",
      }),
    ).toEqual({
      range: "7d",
      app: "checkout",
      method: "GET,POST",
      status: "4xx,5xx",
      codes: "404,500",
      page: 3,
      live: true,
      trace: "4bf92f3577b34da6a3ce929d0e0e4736",
    });
  });

  it("drops what is malformed", () => {
    expect(
      validateTrafficSearch({
        range: "2h",
        method: "GET,BREW",
        status: "6xx",
        codes: "99",
        page: "0",
        trace: "xyz",
        refresh: "5",
        dir: "up",
        min_ms: "-1",
      }),
    ).toEqual({});
  });

  it("prefers a valid custom span over a preset, and ignores a reversed one", () => {
    const since = "2026-11-21T10:00:00.000Z";
    const until = "2026-11-21T11:00:00.000Z";
    expect(validateTrafficSearch({ range: "24h", since, until })).toEqual({ since, until });
    expect(validateTrafficSearch({ range: "24h", since: until, until: since })).toEqual({ range: "24h" });
  });
});

describe("time windows", () => {
  const now = Date.parse("2026-11-21T10:00:30.000Z");
  it("ends a preset at the next whole minute", () => {
    expect(timeWindow({ range: "1h" }, now)).toEqual({
      since: "2026-11-21T09:01:00.000Z",
      until: "2026-11-21T10:01:00.000Z",
      ms: 3_600_000,
      preset: "1h",
    });
    expect(timeWindow({}, now).preset).toBe("24h");
  });

  it("gives the previous period of the same length", () => {
    expect(previousWindow(timeWindow({ range: "1h" }, now))).toEqual({
      since: "2026-11-21T08:01:00.000Z",
      until: "2026-11-21T09:01:00.000Z",
    });
  });

  it("reads bucket widths", () => {
    expect([intervalMs("1m"), intervalMs("15m"), intervalMs("6h"), intervalMs("1d")]).toEqual([
      60_000, 900_000, 21_600_000, 86_400_000,
    ]);
  });
});

describe("zoned wall-clock times", () => {
  it("reads a custom range in the profile's zone", () => {
    expect(zonedInputToIso("2026-11-21T14:30", "Europe/Paris")).toBe("2026-11-21T13:30:00.000Z");
    expect(zonedInputToIso("2026-07-01T14:30", "Europe/Paris")).toBe("2026-07-01T12:30:00.000Z");
    expect(zonedInputToIso("2026-11-21T14:30", "America/New_York")).toBe("2026-11-21T19:30:00.000Z");
    expect(zonedInputToIso("not a time", "UTC")).toBeUndefined();
  });

  it("shows an instant as the zone's wall clock", () => {
    expect(isoToZonedInput("2026-11-21T13:30:00.000Z", "Europe/Paris")).toBe("2026-11-21T14:30");
    expect(isoToZonedInput("2026-03-29T01:30:00.000Z", "Europe/Paris")).toBe("2026-03-29T03:30");
  });
});
