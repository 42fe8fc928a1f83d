// The rows of a rollup generation's snapshot: every partition of api_requests attached to it
// (hard links, no copy), for the migrations since api_requests is partitioned (9).
import { API_REQUESTS, onCluster, storageName } from "../tables/index.js";
import type { EventsMigrationContext } from "./runner.js";
import type { EventsExecutor } from "../executor.js";

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
