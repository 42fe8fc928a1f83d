// Time windows as the CLI reads them: durations back from now, ISO values passed as typed.
import { describe, expect, it } from "vitest";
import { CliError } from "./exit-codes.js";
import { instantOf, timeWindowOf } from "./time-window.js";

const NOW = Date.parse("2026-03-30T12:00:00.000Z");

describe("time windows", () => {
  it("turns the dashboard's presets and other durations into instants before now", () => {
    expect(instantOf("1h", "--since", NOW)).toBe("2026-03-30T11:00:00.000Z");
    expect(instantOf("7d", "--since", NOW)).toBe("2026-03-23T12:00:00.000Z");
    expect(instantOf("90s", "--since", NOW)).toBe("2026-03-30T11:58:30.000Z");
    expect(instantOf("2w", "--since", NOW)).toBe("2026-03-16T12:00:00.000Z");
  });

  it("passes ISO date-times and dates through unchanged, so the API keeps their meaning", () => {
    expect(instantOf("2026-03-01", "--since", NOW)).toBe("2026-03-01");
    expect(instantOf("2026-03-01T06:00:00+02:00", "--since", NOW)).toBe("2026-03-01T06:00:00+02:00");
  });

  it("refuses anything else as a usage error naming the option", () => {
    for (const bad of ["yesterday", "1y", "-1h", "2026-13-45", ""]) {
      expect(() => instantOf(bad, "--until", NOW)).toThrow(CliError);
    }
    expect(() => instantOf("soon", "--until", NOW)).toThrow(/--until "soon"/);
  });

  it("treats --from/--to as --since/--until and refuses both of a pair", () => {
    expect(timeWindowOf({ from: "1h", to: "30m" }, NOW)).toEqual({
      since: "2026-03-30T11:00:00.000Z",
      until: "2026-03-30T11:30:00.000Z",
    });
    expect(timeWindowOf({}, NOW)).toEqual({});
    expect(() => timeWindowOf({ since: "1h", from: "2h" }, NOW)).toThrow(/--since or --from/);
  });
});
