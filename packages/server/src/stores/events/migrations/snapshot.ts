// A rollup generation's migration since api_requests is partitioned (9): its tables, views and
// snapshot, and the snapshot's rows, every partition of api_requests attached to it (hard links,
// no copy).
import type { RollupGeneration } from "../queries/rollups/generations.js";
import {
  API_REQUESTS,
  createTableStatements,
  createViewStatement,
  onCluster,
  snapshotStatements,
  storageName,
} from "../tables/index.js";
import type { EventsMigration, EventsMigrationContext } from "./runner.js";
import type { EventsExecutor } from "../executor.js";

/**
 * The migration that adds `generation`: its rollups' tables and its progress table, the views
 * that feed the rollups (from api_requests, or the finer rollup a coarse one is fed from), then
 * its empty snapshot of api_requests, filled with the stored partitions. Views first: a row is
 * in a view's rollup or in the snapshot, never in neither (ADR 0018).
 */
export function rollupGenerationMigration(name: string, generation: RollupGeneration): EventsMigration {
  const { version, rollups, state, snapshot } = generation;
  return {
    version,
    name,
    statements: ({ database, topology }) => [
      ...rollups.flatMap((rollup) => createTableStatements(topology, rollup.table, database, version)),
      ...createTableStatements(topology, state, database, version),
      ...rollups.map((rollup) =>
        createViewStatement(
          topology,
          rollup,
          database,
          rollup.fedFrom?.table.name ?? API_REQUESTS.name,
          version,
        ),
      ),
      ...snapshotStatements(topology, API_REQUESTS, database, version, snapshot),
    ],
    run: (executor, ctx) => attachRequestPartitions(executor, ctx, snapshot),
  };
}

export async function attachRequestPartitions(
  executor: EventsExecutor,
  { database, topology }: EventsMigrationContext,
  snapshot: string,
): Promise<void> {
  // `_partition_id` needs only SELECT on the table (system.parts needs a grant of its own).
  // On a cluster the Distributed table answers every shard's partitions; ATTACH ON CLUSTER
  // then takes what each node has of them (per-node mode: the connected node's own).
  const source =
    topology.kind === "cluster" && topology.ddl === "per-node"
      ? storageName(topology, API_REQUESTS.name)
      : API_REQUESTS.name;
  const partitions = await executor.query<{ partition_id: string }>(
    `SELECT DISTINCT _partition_id AS partition_id FROM ${database}.${source}`,
    undefined,
    "write",
  );
  for (const { partition_id } of partitions) {
    // The statement takes a literal, not a parameter; ids are the engine's own [0-9a-z_-].
    if (!/^[0-9A-Za-z_-]+$/.test(partition_id)) throw new Error(`Unexpected partition id ${partition_id}`);
    await executor.command(
      `ALTER TABLE ${database}.${storageName(topology, snapshot)}${onCluster(topology)} ` +
        `ATTACH PARTITION ID '${partition_id}' FROM ${database}.${storageName(topology, API_REQUESTS.name)}`,
    );
  }
}
