// The migrator's lock on both metadata engines: two migrations of the same stores at once run one
// after the other (the second waits, then finds nothing to do), and a crashed holder's lease
// runs out so the next migrator proceeds.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemClock, toIsoTimestamp } from "../../src/clock.js";
import { createLeasesRepo } from "../../src/stores/metadata/repos/leases.repo.js";
import { EVENTS_MIGRATION_LEASE, withMigrationLock } from "../../src/stores/migration-lock.js";
import {
  type EventsExecutor,
  type EventsMigration,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { removeTestChdbPath, testChdbPath, uniqueDatabaseName } from "../support/events.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";

afterAll(removeTestChdbPath);

// Slow enough that, unserialised, both migrators read an empty history before either records.
const migrations: EventsMigration[] = [
  {
    version: 1,
    name: "slow_table",
    statements: ({ database }) => [
      "SELECT sleep(0.3)",
      `CREATE TABLE IF NOT EXISTS ${database}.slow_table (x UInt8) ENGINE = MergeTree ORDER BY x`,
    ],
  },
];

describe.each(metadataBackends())(
  "migrator lock on $name",
  { timeout: 60_000 },
  (backend: MetadataBackend) => {
    let ctx: TestContext;
    let first: EventsExecutor;
    let second: EventsExecutor;

    beforeEach(async () => {
      ctx = await createTestContext({ metadata: backend });
      const database = uniqueDatabaseName("lock");
      first = await openEventsExecutor({ chdbPath: testChdbPath(), database });
      second = await openEventsExecutor({ chdbPath: testChdbPath(), database });
    });
    afterEach(async () => {
      await first.command(`DROP DATABASE IF EXISTS ${first.database}`);
      await first.close();
      await second.close();
      await ctx.close();
    });

    const lockOptions = (onWait?: () => void) => ({
      leases: createLeasesRepo(ctx.deps.metadata.db),
      clock: systemClock,
      pollMs: 20,
      ...(onWait === undefined ? {} : { onWait }),
    });

    it("serialises two concurrent migrations: the second waits, then finds nothing to do", async () => {
      let waits = 0;
      const onWait = () => {
        waits += 1;
      };
      const results = await Promise.all([
        withMigrationLock(lockOptions(onWait), () => migrateEvents(first, migrations)),
        withMigrationLock(lockOptions(onWait), () => migrateEvents(second, migrations)),
      ]);
      expect(waits).toBe(1);
      expect(results.map((names) => names.length).sort()).toEqual([0, 1]);
      const rows = await first.query(`SELECT version FROM ${first.database}.schema_migrations`);
      expect(rows).toEqual([{ version: 1 }]);
      // Released after use: nothing left behind for the next migrator to wait on.
      const left = await ctx.deps.metadata.db.selectFrom("leases").selectAll().execute();
      expect(left.filter((row) => row.name === EVENTS_MIGRATION_LEASE)).toEqual([]);
    });

    it("takes over the lease of a crashed holder once it expires", async () => {
      const leases = createLeasesRepo(ctx.deps.metadata.db);
      const now = Date.now();
      // A holder that died mid-migration: its lease is never renewed nor released.
      expect(
        await leases.acquire(
          EVENTS_MIGRATION_LEASE,
          "crashed-migrator",
          toIsoTimestamp(new Date(now)),
          toIsoTimestamp(new Date(now + 300)),
        ),
      ).toBe(true);
      let waited = false;
      const applied = await withMigrationLock(
        lockOptions(() => {
          waited = true;
        }),
        () => migrateEvents(first, migrations),
      );
      expect(waited).toBe(true);
      expect(applied).toEqual(["slow_table"]);
    });
  },
);
