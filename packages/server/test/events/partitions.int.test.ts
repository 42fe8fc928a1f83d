// Partitions and expiry of the events tables (docs/adr/0023), on every backend: raw tables are
// partitioned by day and retention, every table expires by dropping whole parts, a project's
// short retention expires only its rows, a retention change rewrites no part, and migration 9
// rebuilds an existing install without losing a row.
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
import { eventsBackends, removeTestChdbPath, uniqueDatabaseName } from "../support/events.js";

afterAll(removeTestChdbPath);

interface Part {
  readonly partition_id: string;
  readonly name: string;
  readonly modification_time: string;
  readonly rows: number;
}

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD hh:mm:ss.sss` UTC, as the events store reads a DateTime64(3). */
const stamp = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 23);
const dayId = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");

describe.each(eventsBackends())("partitions and expiry on $name", ({ options }) => {
  let events: EventsExecutor;
  let database: string;

  const parts = async (table: string): Promise<Part[]> =>
    events.query<Part>(
      "SELECT partition_id, name, toString(modification_time) AS modification_time, toUInt64(rows) AS rows " +
        "FROM system.parts WHERE database = {db:String} AND table = {table:String} AND active ORDER BY name",
      { db: database, table },
    );
  const count = async (sql: string): Promise<number> =>
    Number((await events.query<{ n: number }>(`SELECT count() AS n ${sql}`))[0]?.n ?? -1);

  /** Inserts one request row per time, in one statement: one part per partition. */
  async function insertRequest(project: string, retentionDays: number, ...atMs: number[]): Promise<void> {
    await events.command(
      `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, ` +
        "route, status_code, retention_days) SELECT generateUUIDv7(), {project:String}, 'app', " +
        "toDateTime64(at, 3, 'UTC'), 'prod', 'GET', '/x', '/x', 200, {days:UInt16} " +
        "FROM (SELECT arrayJoin({at:Array(String)}) AS at)",
      { project, at: atMs.map(stamp), days: retentionDays },
    );
  }

  beforeEach(async () => {
    database = uniqueDatabaseName("pt");
    events = await openEventsExecutor({ ...options, database });
  });
  afterEach(async () => {
    await events.command(`DROP DATABASE IF EXISTS ${database}`);
    await events.close();
  });

  it("partitions raw records by day and retention, uptime results by day, and drops whole parts everywhere", async () => {
    await migrateEvents(events);
    const tables = await events.query<{ name: string; partition_key: string; engine_full: string }>(
      "SELECT name, partition_key, engine_full FROM system.tables WHERE database = {db:String} " +
        "AND engine LIKE '%MergeTree' AND name != 'schema_migrations'",
      { db: database },
    );
    const byName = new Map(tables.map((table) => [table.name, table]));
    for (const table of [API_REQUESTS, API_LOGS, API_SPANS]) {
      expect(byName.get(table.name)?.partition_key).toMatch(
        /^\(?toYYYYMMDD\(timestamp\), retention_days\)?$/,
      );
      expect(byName.get(table.name)?.engine_full).toContain(
        "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0,",
      );
    }
    expect(byName.get(UPTIME_RESULTS.name)?.partition_key).toBe("toYYYYMMDD(timestamp)");
    for (const table of tables) expect(table.engine_full, table.name).toContain("ttl_only_drop_parts = 1");
  });

  it("expires a short-retention project's old days as whole parts and leaves every other part as it was", async () => {
    await migrateEvents(events);
    const nowMs = Date.now();
    // Project A keeps 7 days: three whole days well past it, and one day the boundary cuts.
    for (const age of [12, 11, 10]) await insertRequest("project-a", 7, nowMs - age * DAY_MS);
    const cut = nowMs - 7 * DAY_MS;
    const cutDayStart = Math.floor(cut / DAY_MS) * DAY_MS;
    // Its first row has expired, its last has not.
    await insertRequest("project-a", 7, cutDayStart, cutDayStart + DAY_MS - 1);
    // Project B keeps 90 days: the same old days stay.
    for (const age of [12, 11, 10]) await insertRequest("project-b", 90, nowMs - age * DAY_MS);

    const keptPartitions = (all: readonly Part[]) =>
      all.filter((part) => !part.partition_id.endsWith("-7") || part.partition_id === `${dayId(cut)}-7`);
    const before = await parts("api_requests");
    expect(keptPartitions(before)).toHaveLength(3 + 1);

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
        `FROM ${database}.api_requests WHERE project_id = 'project-a' ` +
          `AND toDate(timestamp) < toDate('${stamp(cut).slice(0, 10)}')`,
      );
      if (expired > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(expired).toBe(0);

    const after = await parts("api_requests");
    // What holds rows now is exactly what held the kept rows before, untouched: same part names
    // (a rewrite would bump the level or mutation suffix) and modification times.
    expect(after.filter((part) => part.rows > 0)).toEqual(keptPartitions(before));
    // The day the cut falls in stays whole, its expired first row included, until its last expires.
    expect(
      await count(`FROM ${database}.api_requests WHERE project_id = 'project-a' AND retention_days = 7`),
    ).toBe(2);
    expect(await count(`FROM ${database}.api_requests WHERE project_id = 'project-b'`)).toBe(3);
  });

  it("changes a table's retention without rewriting or mutating any part", async () => {
    await migrateEvents(events);
    const nowMs = Date.now();
    for (const age of [5, 3, 1]) await insertRequest("project-a", 0, nowMs - age * DAY_MS);
    const before = await parts("api_requests");
    expect(before).toHaveLength(3);

    expect(await applyRetention(events, { api_requests: 2 })).toEqual(["api_requests"]);
    expect(await applyRetention(events, { api_requests: 120 })).toEqual(["api_requests"]);

    expect(await parts("api_requests")).toEqual(before);
    expect(
      await count(`FROM system.mutations WHERE database = '${database}' AND table = 'api_requests'`),
    ).toBe(0);
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

    expect(await migrateEvents(events)).toEqual(["partitions_and_retention"]);

    expect(await count(`FROM ${database}.api_requests WHERE retention_days = 0`)).toBe(12);
    expect(await count(`FROM ${database}.api_logs`)).toBe(8);
    expect(await count(`FROM ${database}.api_spans`)).toBe(4);
    expect(await count(`FROM ${database}.uptime_results`)).toBe(4);
    expect((await parts("api_requests")).map((part) => part.partition_id).sort()).toEqual(
      [20, 10, 2, 0].map((age) => `${dayId(nowMs - age * DAY_MS)}-0`).sort(),
    );
    expect(await count(`FROM system.tables WHERE database = '${database}' AND name LIKE '%_rebuild'`)).toBe(
      0,
    );

    // The views were recreated over the rebuilt table: a new row is rolled up as it arrives.
    await insertRequest("p", 14, nowMs);
    expect(await hourly()).toBe(13);

    // A second run (a crash after the swap, say) finds every table rebuilt and changes nothing.
    const rebuilt = await parts("api_requests");
    await eventsMigrations.find((migration) => migration.version === 9)?.run?.(events, { database });
    expect(await parts("api_requests")).toEqual(rebuilt);
    expect(await hourly()).toBe(13);
  });
});
