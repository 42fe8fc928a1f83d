// How far the rollups are complete: every hour at or after the watermark holds all its rows.
// Before the backfill finishes, older hours are read raw (the dashboard works throughout).
import type { EventsExecutor } from "../../executor.js";
import type { Rollup } from "../../tables/index.js";
import { qualified } from "../tenant.js";
import { FIRST_GENERATION, generationOf, type RollupGeneration, ROLLUP_GENERATIONS } from "./generations.js";

const DAY_MS = 86_400_000;

export interface RollupCoverage {
  /** Epoch ms from which `rollup` (default: the first generation's) holds every row; Infinity
   *  while nothing is known complete. */
  completeFrom(rollup?: Rollup): Promise<number>;
  /** Forget the cached answer (the backfill calls it after each day). */
  invalidate(): void;
}

/** The snapshot's days (UTC day starts, ms) with rows, newest first. */
export async function snapshotDays(
  events: EventsExecutor,
  generation: RollupGeneration = FIRST_GENERATION,
): Promise<Array<{ dayMs: number; rows: number }>> {
  const rows = await events.query<{ day: string; rows: number }>(
    `SELECT toString(toDate(timestamp)) AS day, count() AS rows FROM ${qualified(events, generation.snapshot)} ` +
      "GROUP BY day ORDER BY day DESC",
  );
  return rows.map((row) => ({ dayMs: Date.parse(`${row.day}T00:00:00Z`), rows: row.rows }));
}

export async function backfilledDays(
  events: EventsExecutor,
  generation: RollupGeneration = FIRST_GENERATION,
): Promise<Set<number>> {
  const rows = await events.query<{ day: string }>(
    `SELECT DISTINCT toString(day) AS day FROM ${qualified(events, generation.state)}`,
  );
  return new Set(rows.map((row) => Date.parse(`${row.day}T00:00:00Z`)));
}

export async function snapshotExists(
  events: EventsExecutor,
  generation: RollupGeneration = FIRST_GENERATION,
): Promise<boolean> {
  const rows = await events.query<{ name: string }>(
    "SELECT name FROM system.tables WHERE database = {database:String} AND name = {name:String}",
    { database: events.database, name: generation.snapshot },
  );
  return rows.length > 0;
}

/** The watermark from the snapshot's days and those done: the oldest day of the unbroken run of
 *  done days from the newest down (rows after the newest snapshot day came through the views). */
export function watermarkOf(days: ReadonlyArray<{ dayMs: number }>, done: ReadonlySet<number>): number {
  const newest = days[0];
  if (newest === undefined) return 0;
  let mark = newest.dayMs + DAY_MS;
  for (const day of days) {
    if (!done.has(day.dayMs)) return mark;
    mark = day.dayMs;
  }
  return 0;
}

/** Coverage read from the store, cached for `cacheMs` per generation (the snapshot's days once:
 *  they never change). */
export function storeCoverage(events: EventsExecutor, cacheMs = 10_000): RollupCoverage {
  const states = new Map(
    ROLLUP_GENERATIONS.map((generation) => [generation, generationCoverage(events, generation)]),
  );
  return {
    completeFrom(rollup) {
      const state = states.get(rollup === undefined ? FIRST_GENERATION : generationOf(rollup));
      if (state === undefined) throw new Error("unknown rollup generation");
      return state.completeFrom(cacheMs);
    },
    invalidate() {
      for (const state of states.values()) state.invalidate();
    },
  };
}

function generationCoverage(events: EventsExecutor, generation: RollupGeneration) {
  let days: Array<{ dayMs: number; rows: number }> | undefined;
  let cached: { at: number; value: number } | undefined;
  let complete = false;
  async function read(): Promise<number> {
    if (complete) return 0;
    if (!(await snapshotExists(events, generation))) {
      complete = true;
      return 0;
    }
    try {
      days ??= await snapshotDays(events, generation);
      return watermarkOf(days, await backfilledDays(events, generation));
    } catch (error) {
      // The backfill drops the snapshot when it is done, possibly between the two reads.
      if (await snapshotExists(events, generation)) throw error;
      complete = true;
      return 0;
    }
  }
  return {
    async completeFrom(cacheMs: number): Promise<number> {
      const now = Date.now();
      if (cached !== undefined && now - cached.at < cacheMs) return cached.value;
      const value = await read();
      cached = { at: now, value };
      return value;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
