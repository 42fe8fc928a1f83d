// Events migration 10: the daily list rollups (endpoints, consumers; ../tables/rollups.table.ts),
// their views, and a snapshot of the rows stored before those views existed, which the backfill
// job rolls up day by day and then drops (the same scheme as migration 6, ADR 0018).
import {
  API_REQUESTS,
  createTableStatements,
  createViewStatement,
  LIST_ROLLUPS,
  LISTS_BACKFILL_SNAPSHOT,
  LISTS_ROLLUP_STATE,
  onCluster,
  snapshotStatements,
  storageName,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const listRollupsMigration: EventsMigration = {
  version: 10,
  name: "list-rollups",
  statements: ({ database, topology }) => [
    ...LIST_ROLLUPS.flatMap((rollup) => createTableStatements(topology, rollup.table, database, 10)),
    ...createTableStatements(topology, LISTS_ROLLUP_STATE, database, 10),
    // Views first, then the snapshot: a row is in one of them, never in neither.
    ...LIST_ROLLUPS.map((rollup) => createViewStatement(topology, rollup, database, API_REQUESTS.name, 10)),
    ...snapshotStatements(topology, API_REQUESTS, database, 10, LISTS_BACKFILL_SNAPSHOT),
  ],
  // api_requests is partitioned since migration 9: the snapshot takes each partition by id
  // (hard links, no copy), which every supported server version understands.
  async run(executor, { database, topology }) {
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
        `ALTER TABLE ${database}.${storageName(topology, LISTS_BACKFILL_SNAPSHOT)}${onCluster(topology)} ` +
          `ATTACH PARTITION ID '${partition_id}' FROM ${database}.${storageName(topology, API_REQUESTS.name)}`,
      );
    }
  },
};
