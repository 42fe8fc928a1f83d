// EVENTS_DDL=off: a serving instance changes nothing in the events store and starts only on a
// schema `sightline migrate` brought up to date; and the README's least-privilege roles on a
// real ClickHouse server (the migrator migrates, the serving user ingests and reads).
import { inject } from "vitest";
import { afterAll, describe, expect, it } from "vitest";
import {
  type EventsExecutor,
  eventsMigrations,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { createTestContext, type TestContext } from "../support/app.js";
import {
  CLICKHOUSE_MIGRATOR_USER,
  CLICKHOUSE_SERVING_USER,
  LEAST_PRIVILEGE_DATABASE,
} from "../support/clickhouse-server.js";
import { eventsBackends, removeTestChdbPath, testChdbPath, uniqueDatabaseName } from "../support/events.js";
import { createIngestFixture, postIngest, requestRecord } from "../ingest/helpers.js";

afterAll(removeTestChdbPath);

async function startError(promise: Promise<TestContext>): Promise<Error> {
  const outcome = await promise.then(
    async (ctx) => {
      await ctx.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as Error;
}

describe.each(eventsBackends())("EVENTS_DDL=off on $name", { timeout: 60_000 }, ({ options }) => {
  const serverEnv: Record<string, string> =
    options.clickhouseUrl === undefined ? {} : { CLICKHOUSE_URL: options.clickhouseUrl };

  /** The events database as `sightline migrate` leaves it after `migrations`. */
  async function migratedDatabase(migrations = eventsMigrations): Promise<{ admin: EventsExecutor }> {
    const admin = await openEventsExecutor({ ...options, database: uniqueDatabaseName("ddl") });
    await migrateEvents(admin, migrations);
    return { admin };
  }
  const offEnv = (database: string, extra: Record<string, string> = {}) => ({
    ...serverEnv,
    CLICKHOUSE_DATABASE: database,
    EVENTS_DDL: "off",
    ...extra,
  });

  it("refuses to start when the database is missing, creating nothing", async () => {
    const database = uniqueDatabaseName("ddl");
    const error = await startError(createTestContext({ env: offEnv(database) }));
    expect(error.message).toContain(`Events database ${database} does not exist`);
    expect(error.message).toContain("sightline migrate");
    const admin = await openEventsExecutor({ ...options, database: "system" });
    try {
      const rows = await admin.query("SELECT name FROM system.databases WHERE name = {d:String}", {
        d: database,
      });
      expect(rows).toEqual([]);
    } finally {
      await admin.close();
    }
  });

  it("refuses to start on a partly migrated database, naming the missing version and the command", async () => {
    const { admin } = await migratedDatabase(eventsMigrations.slice(0, 2));
    try {
      const error = await startError(createTestContext({ env: offEnv(admin.database) }));
      const third = eventsMigrations[2];
      expect(error.message).toContain(`lacks migration version ${third?.version} (${third?.name})`);
      expect(error.message).toContain("sightline migrate");
      const tables = await admin.query<{ name: string }>(
        "SELECT name FROM system.tables WHERE database = {d:String} ORDER BY name",
        { d: admin.database },
      );
      expect(tables.map((row) => row.name)).toEqual(["api_logs", "api_requests", "schema_migrations"]);
    } finally {
      await admin.command(`DROP DATABASE IF EXISTS ${admin.database}`);
      await admin.close();
    }
  });

  it("refuses to start on a database without any history", async () => {
    const admin = await openEventsExecutor({ ...options, database: uniqueDatabaseName("ddl") });
    try {
      const error = await startError(createTestContext({ env: offEnv(admin.database) }));
      expect(error.message).toContain(`lacks migration version 1 (${eventsMigrations[0]?.name})`);
    } finally {
      await admin.command(`DROP DATABASE IF EXISTS ${admin.database}`);
      await admin.close();
    }
  });

  it("starts on a migrated database and alters no TTL or table setting", async () => {
    const { admin } = await migratedDatabase();
    const engines = () =>
      admin.query<{ name: string; engine_full: string }>(
        "SELECT name, engine_full FROM system.tables WHERE database = {d:String} ORDER BY name",
        { d: admin.database },
      );
    try {
      const before = await engines();
      const ctx = await createTestContext({
        env: offEnv(admin.database, { REQUESTS_RETENTION_DAYS: "7", LOGS_RETENTION_DAYS: "3" }),
      });
      expect((await ctx.app.inject({ method: "GET", url: "/api/v1/health" })).statusCode).toBe(200);
      await ctx.stop();
      const after = await engines();
      expect(after).toEqual(before);
      expect(after.find((row) => row.name === "api_requests")?.engine_full).not.toContain("toIntervalDay(7)");
    } finally {
      await admin.command(`DROP DATABASE IF EXISTS ${admin.database}`);
      await admin.close();
    }
  });
});

const clickhouseUrl = inject("clickhouseUrl");

describe.runIf(clickhouseUrl !== undefined && clickhouseUrl !== "")(
  "least-privilege roles on the ClickHouse server",
  { timeout: 120_000 },
  () => {
    const urlAs = (user: string) => {
      const url = new URL(clickhouseUrl);
      url.username = user;
      url.searchParams.delete("database");
      return url.toString();
    };

    it("migrates an existing database as the migrator, then serves, ingests and reads as the serving user", async (context) => {
      const admin = await openEventsExecutor({
        clickhouseUrl: urlAs(new URL(clickhouseUrl).username),
        chdbPath: testChdbPath(),
        database: "system",
      });
      const users = await admin.query<{ name: string }>(
        "SELECT name FROM system.users WHERE name IN ({m:String}, {s:String})",
        { m: CLICKHOUSE_MIGRATOR_USER, s: CLICKHOUSE_SERVING_USER },
      );
      // A server of one's own (TEST_CLICKHOUSE_URL) lacks the launcher's users.
      if (users.length < 2) {
        await admin.close();
        context.skip();
        return;
      }
      await admin.command(`DROP DATABASE IF EXISTS ${LEAST_PRIVILEGE_DATABASE}`);
      await admin.command(`CREATE DATABASE ${LEAST_PRIVILEGE_DATABASE}`);
      let serving: TestContext | undefined;
      try {
        const migrator = await createTestContext({
          env: {
            CLICKHOUSE_URL: urlAs(CLICKHOUSE_MIGRATOR_USER),
            CLICKHOUSE_DATABASE: LEAST_PRIVILEGE_DATABASE,
          },
        });
        await migrator.stop();

        serving = await createTestContext({
          env: {
            CLICKHOUSE_URL: urlAs(CLICKHOUSE_SERVING_USER),
            CLICKHOUSE_DATABASE: LEAST_PRIVILEGE_DATABASE,
            EVENTS_DDL: "off",
          },
        });
        const fx = await createIngestFixture(serving);
        const ingested = await postIngest(
          serving,
          "requests",
          { requests: [requestRecord({ path: "/least/privilege" })] },
          { key: fx.projectKey },
        );
        expect(ingested.statusCode, ingested.body).toBe(200);
        const read = await fx.api.get(`/api/v1/projects/${fx.project.slug}/data/requests`);
        expect(read.statusCode, read.body).toBe(200);
        expect(read.json<{ items: Array<{ path: string }> }>().items.map((item) => item.path)).toEqual([
          "/least/privilege",
        ]);
        // The serving user really lacks DDL rights: the grants, not luck, kept it read-and-write only.
        await expect(
          serving.deps.events.command(`CREATE TABLE ${LEAST_PRIVILEGE_DATABASE}.t (x UInt8) ENGINE = Memory`),
        ).rejects.toThrow();
      } finally {
        await serving?.close();
        await admin.command(`DROP DATABASE IF EXISTS ${LEAST_PRIVILEGE_DATABASE}`);
        await admin.close();
      }
    });
  },
);
