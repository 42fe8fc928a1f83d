// The rollup backfill: rolls up the rows stored before the rollups existed (the snapshot each
// rollup generation's migration took), one UTC day at a time, newest first, then drops the
// snapshot; generations one after the other. Resumable: a
// day's rows are written to the day's own backfill partition, dropped first, and the day is
// recorded only after its rows are in every rollup, so a day cut short is simply redone.
import type { EventsExecutor } from "../../executor.js";
import {
  dropTableStatements,
  onCluster,
  ROLLUP_SOURCE,
  rollupSelect,
  storageName,
} from "../../tables/index.js";
import { SqlParams } from "../sql.js";
import { backfilledDays, type RollupCoverage, snapshotDays, snapshotExists } from "./coverage.js";
import { qualified } from "../tenant.js";
import { type RollupGeneration, ROLLUP_GENERATIONS } from "./generations.js";

const DAY_MS = 86_400_000;

export interface BackfillProgress {
  /** The rollup tables the day was rolled up into. */
  readonly rollups: string;
  readonly day: string;
  readonly rows: number;
  readonly daysDone: number;
  readonly daysTotal: number;
}

export interface BackfillOptions {
  readonly coverage?: RollupCoverage | undefined;
  /** Runs one day's work exclusively across instances (the migrator lease in production). */
  readonly exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
  readonly onDay?: (progress: BackfillProgress) => void;
  /** Checked between days: true stops the job (it resumes where it stopped on the next start). */
  readonly stopped?: () => boolean;
  /** Rows of this many milliseconds per INSERT (default an hour; a divisor of a day). */
  readonly stepMs?: number;
}

/** Runs the backfill to its end (or until stopped); "done" once every snapshot is gone. */
export async function runRollupBackfill(
  events: EventsExecutor,
  options: BackfillOptions = {},
): Promise<"done" | "stopped"> {
  for (const generation of ROLLUP_GENERATIONS) {
    if ((await backfillGeneration(events, generation, options)) === "stopped") return "stopped";
  }
  return "done";
}

async function backfillGeneration(
  events: EventsExecutor,
  generation: RollupGeneration,
  options: BackfillOptions,
): Promise<"done" | "stopped"> {
  const exclusive = options.exclusive ?? ((work) => work());
  if (!(await snapshotExists(events, generation))) return "done";
  const days = await snapshotDays(events, generation);
  for (const [index, day] of days.entries()) {
    if (options.stopped?.() === true) return "stopped";
    const did = await exclusive(async () => {
      // Another instance may have done it meanwhile.
      if ((await backfilledDays(events, generation)).has(day.dayMs)) return false;
      await rollUpDay(events, generation, day.dayMs, options.stepMs ?? STEP_MS);
      await events.command(
        `INSERT INTO ${qualified(events, generation.state)} (day, rows, done_at) ` +
          "SELECT toDate({day:DateTime64(3, 'UTC')}), {rows:UInt64}, now64(3, 'UTC')",
        { day: new Date(day.dayMs), rows: day.rows },
      );
      return true;
    });
    options.coverage?.invalidate();
    if (did) {
      options.onDay?.({
        rollups: generation.rollups.map((rollup) => rollup.table.name).join(", "),
        day: new Date(day.dayMs).toISOString().slice(0, 10),
        rows: day.rows,
        daysDone: index + 1,
        daysTotal: days.length,
      });
    }
  }
  await dropSnapshot(events, generation);
  options.coverage?.invalidate();
  return "done";
}

/** Drops each snapshot that holds no row (a store migrated while empty); cheap: the count of a
 *  MergeTree table is read from its parts' metadata. */
export async function dropEmptySnapshot(events: EventsExecutor): Promise<void> {
  for (const generation of ROLLUP_GENERATIONS) {
    if (!(await snapshotExists(events, generation))) continue;
    const [row] = await events.query<{ n: number }>(
      `SELECT count() AS n FROM ${qualified(events, generation.snapshot)}`,
      undefined,
      "write",
    );
    if ((row?.n ?? 0) === 0) await dropSnapshot(events, generation);
  }
}

/** Drops a generation's snapshot (on a cluster its Distributed and local tables). */
async function dropSnapshot(events: EventsExecutor, generation: RollupGeneration): Promise<void> {
  for (const statement of dropTableStatements(events.topology, events.database, generation.snapshot))
    await events.command(statement);
}

/** One hour per statement: an insert holds a write session, and ingest shares them. */
const STEP_MS = 3_600_000;

async function rollUpDay(
  events: EventsExecutor,
  generation: RollupGeneration,
  dayMs: number,
  stepMs: number,
): Promise<void> {
  const partitionDay = Number(new Date(dayMs).toISOString().slice(0, 10).replaceAll("-", ""));
  for (const rollup of generation.rollups) {
    const table = qualified(events, rollup.table);
    // Whatever an interrupted run left of this day goes first (on a cluster, from every shard's
    // stored table; the insert below goes through the Distributed one).
    const stored = `${events.database}.${storageName(events.topology, rollup.table.name)}${onCluster(events.topology)}`;
    await events.command(`ALTER TABLE ${stored} DROP PARTITION (${ROLLUP_SOURCE.backfill}, ${partitionDay})`);
    for (let from = dayMs; from < dayMs + DAY_MS; from += stepMs) {
      const params = new SqlParams();
      const where = `WHERE timestamp >= ${params.instant(from)} AND timestamp < ${params.instant(from + stepMs)}`;
      await events.command(
        `INSERT INTO ${table} (${rollup.table.columnNames.join(", ")}) ` +
          rollupSelect(rollup, `${qualified(events, generation.snapshot)}`, where, ROLLUP_SOURCE.backfill),
        params.values,
      );
    }
  }
}
