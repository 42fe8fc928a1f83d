// npm run bench:tiers-cpu — the ingest CPU the rollup tiers' views add (events migration 12,
// docs/adr/0025-rollup-tiers.md): the same rows inserted into a store at migration 11 and into
// one at migration 12, side by side in one chDB process, alternating which goes first, with
// background merges stopped so each insert's process CPU time (user + system; chDB runs in
// process) is its own. Each round inserts a fresh hour of the bench:scale dataset (TIERS_ROWS
// rows, default 100000, about an hour of the 100 M-row month) into both, and into a third store at
// migration 12 without the hourly endpoint view, which splits the added cost between that view
// (fed from raw rows) and the daily views (fed from the hourly rollups' rows). Prints each
// round's CPU per row, the medians, their ratio and the median added CPU per row.
// Knobs: TIERS_ROWS (100000), TIERS_ROUNDS (9).
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  API_REQUESTS,
  ENDPOINTS_HOURLY,
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
  const daily = await open("tiers_daily_views", TIERS_VERSION);
  await daily.command(`DROP VIEW ${daily.database}.${ENDPOINTS_HOURLY.view}`);
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
  say(
    `${"round".padEnd(7)}${"migration 11 µs/row".padStart(21)}${"migration 12 µs/row".padStart(21)}` +
      `${"12 w/o endpoints_hourly".padStart(25)}`,
  );
  const stores = { base, tiers, daily } as const;
  type Store = keyof typeof stores;
  const perRow: Record<Store, number[]> = { base: [], tiers: [], daily: [] };
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
    // Rotate which store goes first, so none always runs on a warmer cache.
    const names: Store[] = ["base", "tiers", "daily"];
    const order = [...names.slice(round % 3), ...names.slice(0, round % 3)];
    const got: Record<Store, number> = { base: 0, tiers: 0, daily: 0 };
    for (const which of order) got[which] = await insert(stores[which]);
    for (const which of names) perRow[which].push(got[which]);
    added.push(got.tiers - got.base);
    say(
      `${String(round + 1).padEnd(7)}${got.base.toFixed(2).padStart(21)}${got.tiers.toFixed(2).padStart(21)}` +
        `${got.daily.toFixed(2).padStart(25)}`,
    );
  }
  const baseMedian = percentile(perRow.base, 0.5);
  const tiersMedian = percentile(perRow.tiers, 0.5);
  const dailyMedian = percentile(perRow.daily, 0.5);
  say();
  say(
    `median CPU per inserted row: migration 11 ${baseMedian.toFixed(2)} µs, migration 12 ${tiersMedian.toFixed(2)} µs ` +
      `(ratio ${(tiersMedian / baseMedian).toFixed(3)}); added ${percentile(added, 0.5).toFixed(2)} µs/row ` +
      `(median of the rounds' differences); without the hourly endpoint view ${dailyMedian.toFixed(2)} µs ` +
      `(ratio ${(dailyMedian / baseMedian).toFixed(3)}); load ${load()}`,
  );
} finally {
  for (const events of opened) await events.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
}
