// The benches' percentile helpers on data whose nearest-rank percentiles are known.
import { describe, expect, it } from "vitest";
import { assertSamples, median, MIN_P95_SAMPLES, percentile } from "./stats.js";

describe("percentile (nearest rank)", () => {
  const oneToHundred = Array.from({ length: 100 }, (_, n) => 100 - n);

  it("is the ⌈p·n⌉-th smallest sample, whatever the input order", () => {
    expect(percentile(oneToHundred, 0.95)).toBe(95);
    expect(percentile(oneToHundred, 0.5)).toBe(50);
    expect(percentile(oneToHundred, 0.99)).toBe(99);
    expect(percentile(oneToHundred, 1)).toBe(100);
  });

  it("with 20 samples the p95 is the 19th, not the slowest (with 15 it would be the slowest)", () => {
    const twenty = Array.from({ length: 20 }, (_, n) => n + 1);
    expect(percentile(twenty, 0.95)).toBe(19);
    expect(percentile([...twenty].reverse(), 0.95)).toBe(19);
    expect(percentile(twenty.slice(0, 15), 0.95)).toBe(15);
  });

  it("with 30 samples the p95 is the 29th and the p50 the 15th", () => {
    const thirty = Array.from({ length: 30 }, (_, n) => (n + 1) * 10);
    expect(percentile(thirty, 0.95)).toBe(290);
    expect(percentile(thirty, 0.5)).toBe(150);
  });

  it("does not mutate its input and refuses nonsense", () => {
    const values = [3, 1, 2];
    expect(percentile(values, 0.5)).toBe(2);
    expect(values).toEqual([3, 1, 2]);
    expect(() => percentile([], 0.95)).toThrow(RangeError);
    expect(() => percentile(values, 0)).toThrow(RangeError);
    expect(() => percentile(values, 1.5)).toThrow(RangeError);
  });
});

describe("median and sample counts", () => {
  it("median averages the middle pair", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });

  it("asks for at least 20 samples before a p95", () => {
    expect(() => assertSamples(15, MIN_P95_SAMPLES, "BENCH_CALLS")).toThrow(/at least 20/);
    expect(() => assertSamples(20.5, MIN_P95_SAMPLES, "BENCH_CALLS")).toThrow(RangeError);
    expect(() => assertSamples(20, MIN_P95_SAMPLES, "BENCH_CALLS")).not.toThrow();
  });
});
