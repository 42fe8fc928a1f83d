// Chart data shaping: stacks skip hidden layers, summaries name totals and peaks.
import { describe, expect, it } from "vitest";
import { bucketTimes, chartSummary, shiftedValues, stackValues } from "./chart-data";

const series = [
  { key: "ok", label: "2xx", color: "--success", values: [5, 0, 3] },
  { key: "c", label: "4xx", color: "--warning", values: [1, 2, 0] },
  { key: "s", label: "5xx", color: "--danger", values: [0, 4, 1] },
];

describe("stackValues", () => {
  it("adds each layer to the ones below it", () => {
    expect(stackValues(series, new Set())).toEqual([
      [5, 0, 3],
      [6, 2, 3],
      [6, 6, 4],
    ]);
  });

  it("leaves an overlay (the previous period) out of the stack, as it is", () => {
    const previous = {
      key: "previous",
      label: "Previous",
      color: "--text-muted",
      overlay: true,
      values: [9, 9, 9],
    };
    expect(stackValues([...series, previous], new Set())).toEqual([
      [5, 0, 3],
      [6, 2, 3],
      [6, 6, 4],
      [9, 9, 9],
    ]);
  });

  it("counts a hidden layer as zero", () => {
    expect(stackValues(series, new Set(["c"]))).toEqual([
      [5, 0, 3],
      [5, 0, 3],
      [5, 4, 4],
    ]);
  });
});

describe("chartSummary", () => {
  const times = bucketTimes([
    "2026-11-21T10:00:00.000Z",
    "2026-11-21T10:05:00.000Z",
    "2026-11-21T10:10:00.000Z",
  ]);
  const fmtTime = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  it("names totals and peaks for a stack", () => {
    expect(chartSummary("Requests", times, series, "stacked", String, fmtTime)).toBe(
      "Requests, 3 buckets from 10:00 to 10:10. 2xx, 8 in all, peak 5 at 10:00; 4xx, 3 in all, peak 2 at 10:05; 5xx, 5 in all, peak 4 at 10:05.",
    );
  });
  it("says when there is nothing", () => {
    expect(chartSummary("Latency", [], series, "lines", String, fmtTime)).toBe(
      "Latency: no data in this range.",
    );
  });
});

describe("shiftedValues", () => {
  const hour = 3_600_000;
  it("lays each earlier bucket onto the current bucket one period later, 0 where there is none", () => {
    const current = ["2026-11-21T10:00:00.000Z", "2026-11-21T11:00:00.000Z", "2026-11-21T12:00:00.000Z"];
    const earlier = ["2026-11-21T07:00:00.000Z", "2026-11-21T08:00:00.000Z"];
    expect(shiftedValues(current, earlier, [4, 7], 3 * hour)).toEqual([4, 7, 0]);
  });

  it("matches by time, not position, when the earlier period starts a bucket late", () => {
    const current = ["2026-11-21T10:00:00.000Z", "2026-11-21T11:00:00.000Z"];
    const earlier = ["2026-11-21T09:00:00.000Z"];
    expect(shiftedValues(current, earlier, [5], 2 * hour)).toEqual([0, 5]);
  });
});
