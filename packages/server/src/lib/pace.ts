// Cooperative slicing of long synchronous work (parsing a big body, preparing a batch, mapping an
// export): the work checks `due()` between its units and yields to the event loop once a slice
// has used its budget, so no request holds the loop for more than a slice plus one unit.
import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Milliseconds of work between yields. 10 keeps the loop's worst hold far under the 50 ms the
 * server promises; a yield costs a few microseconds, so a 1,000-record batch (about 10 ms of
 * work) yields at most once or twice and throughput does not move.
 */
export const SLICE_BUDGET_MS = 10;

export interface Pace {
  /** Whether the work since the last yield (or since the pace was made) used up the budget. */
  due(): boolean;
  /** Lets the event loop run (timers, I/O, other requests) and starts a new slice. */
  yield(): Promise<void>;
}

/**
 * A pace for one piece of work. Call `due()` after each unit (a record, a span, 64 KiB scanned);
 * it reads the clock, about 50 ns, so units should cost a microsecond or more.
 * @example
 * const pace = createPace();
 * for (const record of records) { handle(record); if (pace.due()) await pace.yield(); }
 */
export function createPace(budgetMs: number = SLICE_BUDGET_MS): Pace {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart >= budgetMs,
    async yield() {
      await nextTurn();
      sliceStart = performance.now();
    },
  };
}
