// The anomaly model on hand-built histories: the baseline is the median of the past weeks
// scaled to the recent level, each week read around the time rather than at one window, incidents
// in the level windows are not taken as level, a level that moved in the last minutes widens the
// band, warm-up and low volume never fire, the direction is honoured, and the band is what decides.
import { describe, expect, it } from "vitest";
import {
  ANOMALY_MODEL,
  type AnomalyHistory,
  type AnomalyParams,
  type BucketStats,
  evaluateAnomaly,
  historyAt,
  type WeekBuckets,
} from "./anomaly-model.js";

const LEVEL = 24;
const bucket = (requests: number, errors = 0, p95: number | null = null): BucketStats => ({
  requests,
  errors,
  p95: requests === 0 ? null : p95,
});
/** A week whose evaluated window and level windows all look like `level`, the window like `current`. */
const week = (current: BucketStats, level: BucketStats = current): WeekBuckets => ({
  current,
  recent: Array.from({ length: LEVEL }, () => level),
});
const history = (now: WeekBuckets, weeks: readonly WeekBuckets[]): AnomalyHistory => ({ now, weeks });
const counts: AnomalyParams = {
  metric: "request_count",
  sensitivity: "medium",
  direction: "both",
  minRequests: 20,
};
const steadyWeeks = (value: number) => [100, 110, 90, 120].map((v) => week(bucket((v * value) / 100)));

