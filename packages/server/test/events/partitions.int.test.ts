// Partitions and expiry of the events tables (docs/adr/0023), on every backend: raw tables are
// partitioned by day and retention, every table expires by dropping whole parts, a project's
// short retention expires only its rows, a retention change rewrites no part, and migration 9
// rebuilds an existing install without losing a row. Rollups (migration 11): each rollup row
// carries its project's rollup days and expires by them, rows written without the column follow
// the server's days, and migration 11 upgrades an install keeping every row.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  API_LOGS,
  API_REQUESTS,
  API_SPANS,
  applyRetention,
  type EventsExecutor,
  migrateEvents,
  openEventsExecutor,
  UPTIME_RESULTS,
} from "../../src/stores/events/index.js";
import { eventsMigrations } from "../../src/stores/events/migrations/index.js";
import { runRollupBackfill } from "../../src/stores/events/queries/rollups/backfill.js";
import { eventsBackends, removeTestChdbPath, uniqueDatabaseName } from "../support/events.js";

afterAll(removeTestChdbPath);

interface Part {
  /** The partition as a tuple, e.g. `('2026-11-16',7)`. */
  readonly partition: string;
  readonly partition_id: string;
  readonly name: string;
  readonly modification_time: string;
  readonly rows: number;
}

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD hh:mm:ss.sss` UTC, as the events store reads a DateTime64(3). */
const stamp = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 23);
/** 00:00 UTC of the Monday of the week `ms` falls in. */
const mondayOf = (ms: number) => {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
};

describe.each(eventsBackends())("partitions and expiry on $name", ({ options }) => {
  let events: EventsExecutor;
  let database: string;

  const parts = async (table: string): Promise<Part[]> =>
    events.query<Part>(
      "SELECT partition, partition_id, name, toString(modification_time) AS modification_time, toUInt64(rows) AS rows " +
        "FROM system.parts WHERE database = {db:String} AND table = {table:String} AND active ORDER BY name",
      { db: database, table },
    );
  const count = async (sql: string): Promise<number> =>
    Number((await events.query<{ n: number }>(`SELECT count() AS n ${sql}`))[0]?.n ?? -1);

  /** Inserts one request row per time, each stored on its own day, in one statement (the
   *  times of one call share a week: one part). */
  async function insertRequest(project: string, retentionDays: number, ...atMs: number[]): Promise<void> {
    await events.command(
      `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, ` +
        "route, status_code, retention_days, stored_on) SELECT generateUUIDv7(), {project:String}, 'app', " +
        "toDateTime64(at, 3, 'UTC'), 'prod', 'GET', '/x', '/x', 200, {days:UInt16}, toDate(at) " +
        "FROM (SELECT arrayJoin({at:Array(String)}) AS at)",
      { project, at: atMs.map(stamp), days: retentionDays },
    );
  }

  /** Inserts one failed request (it feeds every rollup) per time, as ingest writes it now:
   *  with its project's rollup days. */
  async function insertRolledUp(project: string, rollupDays: number, ...atMs: number[]): Promise<void> {
    await events.command(
      `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, ` +
        "route, status_code, consumer_id, retention_days, rollup_days, stored_on) SELECT generateUUIDv7(), " +
        "{project:String}, 'app', toDateTime64(at, 3, 'UTC'), 'prod', 'GET', '/x', '/x', 500, 'c', 90, " +
        "{days:UInt16}, toDate(at) FROM (SELECT arrayJoin({at:Array(String)}) AS at)",
      { project, at: atMs.map(stamp), days: rollupDays },
    );
  }
  const ROLLUP_TABLES = [
    "api_requests_hourly",
    "api_errors_hourly",
    "api_endpoints_daily",
    "api_consumers_daily",
    "api_endpoints_hourly",
    "api_requests_daily",
    "api_errors_daily",
    "api_endpoint_statuses_hourly",
    "api_request_latency_hourly",
  ];
  /** Per rollup table, `project:days` of its rows, sorted. */
  const rollupDays = async (): Promise<Record<string, string[]>> => {
    const result: Record<string, string[]> = {};
    for (const table of ROLLUP_TABLES) {
      const rows = await events.query<{ v: string }>(
        `SELECT DISTINCT concat(project_id, ':', toString(rollup_days)) AS v FROM ${database}.${table} ORDER BY v`,
      );
      result[table] = rows.map((row) => row.v);
    }
    return result;
  };

  beforeEach(async () => {
    database = uniqueDatabaseName("pt");
    events = await openEventsExecutor({ ...options, database });
  });
  afterEach(async () => {
    await events.command(`DROP DATABASE IF EXISTS ${database}`);
    await events.close();
  });

  it("partitions raw records by week and retention, uptime results by week, and drops whole parts everywhere", async () => {
    await migrateEvents(events);
    const tables = await events.query<{ name: string; partition_key: string; engine_full: string }>(
      "SELECT name, partition_key, engine_full FROM system.tables WHERE database = {db:String} " +
        "AND engine LIKE '%MergeTree' AND name != 'schema_migrations'",
      { db: database },
    );
    const byName = new Map(tables.map((table) => [table.name, table]));
    for (const table of [API_REQUESTS, API_LOGS, API_SPANS]) {
      expect(byName.get(table.name)?.partition_key).toMatch(/^\(?toMonday\(stored_on\), retention_days\)?$/);
      expect(byName.get(table.name)?.engine_full).toContain(
        "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0,",
      );
    }
    expect(byName.get(UPTIME_RESULTS.name)?.partition_key).toBe("toMonday(timestamp)");
    for (const table of tables) expect(table.engine_full, table.name).toContain("ttl_only_drop_parts = 1");
  });

  it("expires a short-retention project's old weeks as whole parts and leaves every other part as it was", async () => {
    await migrateEvents(events);
    const nowMs = Date.now();
    // Project A keeps 7 days: two whole weeks well past it, and the week the boundary cuts.
    const cut = nowMs - 7 * DAY_MS;
    const cutWeek = mondayOf(cut);
    const oldWeek = cutWeek - 14 * DAY_MS;
    const olderWeek = cutWeek - 21 * DAY_MS;
    await insertRequest("project-a", 7, oldWeek, oldWeek + 3 * DAY_MS, oldWeek + 7 * DAY_MS - 1);
    await insertRequest("project-a", 7, olderWeek + DAY_MS);
    // Its first row has expired, its last has not (the week ends before now: cutWeek <= cut).
    await insertRequest("project-a", 7, cutWeek, cutWeek + 7 * DAY_MS - 1);
    // Project B keeps 90 days: the same old weeks stay.
    await insertRequest("project-b", 90, oldWeek, oldWeek + 3 * DAY_MS);
    await insertRequest("project-b", 90, olderWeek + DAY_MS);

    const ofA = (part: Part) => part.partition.endsWith(",7)");
    const before = await parts("api_requests");
    expect(before).toHaveLength(5);
    // One insert per partition, each a part of its own: no merge folds them meanwhile.
    const cutPart = before.find((part) => ofA(part) && part.rows === 2);
    expect(cutPart).toBeDefined();

    // Expiry runs in background merges; OPTIMIZE (without FINAL) asks for them now. Only
    // partitions whose every row expired may go, and they go whole.
    let expired = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 100 && expired > 0; attempt++) {
      for (const part of before) {
        await events.command(`OPTIMIZE TABLE ${database}.api_requests PARTITION ID {id:String}`, {
          id: part.partition_id,
        });
      }
      expired = await count(
        `FROM ${database}.api_requests WHERE project_id = 'project-a' AND timestamp < toDateTime64('${stamp(cutWeek)}', 3, 'UTC')`,
      );
      if (expired > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(expired).toBe(0);

    const after = await parts("api_requests");
    // What holds rows now is exactly what held the kept rows before, untouched: same part names
    // (a rewrite would bump the level or mutation suffix) and modification times.
    expect(after.filter((part) => part.rows > 0)).toEqual(
      before.filter((part) => !ofA(part) || part === cutPart),
    );
    // The week the cut falls in stays whole, its expired first row included, until its last expires.
    expect(
      await count(`FROM ${database}.api_requests WHERE project_id = 'project-a' AND retention_days = 7`),
    ).toBe(2);
    expect(await count(`FROM ${database}.api_requests WHERE project_id = 'project-b'`)).toBe(3);
  });

  it("changes a table's retention without rewriting or mutating any part", async () => {
    await migrateEvents(events);
    const nowMs = Date.now();
    // One insert: one part per partition, which no merge folds meanwhile.
    await insertRequest("project-a", 0, ...[15, 8, 1].map((age) => nowMs - age * DAY_MS));
    const before = await parts("api_requests");
    expect(before).toHaveLength(3);
    // The migrations' own (materializing the projections) are not the change's.
    const mutations = () =>
      count(`FROM system.mutations WHERE database = '${database}' AND table = 'api_requests'`);
    const mutationsBefore = await mutations();

    expect(await applyRetention(events, { api_requests: 2 })).toEqual(["api_requests"]);
    expect(await applyRetention(events, { api_requests: 120 })).toEqual(["api_requests"]);

    expect(await parts("api_requests")).toEqual(before);
    expect(await mutations()).toBe(mutationsBefore);
    expect(await count(`FROM ${database}.api_requests`)).toBe(3);
  });

  it("rebuilds an existing install into partitions keeping every row, and the rollup views keep feeding", async () => {
    const before9 = eventsMigrations.filter((migration) => migration.version < 9);
    await migrateEvents(events, before9);
    const nowMs = Date.now();
    for (const age of [20, 10, 2, 0]) {
      const at = `toDateTime64('${stamp(nowMs - age * DAY_MS)}', 3, 'UTC')`;
      await events.command(
        `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, route, status_code) ` +
          `SELECT generateUUIDv7(), 'p', 'a', ${at}, 'prod', 'GET', '/x', '/x', 500 FROM numbers(3)`,
      );
      await events.command(
        `INSERT INTO ${database}.api_logs (id, project_id, app_id, timestamp, environment, level, message) ` +
          `SELECT generateUUIDv7(), 'p', 'a', ${at}, 'prod', 'INFO', 'm' FROM numbers(2)`,
      );
      await events.command(
        `INSERT INTO ${database}.api_spans (id, project_id, app_id, timestamp, environment, trace_id, span_id, name) ` +
          `SELECT generateUUIDv7(), 'p', 'a', ${at}, 'prod', 't', 's', 'n' FROM numbers(1)`,
      );
      await events.command(
        `INSERT INTO ${database}.uptime_results (id, project_id, check_id, timestamp, ok) ` +
          `SELECT generateUUIDv4(), 'p', 'c', ${at}, 1 FROM numbers(1)`,
      );
    }
    const hourly = async () =>
      Number(
        (
          await events.query<{ n: number }>(
            `SELECT sum(requests) AS n FROM ${database}.api_requests_hourly WHERE source = 0`,
          )
        )[0]?.n ?? 0,
      );
    expect(await hourly()).toBe(12);

    expect(await migrateEvents(events)).toEqual([
      "partitions_and_retention",
      "list-rollups",
      "rollup_retention",
      "rollup_tiers",
      "consumer_names",
      "endpoint_statuses",
      "consumer_projection",
      "request_latency",
      "endpoint_projection",
    ]);
    // Migration 10 snapshots the rebuilt, partitioned table for its backfill: every row, by partition.
    expect(await count(`FROM ${database}.api_requests_backfill_lists`)).toBe(12);

    expect(
      await count(`FROM ${database}.api_requests WHERE retention_days = 0 AND stored_on = toDate(timestamp)`),
    ).toBe(12);
    expect(await count(`FROM ${database}.api_logs`)).toBe(8);
    expect(await count(`FROM ${database}.api_spans`)).toBe(4);
    expect(await count(`FROM ${database}.uptime_results`)).toBe(4);
    const weeks = new Set([20, 10, 2, 0].map((age) => mondayOf(nowMs - age * DAY_MS)));
    expect(new Set((await parts("api_requests")).map((part) => part.partition_id)).size).toBe(weeks.size);
    expect(await count(`FROM system.tables WHERE database = '${database}' AND name LIKE '%_rebuild'`)).toBe(
      0,
    );

    // The views were recreated over the rebuilt table: a new row is rolled up as it arrives.
    await insertRequest("p", 14, nowMs);
    expect(await hourly()).toBe(13);

    // A second run (a crash after the swap, say) finds every table rebuilt and changes nothing.
    const rebuilt = await parts("api_requests");
    await eventsMigrations
      .find((migration) => migration.version === 9)
      ?.run?.(events, { database, topology: events.topology });
    expect(await parts("api_requests")).toEqual(rebuilt);
    expect(await hourly()).toBe(13);
  });

  it("carries each row's rollup days into every rollup and expires rollup rows by them", async () => {
    await migrateEvents(events);
    const tables = await events.query<{ name: string; engine_full: string }>(
      "SELECT name, engine_full FROM system.tables WHERE database = {db:String}",
      { db: database },
    );
    for (const table of ROLLUP_TABLES) {
      const ttl = tables.find((candidate) => candidate.name === table)?.engine_full;
      expect(ttl, table).toMatch(
        /TTL toDateTime\((hour|day)\) \+ toIntervalDay\(if\(rollup_days = 0, \d+, rollup_days\)\)/,
      );
    }
    const nowMs = Date.now();
    // Project A keeps its rollups 3 days: an old request (alone in its month's partition, which
    // no other row shares) and a new one. Project B's old writer names no rollup_days: 0, the
    // server's days, so its 10-day-old rollup rows stay.
    await insertRolledUp("project-a", 3, nowMs - 70 * DAY_MS);
    await insertRolledUp("project-a", 3, nowMs);
    await events.command(
      `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, ` +
        "route, status_code, consumer_id, retention_days, stored_on) SELECT generateUUIDv7(), 'project-b', " +
        `'app', toDateTime64('${stamp(nowMs - 10 * DAY_MS)}', 3, 'UTC'), 'prod', 'GET', '/x', '/x', 500, 'c', ` +
        "90, today()",
    );
    expect(await rollupDays()).toEqual({
      api_requests_hourly: ["project-a:3", "project-b:0"],
      api_errors_hourly: ["project-a:3", "project-b:0"],
      api_endpoints_daily: ["project-a:3", "project-b:0"],
      api_consumers_daily: ["project-a:3", "project-b:0"],
      api_endpoints_hourly: ["project-a:3", "project-b:0"],
      api_requests_daily: ["project-a:3", "project-b:0"],
      api_errors_daily: ["project-a:3", "project-b:0"],
      api_endpoint_statuses_hourly: ["project-a:3", "project-b:0"],
      api_request_latency_hourly: ["project-a:3", "project-b:0"],
    });

    const cut = nowMs - 3 * DAY_MS;
    const old = (table: string, project: string) =>
      count(
        `FROM ${database}.${table} WHERE project_id = '${project}' AND ` +
          `${table.endsWith("_daily") ? "day" : "hour"} < toDateTime('${stamp(cut).slice(0, 19)}', 'UTC')`,
      );
    for (const table of ROLLUP_TABLES) {
      let left = Number.POSITIVE_INFINITY;
      for (let attempt = 0; attempt < 100 && left > 0; attempt++) {
        for (const part of await parts(table)) {
          await events.command(`OPTIMIZE TABLE ${database}.${table} PARTITION ID {id:String}`, {
            id: part.partition_id,
          });
        }
        left = await old(table, "project-a");
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(left, table).toBe(0);
      // Project A's recent row and project B's 10-day-old rows (the server's days) stay.
      expect(await count(`FROM ${database}.${table} WHERE project_id = 'project-a'`), table).toBe(1);
      expect(await old(table, "project-b"), table).toBeGreaterThan(0);
    }
  });

  it("changes the rollups' server-wide days without rewriting or mutating any part", async () => {
    await migrateEvents(events);
    const nowMs = Date.now();
    // Rows that follow the server's days (0), one insert: one part per monthly partition (the two
    // rows are always months apart), which no merge folds meanwhile.
    await insertRolledUp("project-a", 0, nowMs - 40 * DAY_MS, nowMs - DAY_MS);
    const before = await Promise.all(ROLLUP_TABLES.map(parts));
    expect(before.flat().length).toBeGreaterThan(0);
    const mutations = () => count(`FROM system.mutations WHERE database = '${database}'`);
    const mutationsBefore = await mutations();
    const wanted = Object.fromEntries(ROLLUP_TABLES.map((table) => [table, 30]));
    expect((await applyRetention(events, wanted)).sort()).toEqual([...ROLLUP_TABLES].sort());
    const [ttl] = await events.query<{ engine_full: string }>(
      "SELECT engine_full FROM system.tables WHERE database = {db:String} AND name = 'api_requests_hourly'",
      { db: database },
    );
    expect(ttl?.engine_full).toContain("toIntervalDay(if(rollup_days = 0, 30, rollup_days))");
    const back = Object.fromEntries(ROLLUP_TABLES.map((table) => [table, 400]));
    expect((await applyRetention(events, back)).sort()).toEqual([...ROLLUP_TABLES].sort());
    expect(await Promise.all(ROLLUP_TABLES.map(parts))).toEqual(before);
    expect(await mutations()).toBe(mutationsBefore);
  });

  it("upgrades an install to per-row rollup retention keeping every row; the backfill and the views carry it", async () => {
    await migrateEvents(
      events,
      eventsMigrations.filter((migration) => migration.version < 6),
    );
    const nowMs = Date.now();
    for (const age of [20, 10, 2]) {
      await events.command(
        `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, route, status_code) ` +
          `SELECT generateUUIDv7(), 'p', 'a', toDateTime64('${stamp(nowMs - age * DAY_MS)}', 3, 'UTC'), 'prod', ` +
          "'GET', '/x', '/x', 500 FROM numbers(3)",
      );
    }
    const applied = await migrateEvents(events);
    expect(applied.slice(-7)).toEqual([
      "rollup_retention",
      "rollup_tiers",
      "consumer_names",
      "endpoint_statuses",
      "consumer_projection",
      "request_latency",
      "endpoint_projection",
    ]);
    expect(await count(`FROM ${database}.api_requests WHERE rollup_days = 0`)).toBe(9);
    // The snapshots predate the column: the backfill writes the server's days (0) for their rows.
    expect(await runRollupBackfill(events, { stepMs: DAY_MS })).toBe("done");
    const sums = async () =>
      Promise.all(
        ROLLUP_TABLES.map(async (table) =>
          Number(
            (await events.query<{ n: number }>(`SELECT sum(requests) AS n FROM ${database}.${table}`))[0]?.n,
          ),
        ),
      );
    // Each rollup once: the daily ones skip the hourly ones' backfilled rows and take the rows
    // from migration 12's own snapshot.
    const each = (n: number) => ROLLUP_TABLES.map(() => n);
    expect(await sums()).toEqual(each(9));
    expect(await rollupDays()).toEqual(Object.fromEntries(ROLLUP_TABLES.map((table) => [table, ["p:0"]])));

    // The recreated views carry a new row's days.
    await insertRolledUp("p", 5, nowMs);
    expect(await sums()).toEqual(each(10));
    expect(await rollupDays()).toEqual(
      Object.fromEntries(ROLLUP_TABLES.map((table) => [table, ["p:0", "p:5"]])),
    );

    // Run again (a crash before its record, say): idempotent, nothing lost or doubled.
    const eleven = eventsMigrations.find((migration) => migration.version === 11);
    for (const statement of eleven?.statements({ database, topology: events.topology }) ?? [])
      await events.command(statement);
    await eleven?.run?.(events, { database, topology: events.topology });
    expect(await sums()).toEqual(each(10));
    await insertRolledUp("p", 5, nowMs);
    expect(await sums()).toEqual(each(11));
  }, 120_000);
});
