// The events store's public surface: opens the configured driver and migrates its schema.
import { openChdbExecutor } from "./chdb.driver.js";
import { assertIdentifier } from "./dialect.js";
import { type EventsExecutor, EventsStoreError, type QueryClass } from "./executor.js";
import { type InsertBatching, openHttpExecutor } from "./http.driver.js";
import { type EventsMigration, eventsMigrations } from "./migrations/index.js";
import type { InsertFormat } from "./row-encoding.js";
import { EventsMigrationError, runEventsMigrations } from "./migrations/runner.js";
import { onCluster } from "./tables/cluster.js";

export {
  type EventsExecutor,
  EventsStoreError,
  type InsertBatch,
  type KeysetQuery,
  type Lane,
  type QueryClass,
  type QueryParams,
} from "./executor.js";
export { type InsertBatching, insertSettings, parseClickhouseUrl } from "./http.driver.js";
export { type CallOutcome, type EventsObserver, observeExecutor } from "./observed.js";
export { createRowEncoder, type InsertFormat, type RowEncoder } from "./row-encoding.js";
export { MINIMUM_CLICKHOUSE_VERSION } from "./server-version.js";
export { type EventsTopology, SINGLE_NODE } from "./topology.js";
export * from "./tables/index.js";
export {
  createEventsWriter,
  type EventsWriter,
  type EventsWriterOptions,
  type RowChunk,
  TenantOverShareError,
  WriterClosedError,
  WriterOverloadedError,
  type WriterStats,
} from "./writer.js";
export {
  applyRetention,
  applyTableSettings,
  type EventsMigration,
  type EventsMigrationContext,
  EventsMigrationError,
  eventsMigrations,
  type RetentionDays,
  verifyEventsSchema,
} from "./migrations/index.js";

export interface EventsStoreOptions {
  /** `http(s)://user:password@host:port[?database=name]` selects a ClickHouse server; unset or
   *  empty selects embedded chDB. */
  clickhouseUrl?: string | undefined;
  /** chDB data directory (one per process); ignored when clickhouseUrl is set. */
  chdbPath: string;
  /** The events database, created if missing (unless ddl is "off"); a `?database=` in
   *  clickhouseUrl overrides it. */
  database: string;
  /** "off": never run DDL, so a missing database is an error (EVENTS_DDL; default "auto"). */
  ddl?: EventsDdl | undefined;
  /** Internal, for tests: the oldest ClickHouse server accepted (default
   *  MINIMUM_CLICKHOUSE_VERSION). */
  clickhouseMinimumVersion?: string | undefined;
  /** Seconds a server read of each class may run (0 or absent: no limit); chDB ignores it. */
  maxExecutionTime?: Partial<Readonly<Record<QueryClass, number>>> | undefined;
  /** Names this process in every server statement's log_comment (default hostname-pid). */
  instanceId?: string | undefined;
  /** How a server batches inserts (INGEST_SERVER_BATCHING; default "async"); chDB ignores it. */
  insertBatching?: InsertBatching | undefined;
  /** The body format ingest builds its inserts in (INGEST_INSERT_FORMAT; default RowBinary). */
  insertFormat?: InsertFormat | undefined;
  /** A sharded cluster (CLICKHOUSE_CLUSTER) the events tables span; only with clickhouseUrl. */
  cluster?: { readonly name: string; readonly ddl: "on-cluster" | "per-node" } | undefined;
}

/** Whether this instance may change the events schema (EVENTS_DDL). */
export type EventsDdl = "auto" | "off";

/** Opens the driver the options select and makes sure its database exists. */
export async function openEventsExecutor(options: EventsStoreOptions): Promise<EventsExecutor> {
  const executor = options.clickhouseUrl
    ? await openHttpExecutor({
        url: options.clickhouseUrl,
        database: options.database,
        minimumVersion: options.clickhouseMinimumVersion,
        maxExecutionTime: options.maxExecutionTime,
        instanceId: options.instanceId,
        insertBatching: options.insertBatching,
        insertFormat: options.insertFormat,
        topology:
          options.cluster === undefined
            ? undefined
            : {
                kind: "cluster",
                cluster: assertIdentifier(options.cluster.name, "cluster"),
                ddl: options.cluster.ddl,
              },
      })
    : await openChdbExecutor({
        path: options.chdbPath,
        database: options.database,
        insertFormat: options.insertFormat,
      });
  if (options.cluster !== undefined && executor.topology.kind !== "cluster") {
    await executor.close();
    throw new EventsMigrationError("A ClickHouse cluster needs a ClickHouse server (CLICKHOUSE_URL)");
  }
  try {
    await ensureDatabase(executor, options.ddl ?? "auto");
    await verifyRowShape(executor);
    return executor;
  } catch (error) {
    await executor.close();
    throw error;
  }
}

/** Applies the migrations the store has not recorded yet; returns the names applied now. */
export function migrateEvents(
  executor: EventsExecutor,
  migrations: readonly EventsMigration[] = eventsMigrations,
): Promise<string[]> {
  return runEventsMigrations(executor, migrations);
}

/** CREATE DATABASE only when the database is missing: a user granted rights on an existing
 *  database's tables alone lacks the CREATE DATABASE right, even with IF NOT EXISTS. */
async function ensureDatabase(executor: EventsExecutor, ddl: EventsDdl): Promise<void> {
  const database = assertIdentifier(executor.database, "database");
  const rows = await executor.query<{ name: string }>(
    "SELECT name FROM system.databases WHERE name = {database:String}",
    { database },
    "write",
  );
  if (rows.length > 0) return;
  if (ddl === "off") {
    throw new EventsMigrationError(
      `Events database ${database} does not exist and EVENTS_DDL=off forbids this instance to ` +
        "create it: run `sightline migrate` first.",
    );
  }
  await executor.command(`CREATE DATABASE IF NOT EXISTS ${database}${onCluster(executor.topology)}`);
}

/**
 * Services parse rows assuming ISO date-times and numeric 64-bit counts. chDB ignores unknown
 * engine arguments and a server profile can pin settings, so a silently lost setting would
 * otherwise surface as wrong dashboards rather than a failed start.
 */
async function verifyRowShape(executor: EventsExecutor): Promise<void> {
  const [row] = await executor.query<{ at: unknown; n: unknown }>(
    "SELECT toDateTime64('2026-01-02 03:04:05.678', 3, 'UTC') AS at, toUInt64(9007199254740991) AS n",
  );
  if (row?.at !== "2026-01-02T03:04:05.678Z" || row.n !== 9_007_199_254_740_991) {
    throw new EventsStoreError(
      `Events store output settings did not take effect on ${executor.engine}: got ${JSON.stringify(row)}`,
      "unavailable",
    );
  }
}

/** The time zones the engine can load (`system.time_zones`), for checking zone names before
 *  they reach a query: a name it lacks fails the statement. */
export async function loadEngineTimeZones(executor: EventsExecutor): Promise<string[]> {
  const rows = await executor.query<{ time_zone: string }>("SELECT time_zone FROM system.time_zones");
  return rows.map((row) => row.time_zone);
}
