// The events tables ingest writes, on every backend: the columns the writer serialises, the
// sort key the queries rely on, partitions by day and retention (docs/adr/0023), and a TTL that
// follows the retention knobs from one start to the next.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_LOGS, API_REQUESTS, API_SPANS } from "../../src/stores/events/index.js";
import { eventsMigrations } from "../../src/stores/events/migrations/index.js";
import {
  applyRetention,
  applyTableSettings,
  type EventsExecutor,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { eventsBackends, removeTestChdbPath, uniqueDatabaseName } from "../support/events.js";

afterAll(removeTestChdbPath);

describe.each(eventsBackends())("ingest tables on $name", ({ options }) => {
  let events: EventsExecutor;
  let database: string;

  const table = async (name: string) =>
    (
      await events.query<{ sorting_key: string; partition_key: string; engine_full: string }>(
        "SELECT sorting_key, partition_key, engine_full FROM system.tables WHERE database = {db:String} AND name = {name:String}",
        { db: database, name },
      )
    )[0];
  const columns = async (name: string) =>
    (
      await events.query<{ name: string }>(
        "SELECT name FROM system.columns WHERE database = {db:String} AND table = {name:String} ORDER BY position",
        { db: database, name },
      )
    ).map((column) => column.name);

  beforeEach(async () => {
    database = uniqueDatabaseName("sc");
    events = await openEventsExecutor({ ...options, database });
    expect(await migrateEvents(events)).toEqual(eventsMigrations.map((migration) => migration.name));
  });
  afterEach(async () => {
    await events.command(`DROP DATABASE IF EXISTS ${database}`);
    await events.close();
  });

  it("has exactly the columns the writer serialises, in its order", async () => {
    expect(await columns("api_requests")).toEqual([...API_REQUESTS.columnNames]);
    expect(await columns("api_logs")).toEqual([...API_LOGS.columnNames]);
    expect(await columns("api_spans")).toEqual([...API_SPANS.columnNames]);
  });

  it("orders rows by project, then time (then id), in partitions of a week and a retention", async () => {
    for (const name of ["api_requests", "api_logs", "api_spans"]) {
      expect(await table(name)).toMatchObject({ sorting_key: "project_id, timestamp, id" });
      expect((await table(name))?.partition_key).toMatch(/toMonday\(stored_on\), retention_days/);
    }
  });

  it("keeps 90 days of requests and 30 of logs until the knobs say otherwise, then follows them", async () => {
    expect((await table("api_requests"))?.engine_full).toContain(
      "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 90, retention_days))",
    );
    expect((await table("api_logs"))?.engine_full).toContain(
      "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 30, retention_days))",
    );
    expect((await table("api_spans"))?.engine_full).toContain(
      "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 30, retention_days))",
    );
    expect(await applyRetention(events, { api_requests: 90, api_logs: 30, api_spans: 30 })).toEqual([]);
    expect(await applyRetention(events, { api_spans: 14 })).toEqual(["api_spans"]);
    expect((await table("api_spans"))?.engine_full).toContain(
      "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 14, retention_days))",
    );

    expect(await applyRetention(events, { api_requests: 7, api_logs: 3 })).toEqual([
      "api_requests",
      "api_logs",
    ]);
    expect((await table("api_requests"))?.engine_full).toContain(
      "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 7, retention_days))",
    );
    expect((await table("api_logs"))?.engine_full).toContain(
      "TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 3, retention_days))",
    );
    expect(await applyRetention(events, { api_requests: 7, api_logs: 3 })).toEqual([]);
  });

  it("carries the driver's MergeTree settings on every table, set once and kept on restart", async () => {
    const wanted = Object.entries(events.tableSettings);
    const tables = ["api_requests", "api_logs", "api_spans"];
    if (wanted.length === 0) {
      expect(await applyTableSettings(events)).toEqual([]);
      return;
    }
    expect(await applyTableSettings(events)).toEqual(expect.arrayContaining(tables));
    for (const name of tables) {
      for (const [setting, value] of wanted) {
        expect((await table(name))?.engine_full).toContain(`${setting} = ${value}`);
      }
      // The settings the table was created with survive the change.
      expect((await table(name))?.engine_full).toContain("fsync_after_insert = 1");
    }
    expect(await applyTableSettings(events)).toEqual([]);
  });

  it("drops rows past the new retention once an operator materializes it (MATERIALIZE TTL)", async () => {
    // A week apart, each stored in its own week: one part per row, dropped whole when expired.
    await events.command(
      `INSERT INTO ${database}.api_logs (id, project_id, app_id, timestamp, environment, level, message, stored_on) ` +
        "SELECT generateUUIDv7(), 'p', 'a', now64(3) - toIntervalDay(number * 7) AS at, 'prod', 'INFO', 'm', toDate(at) " +
        "FROM numbers(10)",
    );
    await applyRetention(events, { api_logs: 20 });
    // The change itself rewrites nothing (docs/adr/0023); the operator's explicit step applies it
    // to existing parts.
    await events.command(`ALTER TABLE ${database}.api_logs MATERIALIZE TTL SETTINGS mutations_sync = 2`);
    let remaining = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 100 && remaining > 3; attempt++) {
      remaining =
        (await events.query<{ n: number }>(`SELECT count() AS n FROM ${database}.api_logs`))[0]?.n ?? 0;
      if (remaining > 3) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Ages 0, 7 and 14 days remain.
    expect(remaining).toBe(3);
  });
});
