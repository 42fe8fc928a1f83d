// The open-loop generator: a stall is counted as latency (from each batch's due time), not
// hidden by sending later, and every scheduled batch is accounted for.
import { describe, expect, it } from "vitest";
import { describeLatency, MIN_P99_SAMPLES, runOpenLoop, summarise } from "./open-loop.js";

describe("runOpenLoop", () => {
  it("times batches sent late from when they were due", async () => {
    const sentAt: number[] = [];
    const started = performance.now();
    const result = await runOpenLoop({
      batchesPerSecond: 100,
      seconds: 0.3,
      send: async (index) => {
        sentAt.push(performance.now() - started);
        // Batch 0 blocks the generator's thread for 120 ms: batches 1..12 fall due meanwhile.
        if (index === 0) {
          const until = performance.now() + 120;
          while (performance.now() < until);
        }
        return { status: index % 10 === 9 ? 503 : 200, accepted: 100 };
      },
    });
    expect(result.scheduled).toBe(30);
    expect(result.latencies).toHaveLength(30);
    expect(result.ok + result.unavailable).toBe(30);
    expect(result.unavailable).toBe(3);
    expect(result.accepted).toBe(2700);
    expect(result.dropped).toBe(0);
    // Batch 1 was due at 10 ms but could only go after the 120 ms block: its latency says so.
    expect(sentAt[1]).toBeGreaterThanOrEqual(120);
    expect(Math.max(...result.latencies)).toBeGreaterThanOrEqual(100);
    expect(result.worstSendLagMs).toBeGreaterThanOrEqual(100);
  });

  it("counts answers that never came as failed", async () => {
    const result = await runOpenLoop({
      batchesPerSecond: 200,
      seconds: 0.05,
      send: (index) =>
        index === 0 ? Promise.reject(new Error("reset")) : Promise.resolve({ status: 429, accepted: 0 }),
    });
    expect(result.failed).toBe(1);
    expect(result.limited).toBe(result.scheduled - 1);
  });
});

describe("summarise", () => {
  it("gives no p99 below MIN_P99_SAMPLES answers, and nearest-rank percentiles above", () => {
    expect(summarise(Array.from({ length: MIN_P99_SAMPLES - 1 }, () => 1))).toBeNull();
    expect(describeLatency([1, 2, 3])).toMatch(/too few answers/);
    const samples = Array.from({ length: 1000 }, (_, n) => 1000 - n);
    expect(summarise(samples)).toEqual({ samples: 1000, p50: 500, p95: 950, p99: 990 });
  });
});
