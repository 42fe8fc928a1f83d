// The events schema's migration runner: history kept in `schema_migrations` inside the events store.
import { assertIdentifier } from "../dialect.js";
import type { EventsExecutor } from "../executor.js";
import { onCluster, storageEngine } from "../tables/cluster.js";
import type { EventsTopology } from "../topology.js";

export interface EventsMigrationContext {
  /** Every table a statement names is qualified with it: `${ctx.database}.api_requests`. */
  readonly database: string;
  /** One node or a cluster: which DDL each statement takes (../tables/cluster.ts). */
  readonly topology: EventsTopology;
}

export interface EventsMigration {
  /** Positive integer; applied in ascending order and never renumbered once released. */
  readonly version: number;
  readonly name: string;
  /** Each must be idempotent (`IF NOT EXISTS`, `IF EXISTS`): a crash between a statement and
   *  the migration's record re-runs the whole migration on the next start. */
  statements(ctx: EventsMigrationContext): string[];
  /** Run after `statements` when a migration must read before it writes (a rebuild that copies
   *  what it finds); idempotent in the same sense. */
  run?(executor: EventsExecutor, ctx: EventsMigrationContext): Promise<void>;
}

/** The recorded history cannot be reconciled with the migrations this build knows. */
export class EventsMigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EventsMigrationError";
  }
}

/** Applies the migrations missing from the history, in version order; returns their names. */
export async function runEventsMigrations(
  executor: EventsExecutor,
  migrations: readonly EventsMigration[],
): Promise<string[]> {
  const ordered = checkedInOrder(migrations);
  const database = assertIdentifier(executor.database, "database");
  const { topology } = executor;
  await executor.command(historyTableDdl(database, topology));
  const applied = await appliedVersions(executor, database);
  refuseUnknownHistory(applied, ordered, database);
  const names: string[] = [];
  for (const migration of ordered) {
    if (applied.has(migration.version)) continue;
    for (const statement of migration.statements({ database, topology })) await executor.command(statement);
    await migration.run?.(executor, { database, topology });
    await record(executor, database, migration);
    names.push(migration.name);
  }
  await refuseOtherTopology(executor, database);
  return names;
}

/** On a cluster, refuses a database whose tables were created for one node (plain tables where
 *  the Distributed ones belong): reads would see one node's rows only. */
async function refuseOtherTopology(executor: EventsExecutor, database: string): Promise<void> {
  if (executor.topology.kind !== "cluster") return;
  const rows = await executor.query<{ engine: string }>(
    "SELECT engine FROM system.tables WHERE database = {database:String} AND name = 'api_requests'",
    { database },
    "write",
  );
  const engine = rows[0]?.engine;
  if (engine !== undefined && engine !== "Distributed") {
    throw new EventsMigrationError(
      `Events database ${database} was created for one node (api_requests is ${engine}, not ` +
        `Distributed), so CLICKHOUSE_CLUSTER=${executor.topology.cluster} cannot use it: start the ` +
        "cluster on a new CLICKHOUSE_DATABASE (docs/adr/0024-clickhouse-clusters.md).",
    );
  }
}

/**
 * For an instance that never runs DDL (EVENTS_DDL=off): resolves when the history records every
 * migration this build knows, else throws naming the first missing version and the command that
 * applies it. Reads only, so it works for a user holding SELECT alone.
 */
export async function verifyEventsSchema(
  executor: EventsExecutor,
  migrations: readonly EventsMigration[],
): Promise<void> {
  const ordered = checkedInOrder(migrations);
  const database = assertIdentifier(executor.database, "database");
  const tables = await executor.query<{ name: string }>(
    "SELECT name FROM system.tables WHERE database = {database:String} AND name = 'schema_migrations'",
    { database },
  );
  const applied =
    tables.length === 0
      ? new Set<number>()
      : new Set(
          (
            await executor.query<{ version: number }>(
              `SELECT DISTINCT version FROM ${database}.schema_migrations ORDER BY version`,
            )
          ).map((row) => row.version),
        );
  refuseUnknownHistory(applied, ordered, database);
  await refuseOtherTopology(executor, database);
  const missing = ordered.filter((migration) => !applied.has(migration.version));
  const first = missing[0];
  if (first !== undefined) {
    throw new EventsMigrationError(
      `Events database ${database} lacks migration version ${first.version} (${first.name})` +
        (missing.length > 1 ? ` and ${missing.length - 1} later one(s)` : "") +
        " and EVENTS_DDL=off forbids this instance to apply it: run `sightline migrate` first.",
    );
  }
}

function checkedInOrder(migrations: readonly EventsMigration[]): EventsMigration[] {
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  ordered.forEach((migration, index) => {
    if (!Number.isInteger(migration.version) || migration.version < 1 || migration.version > 0xffff_ffff) {
      throw new EventsMigrationError(
        `Events migration ${migration.name} has invalid version ${migration.version}`,
      );
    }
    if (index > 0 && ordered[index - 1]?.version === migration.version) {
      throw new EventsMigrationError(`Events migration version ${migration.version} is used twice`);
    }
  });
  return ordered;
}

// ReplacingMergeTree: two instances migrating at once may record a version twice; reads
// take DISTINCT versions and merges fold the duplicates. On a cluster (ON CLUSTER mode) one
// history for the whole cluster: every node is a replica of it, so any node reads it whole.
function historyTableDdl(database: string, topology: EventsTopology): string {
  return (
    `CREATE TABLE IF NOT EXISTS ${database}.schema_migrations${onCluster(topology)} ` +
    "(version UInt32, name String, applied_at DateTime64(3, 'UTC')) " +
    `ENGINE = ${storageEngine(topology, "ReplacingMergeTree", database, "schema_migrations", false)} ORDER BY version`
  );
}

async function appliedVersions(executor: EventsExecutor, database: string): Promise<Set<number>> {
  // Write lane: ordered after the DDL above on the same session.
  const rows = await executor.query<{ version: number }>(
    `SELECT DISTINCT version FROM ${database}.schema_migrations ORDER BY version`,
    undefined,
    "write",
  );
  return new Set(rows.map((row) => row.version));
}

function refuseUnknownHistory(
  applied: Set<number>,
  known: readonly EventsMigration[],
  database: string,
): void {
  const knownVersions = new Set(known.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !knownVersions.has(version));
  if (unknown.length > 0) {
    throw new EventsMigrationError(
      `Events database ${database} records migration version(s) ${unknown.join(", ")} that this build ` +
        "does not know: a newer Sightline has migrated it. Run that version or newer.",
    );
  }
}

async function record(executor: EventsExecutor, database: string, migration: EventsMigration): Promise<void> {
  await executor.command(
    `INSERT INTO ${database}.schema_migrations (version, name, applied_at) ` +
      "SELECT {version:UInt32}, {name:String}, now64(3, 'UTC')",
    { version: migration.version, name: migration.name },
  );
}
