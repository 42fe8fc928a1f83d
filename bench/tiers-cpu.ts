// npm run bench:tiers-cpu — the ingest CPU the rollup tiers' views add (events migration 12,
// docs/adr/0025-rollup-tiers.md): the same rows inserted into a store at migration 11 and into
// one at migration 12, side by side in one chDB process, alternating which goes first, with
// background merges stopped so each insert's process CPU time (user + system; chDB runs in
// process) is its own. Each round inserts a fresh hour of the bench:scale dataset (TIERS_ROWS
// rows, default 100000, about an hour of the 100 M-row month) into both. Prints each round's CPU
// per row, the medians, their ratio and the median added CPU per row.
// Knobs: TIERS_ROWS (100000), TIERS_ROUNDS (9).
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  API_REQUESTS,
  type EventsExecutor,
  eventsMigrations,
  migrateEvents,
  openEventsExecutor,
  TIERS_VERSION,
} from "../packages/server/src/stores/events/index.js";
import { SCALE_APPS, scaleParams, scaleRequestsSql } from "./scale-dataset.js";
import { assertSamples, percentile } from "./stats.js";

const HOUR = 3_600_000;
const ROWS = Number(process.env.TIERS_ROWS ?? 100_000);
const ROUNDS = Number(process.env.TIERS_ROUNDS ?? 9);
assertSamples(ROWS, 1, "TIERS_ROWS");
assertSamples(ROUNDS, 3, "TIERS_ROUNDS");

const say = (line = "") => process.stdout.write(`${line}\n`);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

const dir = await mkdtemp(join(tmpdir(), "sightline-bench-tiers-"));
const opened: EventsExecutor[] = [];
const open = async (database: string, upTo: number) => {
  const events = await openEventsExecutor({ chdbPath: join(dir, "chdb"), database });
  opened.push(events);
  await events.command(`CREATE DATABASE IF NOT EXISTS ${database}`);
  await migrateEvents(
    events,
    eventsMigrations.filter((migration) => migration.version <= upTo),
  );
  return events;
};

try {
  // The rows, stored once without any view (migration 5: before the rollups).
  const source = await open("tiers_src", 5);
  const base = await open("tiers_base", TIERS_VERSION - 1);
  const tiers = await open("tiers_new", TIERS_VERSION);
  const columns = API_REQUESTS.columns.filter((column) => column.since <= 5).map((column) => column.name);
  const startMs = Math.floor(Date.now() / HOUR) * HOUR - (ROUNDS + 1) * HOUR;
  const params = scaleParams(SCALE_APPS);
  for (let round = 0; round < ROUNDS; round += 1) {
    await source.command(
      scaleRequestsSql(source.database, {
        first: round * ROWS,
        count: ROWS,
        fromMs: startMs + round * HOUR,
        spanMs: HOUR,
      }),
      params,
    );
  }
  // Only the inserts' own work is timed: no merge runs meanwhile.
  await source.command("SYSTEM STOP MERGES");
  say(`bench:tiers-cpu  ${ROUNDS} rounds of ${ROWS} rows (an hour each); load ${load()}`);
  say(`${"round".padEnd(7)}${"migration 11 µs/row".padStart(21)}${"migration 12 µs/row".padStart(21)}`);
  const perRow: Record<"base" | "tiers", number[]> = { base: [], tiers: [] };
  const added: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const fromMs = startMs + round * HOUR;
    const insert = async (into: EventsExecutor): Promise<number> => {
      const before = process.cpuUsage();
      await into.command(
        `INSERT INTO ${into.database}.api_requests (${columns.join(", ")}) SELECT ${columns.join(", ")} ` +
          `FROM ${source.database}.api_requests WHERE timestamp >= {from:DateTime64(3, 'UTC')} ` +
          `AND timestamp < {to:DateTime64(3, 'UTC')}`,
        { from: new Date(fromMs), to: new Date(fromMs + HOUR) },
      );
      const used = process.cpuUsage(before);
      return (used.user + used.system) / ROWS;
    };
    // Alternate which store goes first, so neither always runs on a warmer cache.
    const order = round % 2 === 0 ? (["base", "tiers"] as const) : (["tiers", "base"] as const);
    const got: Partial<Record<"base" | "tiers", number>> = {};
    for (const which of order) got[which] = await insert(which === "base" ? base : tiers);
    perRow.base.push(got.base ?? 0);
    perRow.tiers.push(got.tiers ?? 0);
    added.push((got.tiers ?? 0) - (got.base ?? 0));
    say(
      `${String(round + 1).padEnd(7)}${(got.base ?? 0).toFixed(2).padStart(21)}${(got.tiers ?? 0).toFixed(2).padStart(21)}`,
    );
  }
  const baseMedian = percentile(perRow.base, 0.5);
  const tiersMedian = percentile(perRow.tiers, 0.5);
  say();
  say(
    `median CPU per inserted row: migration 11 ${baseMedian.toFixed(2)} µs, migration 12 ${tiersMedian.toFixed(2)} µs ` +
      `(ratio ${(tiersMedian / baseMedian).toFixed(3)}); added ${percentile(added, 0.5).toFixed(2)} µs/row ` +
      `(median of the rounds' differences); load ${load()}`,
  );
} finally {
  for (const events of opened) await events.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
