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
  createTableStatement,
  type EventsTable,
  ROLLUP_STATE,
  ROLLUPS,
  rollupSelect,
  UPTIME_RESULTS,
} from "../tables/index.js";
import { LAYOUT_VERSION } from "../tables/layouts.js";
import type { EventsMigration, EventsMigrationContext } from "./runner.js";

const REBUILT: readonly EventsTable[] = [API_REQUESTS, API_LOGS, API_SPANS, UPTIME_RESULTS];

/** The copy a table is rebuilt into before the swap; after it, the old table under this name. */
export const rebuildName = (table: EventsTable): string => `${table.name}_rebuild`;

/** The rollups whose views existed before this migration (later migrations add their own). */
const EARLIER_ROLLUPS = ROLLUPS.filter((rollup) =>
  rollup.table.columns.every((column) => column.since < LAYOUT_VERSION),
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
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${ctx.database}.${rollup.view} TO ${ctx.database}.${rollup.table.name} ` +
          `AS ${rollupSelect(rollup, `${ctx.database}.${API_REQUESTS.name}`)}`,
      );
    }
    // Rollups keep their partitions; they too expire by whole parts from now on (metadata only).
    for (const table of [...EARLIER_ROLLUPS.map((rollup) => rollup.table), ROLLUP_STATE]) {
      await executor.command(
        `ALTER TABLE ${ctx.database}.${table.name} MODIFY SETTING ttl_only_drop_parts = 1`,
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
  const copy = `${database}.${rebuildName(table)}`;
  const target = `${database}.${table.name}`;
  if (await isPartitioned(executor, database, table.name)) {
    await executor.command(`DROP TABLE IF EXISTS ${copy} SYNC`);
    return;
  }
  if (table === API_REQUESTS) {
    // The views must not be fed by the copy's inserts, nor point at the old table after the swap.
    for (const rollup of EARLIER_ROLLUPS)
      await executor.command(`DROP VIEW IF EXISTS ${database}.${rollup.view} SYNC`);
  }
  await executor.command(`DROP TABLE IF EXISTS ${copy} SYNC`);
  await executor.command(createTableStatement(table, database, LAYOUT_VERSION, rebuildName(table)));
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
  await executor.command(`EXCHANGE TABLES ${target} AND ${copy}`);
  await executor.command(`DROP TABLE IF EXISTS ${copy} SYNC`);
}

async function isPartitioned(executor: EventsExecutor, database: string, table: string): Promise<boolean> {
  const rows = await executor.query<{ partition_key: string }>(
    "SELECT partition_key FROM system.tables WHERE database = {database:String} AND name = {table:String}",
    { database, table },
    "write",
  );
  return rows.some((row) => row.partition_key !== "");
}
