// The work workload's stand-in for an app's own work (parsing, rules, rendering): a fixed amount
// of CPU per request, the same number of iterations in every app of a run. A spin until a
// wall-clock deadline would not do: preempted by any other thread on its core (the SDK's gzip on
// the libuv pool, GC helpers, the load generator) it burns less CPU in the same time, so the
// app's throughput and CPU per request would measure the scheduler rather than the SDK.

/** What the loop leaves behind, kept so the optimiser cannot drop the loop. */
let residue = 0;

/** Integer arithmetic only (xorshift32): no allocation, so no garbage for the GC to add. */
export function spin(iterations: number): void {
  let x = residue | 1;
  for (let i = 0; i < iterations; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  residue = x;
}

/** Iterations taking `ms` here: the fastest of several timed runs, the least disturbed. */
function calibrate(ms: number): number {
  const probe = 2_000_000;
  spin(probe);
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 20; run += 1) {
    const began = performance.now();
    spin(probe);
    best = Math.min(best, performance.now() - began);
  }
  return Math.max(1, Math.round((probe * ms) / best));
}

/** The environment that fixes the work per request for every app a bench starts: measured once
 *  per bench process (BENCH_WORK_ITERATIONS, when set, wins). */
let fixed: string | undefined;
export function workEnv(ms = 0.5): { BENCH_WORK_ITERATIONS: string } {
  fixed ??= process.env.BENCH_WORK_ITERATIONS ?? String(calibrate(ms));
  return { BENCH_WORK_ITERATIONS: fixed };
}
