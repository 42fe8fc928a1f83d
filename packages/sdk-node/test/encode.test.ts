// The record encoder's cached timestamp formatting gives exactly Date#toISOString, across
// second, minute, day and year boundaries and in any order of calls.
import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../src/transport/encode.js";

describe("isoTimestamp", () => {
  it("formats like toISOString, whatever second was formatted before", () => {
    const instants = [
      Date.UTC(2026, 10, 26, 4, 40, 7, 123),
      Date.UTC(2026, 10, 26, 4, 40, 7, 5),
      Date.UTC(2026, 10, 26, 4, 40, 7, 45),
      Date.UTC(2026, 10, 26, 4, 40, 7, 999),
      Date.UTC(2026, 10, 26, 4, 40, 8, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 0),
      Date.UTC(2026, 10, 26, 4, 40, 7, 124),
      0,
      Date.now(),
    ];
    for (const ms of [...instants, ...instants.reverse()]) {
      expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
