// Events migration 9: the raw tables (requests, logs, spans, uptime results) move to weekly
// partitions with a per-row retention column (../tables/layouts.ts), and every table expires
// by dropping whole parts (`ttl_only_drop_parts`). A partition key cannot be altered, so each
// table is rebuilt beside itself, copied a day at a time and swapped in atomically
// (docs/adr/0023-partitions-and-retention.md).
import { assertIdentifier } from "../dialect.js";
import type { EventsExecutor } from "../executor.js";
import {
  API_LOGS,
  API_REQUESTS,
  API_SPANS,
  createTableStatements,
  createViewStatement,
  distributedColumnsStatements,
  type EventsTable,
  onCluster,
  ROLLUP_STATE,
  ROLLUPS,
  storageName,
  UPTIME_RESULTS,
} from "../tables/index.js";
import { LAYOUT_VERSION } from "../tables/layouts.js";
import { EventsMigrationError, type EventsMigration, type EventsMigrationContext } from "./runner.js";

const REBUILT: readonly EventsTable[] = [API_REQUESTS, API_LOGS, API_SPANS, UPTIME_RESULTS];

/** The copy a table is rebuilt into before the swap; after it, the old table under this name. */
export const rebuildName = (table: EventsTable): string => `${table.name}_rebuild`;

/** The rollups whose views existed before this migration (later migrations add their own). */
const EARLIER_ROLLUPS = ROLLUPS.filter((rollup) =>
  rollup.table.columns.some((column) => column.since < LAYOUT_VERSION),
);

export const partitionsMigration: EventsMigration = {
  version: LAYOUT_VERSION,
  name: "partitions_and_retention",
  statements: () => [],
  async run(executor, ctx) {
    for (const table of REBUILT) await rebuild(executor, ctx, table);
    // Views read api_requests by name: recreated over the rebuilt table (idempotent, so a
    // crash between the swap and here is repaired by the re-run).
    for (const rollup of EARLIER_ROLLUPS) {
      await executor.command(
        createViewStatement(ctx.topology, rollup, ctx.database, API_REQUESTS.name, LAYOUT_VERSION),
      );
    }
    // Rollups keep their partitions; they too expire by whole parts from now on (metadata only).
    for (const table of [...EARLIER_ROLLUPS.map((rollup) => rollup.table), ROLLUP_STATE]) {
      const stored = storageName(ctx.topology, table.name, table.shardBy !== undefined);
      await executor.command(
        `ALTER TABLE ${ctx.database}.${stored}${onCluster(ctx.topology)} MODIFY SETTING ttl_only_drop_parts = 1`,
      );
    }
  },
};

/**
 * Rebuilds `table` into its partitioned layout unless it has it already: creates the copy
 * (emptied, so an interrupted run starts over), copies the old rows one UTC day per statement
 * (each insert fills one partition; `retention_days` stays 0: the server-wide days), swaps the
 * two tables in one `EXCHANGE`, then drops the old one. Rows are in the old table until the
 * swap and in the new one after it; nothing ingests while migrations run.
 */
async function rebuild(
  executor: EventsExecutor,
  ctx: EventsMigrationContext,
  table: EventsTable,
): Promise<void> {
  const database = assertIdentifier(ctx.database, "database");
  const { topology } = ctx;
  const on = onCluster(topology);
  // On a cluster the stored (local) tables are rebuilt and swapped; the Distributed table over
  // them keeps its name and gains the layout's columns.
  const copyName = storageName(topology, rebuildName(table));
  const copy = `${database}.${copyName}`;
  const target = `${database}.${storageName(topology, table.name)}`;
  const dropCopy = `DROP TABLE IF EXISTS ${copy}${on} SYNC`;
  if (await isPartitioned(executor, database, storageName(topology, table.name))) {
    await executor.command(dropCopy);
    return;
  }
  // ON CLUSTER runs DDL on every node but an INSERT … SELECT on one: rows could only be copied
  // node by node. Sightline's cluster mode starts from an empty database (docs/adr/0024), so a
  // cluster that has rows here was migrated some other way; refuse rather than lose them.
  if (on !== "") {
    const [row] = await executor.query<{ n: number }>(
      `SELECT count() AS n FROM ${database}.${table.name}`,
      undefined,
      "write",
    );
    if ((row?.n ?? 0) > 0) {
      throw new EventsMigrationError(
        `Events migration ${LAYOUT_VERSION} cannot rebuild ${table.name} on cluster ` +
          `${topology.kind === "cluster" ? topology.cluster : ""}: it holds rows, and ON CLUSTER ` +
          "copies no rows. Migrate each node with CLICKHOUSE_CLUSTER_DDL=per-node, then resume.",
      );
    }
  }
  if (table === API_REQUESTS) {
    // The views must not be fed by the copy's inserts, nor point at the old table after the swap.
    for (const rollup of EARLIER_ROLLUPS)
      await executor.command(`DROP VIEW IF EXISTS ${database}.${rollup.view}${on} SYNC`);
  }
  await executor.command(dropCopy);
  // The copy is stored only (no Distributed table of its own): it is read on this node.
  const [createCopy] = createTableStatements(topology, table, database, LAYOUT_VERSION, rebuildName(table));
  if (createCopy === undefined) throw new Error(`no statement creates ${copyName}`);
  await executor.command(createCopy);
  const columns = table.columns
    .filter((column) => column.since < LAYOUT_VERSION)
    .map((column) => column.name)
    .join(", ");
  const days = await executor.query<{ day: string }>(
    `SELECT DISTINCT toString(toDate(timestamp)) AS day FROM ${target} ORDER BY day`,
    undefined,
    "write",
  );
  // Rows stored before are placed by their own day: the week they would have arrived in.
  const stored = table.columns.some((column) => column.name === "stored_on");
  for (const { day } of days) {
    await executor.command(
      `INSERT INTO ${copy} (${columns}${stored ? ", stored_on" : ""}) ` +
        `SELECT ${columns}${stored ? ", toDate(timestamp)" : ""} FROM ${target} ` +
        "WHERE toDate(timestamp) = toDate({day:String})",
      { day },
    );
  }
  await executor.command(`EXCHANGE TABLES ${target} AND ${copy}${on}`);
  await executor.command(dropCopy);
  for (const statement of distributedColumnsStatements(topology, table, database, LAYOUT_VERSION))
    await executor.command(statement);
}

async function isPartitioned(executor: EventsExecutor, database: string, table: string): Promise<boolean> {
  const rows = await executor.query<{ partition_key: string }>(
    "SELECT partition_key FROM system.tables WHERE database = {database:String} AND name = {table:String}",
    { database, table },
    "write",
  );
  return rows.some((row) => row.partition_key !== "");
}