describe("anomaly model", () => {
  it("takes the median of the past weeks at the same time as the expected value", () => {
    const verdict = evaluateAnomaly(history(week(bucket(104), bucket(100)), steadyWeeks(100)), counts);
    // Level ratios (count + 1): 101/101, 101/111, 101/91, 101/121 — each within ×/÷1.25, so each
    // week is brought to this week's level: 100, 100.09, 99.89, 100.17; the median is 100.045.
    expect(verdict.expected).toBeCloseTo((100 + (110 * 101) / 111) / 2, 9);
    expect(verdict).toMatchObject({ status: "normal", breach: false, weeksUsed: 4, value: 104 });
    expect(verdict.lower).toBeLessThan(100);
    expect(verdict.upper).toBeGreaterThan(104);
  });

  it("scales the weeks to the recent level, and ignores level windows that are incidents", () => {
    const weeks = [week(bucket(100)), week(bucket(100)), week(bucket(100)), week(bucket(100))];
    const grown = evaluateAnomaly(history(week(bucket(120), bucket(120)), weeks), counts);
    expect(grown.expected).toBeCloseTo((100 * 121) / 101, 9);
    expect(grown.status).toBe("normal");
    // Three times the traffic over the last two hours is an incident, not a level: no scaling.
    const incident = evaluateAnomaly(history(week(bucket(300), bucket(300)), weeks), counts);
    expect(incident.expected).toBe(100);
    expect(incident).toMatchObject({ status: "above", breach: true });
  });

  it("fires on a spike and on a drop of traffic, with the band as the boundary", () => {
    const weeks = steadyWeeks(1000);
    const spike = evaluateAnomaly(history(week(bucket(3000), bucket(1000)), weeks), counts);
    expect(spike).toMatchObject({ status: "above", breach: true });
    expect(spike.score).toBeGreaterThan(ANOMALY_MODEL.bandWidth.medium);
    const drop = evaluateAnomaly(history(week(bucket(100), bucket(1000)), weeks), counts);
    expect(drop).toMatchObject({ status: "below", breach: true });
    const edge = evaluateAnomaly(history(week(bucket(1000), bucket(1000)), weeks), counts);
    const justInside = evaluateAnomaly(
      history(week(bucket(Math.floor(edge.upper as number)), bucket(1000)), weeks),
      counts,
    );
    const justOutside = evaluateAnomaly(
      history(week(bucket(Math.ceil((edge.upper as number) + 1)), bucket(1000)), weeks),
      counts,
    );
    expect(justInside.breach).toBe(false);
    expect(justOutside.breach).toBe(true);
  });

  it("never fires on changes smaller than the minimum change, however many requests", () => {
    const weeks = steadyWeeks(1_000_000);
    const verdict = evaluateAnomaly(history(week(bucket(1_400_000), bucket(1_000_000)), weeks), counts);
    expect(verdict.upper).toBeGreaterThanOrEqual(1_000_000 * (1 + ANOMALY_MODEL.minRelativeChange));
    expect(verdict.breach).toBe(false);
    // The same factor down: ÷1.5 is as large a change as ×1.5, so 70 % of the traffic is inside.
    const lower = evaluateAnomaly(history(week(bucket(700_000), bucket(1_000_000)), weeks), counts);
    expect(lower.lower).toBeLessThanOrEqual(
      (lower.expected as number) / (1 + ANOMALY_MODEL.minRelativeChange),
    );
    expect(lower.breach).toBe(false);
  });

  it("fires on traffic falling to 60 % at high volume (the minimum change is a factor both ways)", () => {
    const weeks = steadyWeeks(100_000);
    const verdict = evaluateAnomaly(history(week(bucket(60_000), bucket(100_000)), weeks), counts);
    expect(verdict.lower).toBeGreaterThan(60_000);
    expect(verdict).toMatchObject({ status: "below", breach: true });
  });

  it("takes a week running 30 % above a month ago as its level, not as an incident", () => {
    const weeks = [1, 2, 3, 4].map(() => week(bucket(1000)));
    const busier = evaluateAnomaly(history(week(bucket(1300), bucket(1300)), weeks), counts);
    expect(busier.expected).toBeCloseTo((1000 * 1301) / 1001, 9);
    expect(busier).toMatchObject({ status: "normal", breach: false });
  });

  it("is not blinded by a past week's incident: that week's deviations alone are large", () => {
    const calm = [1000, 1040, 960, 1020].map((v, k) => ({
      current: bucket(v),
      recent: Array.from({ length: LEVEL }, (_, j) => bucket(v + ((j + k) % 3) * 20)),
    }));
    // Four weeks ago the whole stretch ran at five times the traffic (a long incident then).
    const spoiled = calm.map((w, k) =>
      k === 3 ? { current: bucket(5000), recent: w.recent.map((b) => bucket(b.requests * 5)) } : w,
    );
    const clean = evaluateAnomaly(history(week(bucket(1000), bucket(1000)), calm), counts);
    const withIncident = evaluateAnomaly(history(week(bucket(1000), bucket(1000)), spoiled), counts);
    expect(withIncident.upper as number).toBeLessThan(1.25 * (clean.upper as number));
    // And a real incident now still fires.
    const now = evaluateAnomaly(history(week(bucket(2500), bucket(1000)), spoiled), counts);
    expect(now).toMatchObject({ status: "above", breach: true });
  });

  it("honours the direction: a latency drop does not fire an `up` rule", () => {
    const latency: AnomalyParams = { ...counts, metric: "p95_latency_ms", direction: "up" };
    const weeks = [1, 2, 3, 4].map(() => week(bucket(500, 0, 200)));
    const faster = evaluateAnomaly(history(week(bucket(500, 0, 20), bucket(500, 0, 200)), weeks), latency);
    expect(faster).toMatchObject({ status: "below", breach: false });
    const slower = evaluateAnomaly(history(week(bucket(500, 0, 2000), bucket(500, 0, 200)), weeks), latency);
    expect(slower).toMatchObject({ status: "above", breach: true });
    expect(slower.expected).toBe(200);
  });

  it("judges error rates as a share of the window's requests", () => {
    const errors: AnomalyParams = { ...counts, metric: "error_rate", direction: "up" };
    const weeks = [1, 2, 3, 4].map(() => week(bucket(400, 4)));
    const calm = evaluateAnomaly(history(week(bucket(400, 5), bucket(400, 4)), weeks), errors);
    expect(calm).toMatchObject({ status: "normal", value: 1.25, expected: 1 });
    const failing = evaluateAnomaly(history(week(bucket(400, 80), bucket(400, 4)), weeks), errors);
    expect(failing).toMatchObject({ status: "above", breach: true, value: 20 });
  });

  it("warms up: without two weeks of traffic there is no band and no alert", () => {
    const empty = week(bucket(0));
    const verdict = evaluateAnomaly(
      history(week(bucket(5000), bucket(100)), [week(bucket(100)), empty, empty, empty]),
      counts,
    );
    expect(verdict).toMatchObject({
      status: "warming_up",
      breach: false,
      expected: null,
      lower: null,
      upper: null,
      weeksUsed: 1,
    });
    const twoWeeks = evaluateAnomaly(
      history(week(bucket(5000), bucket(100)), [week(bucket(100)), week(bucket(100)), empty, empty]),
      counts,
    );
    expect(twoWeeks).toMatchObject({ status: "above", breach: true, weeksUsed: 2 });
  });

  it("does not fire on low volume: too few requests for a rate, or a tiny expected count", () => {
    const errors: AnomalyParams = { ...counts, metric: "error_rate", direction: "up" };
    const weeks = [1, 2, 3, 4].map(() => week(bucket(10, 0)));
    const few = evaluateAnomaly(history(week(bucket(10, 10), bucket(10, 0)), weeks), errors);
    expect(few).toMatchObject({ status: "low_volume", breach: false, value: 100 });
    const none = evaluateAnomaly(history(week(bucket(0), bucket(10)), weeks), errors);
    expect(none).toMatchObject({ status: "low_volume", breach: false, value: null });
    // 2 requests expected, 15 seen: unusual, but below min_requests either way.
    const quiet = evaluateAnomaly(history(week(bucket(15), bucket(2)), steadyWeeks(2)), counts);
    expect(quiet).toMatchObject({ status: "low_volume", breach: false });
  });

  it("widens the band with the disagreement between past weeks", () => {
    const calm = evaluateAnomaly(history(week(bucket(1000), bucket(1000)), steadyWeeks(1000)), {
      ...counts,
      sensitivity: "high",
    });
    const noisyWeeks = [600, 1400, 700, 1300].map((v, k) => ({
      current: bucket(v),
      recent: Array.from({ length: LEVEL }, (_, j) => bucket((j + k) % 2 === 0 ? 600 : 1400)),
    }));
    const noisy = evaluateAnomaly(history(week(bucket(1000), bucket(1000)), noisyWeeks), {
      ...counts,
      sensitivity: "high",
    });
    expect((noisy.upper as number) - (noisy.lower as number)).toBeGreaterThan(
      (calm.upper as number) - (calm.lower as number),
    );
  });

  it("reads each past week around the time: one window low by chance does not move the baseline", () => {
    // Every window 1000, except the past weeks' windows at this very time, low by chance.
    const weeks = [800, 820, 790, 1000].map((v) => ({
      ...week(bucket(v), bucket(1000)),
      after: [bucket(1000)],
    }));
    const verdict = evaluateAnomaly(history(week(bucket(1250), bucket(1000)), weeks), counts);
    // With one window a week the expected value would be 810, and 1250 more than ×1.5 of it.
    expect(verdict.expected).toBe(1000);
    expect(verdict).toMatchObject({ status: "normal", breach: false });
    const spike = evaluateAnomaly(history(week(bucket(2000), bucket(1000)), weeks), counts);
    expect(spike).toMatchObject({ status: "above", breach: true });
    // A step of the week (Sunday to Monday at midnight) stays on its side: the median, not the mean.
    const sunday = [1, 2, 3, 4].map(() => ({ ...week(bucket(400)), after: [bucket(1000)] }));
    expect(evaluateAnomaly(history(week(bucket(400)), sunday), counts).expected).toBe(400);
  });

  it("widens the band when the past weeks moved apart in the last minutes (a new day's level)", () => {
    // Two hours alike at 200 a window; in the last quarter hour each past week moved to its own
    // new level (a new day), and so did this week, by more than the past weeks' median.
    const moved = (factor: number): WeekBuckets => ({
      current: bucket(200 * factor),
      recent: Array.from({ length: LEVEL }, (_, j) => bucket(j < 3 ? 200 * factor : 200)),
      after: [bucket(200 * factor)],
    });
    const weeks = [1.1, 0.8, 0.85, 0.95].map(moved);
    const now = (value: number) => ({
      current: bucket(value),
      recent: Array.from({ length: LEVEL }, (_, j) => bucket(j < 3 ? 300 : 200)),
    });
    const verdict = evaluateAnomaly(history(now(300), weeks), counts);
    // Expected 180 (the median of 220, 160, 170, 190: the two hours' ratio is 1); the band read
    // over all slots alone (every older one agrees) would end at 277, and 300 would fire.
    expect(verdict.expected).toBe(180);
    expect(verdict.upper as number).toBeGreaterThan(350);
    expect(verdict).toMatchObject({ status: "normal", breach: false });
    // An incident now is still well outside.
    expect(evaluateAnomaly(history(now(600), weeks), counts)).toMatchObject({
      status: "above",
      breach: true,
    });
  });

  it("gives past weeks the windows after the evaluated one, and this week none", () => {
    const buckets = { at: (w: number, b: number) => bucket(1000 * w + 100 + b) };
    const read = historyAt(buckets, 300, 2);
    expect(read.now.current.requests).toBe(102);
    expect(read.now.after ?? []).toHaveLength(0);
    expect(read.weeks[0]?.current.requests).toBe(1102);
    expect(read.weeks[0]?.recent[0]?.requests).toBe(1103);
    expect(read.weeks[3]?.after?.map((b) => b.requests)).toEqual([4101]);
  });

  it("draws a wider band at lower sensitivity", () => {
    const widths = (["high", "medium", "low"] as const).map((sensitivity) => {
      const verdict = evaluateAnomaly(history(week(bucket(50), bucket(50)), steadyWeeks(50)), {
        ...counts,
        sensitivity,
      });
      return (verdict.upper as number) - (verdict.lower as number);
    });
    expect(widths[0]).toBeLessThan(widths[1] as number);
    expect(widths[1]).toBeLessThan(widths[2] as number);
  });
});
