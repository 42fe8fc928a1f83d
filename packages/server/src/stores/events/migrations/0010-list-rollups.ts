// Events migration 10: the daily list rollups (endpoints, consumers; ../tables/rollups.table.ts),
// their views, and a snapshot of the rows stored before those views existed, which the backfill
// job rolls up day by day and then drops (the same scheme as migration 6, ADR 0018).
import {
  API_REQUESTS,
  createTableStatement,
  LIST_ROLLUPS,
  LISTS_BACKFILL_SNAPSHOT,
  LISTS_ROLLUP_STATE,
  rollupSelect,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const listRollupsMigration: EventsMigration = {
  version: 10,
  name: "list-rollups",
  statements: ({ database }) => [
    ...LIST_ROLLUPS.map((rollup) => createTableStatement(rollup.table, database, 10)),
    createTableStatement(LISTS_ROLLUP_STATE, database, 10),
    // Views first, then the snapshot: a row is in one of them, never in neither.
    ...LIST_ROLLUPS.map(
      (rollup) =>
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.${rollup.view} TO ${database}.${rollup.table.name} ` +
        `AS ${rollupSelect(rollup, `${database}.${API_REQUESTS.name}`)}`,
    ),
    `CREATE TABLE IF NOT EXISTS ${database}.${LISTS_BACKFILL_SNAPSHOT} AS ${database}.${API_REQUESTS.name}`,
    `TRUNCATE TABLE IF EXISTS ${database}.${LISTS_BACKFILL_SNAPSHOT}`,
  ],
  // api_requests is partitioned since migration 9: the snapshot takes each partition by id
  // (hard links, no copy), which every supported server version understands.
  async run(executor, { database }) {
    // `_partition_id` needs only SELECT on the table (system.parts needs a grant of its own).
    const partitions = await executor.query<{ partition_id: string }>(
      `SELECT DISTINCT _partition_id AS partition_id FROM ${database}.${API_REQUESTS.name}`,
      undefined,
      "write",
    );
    for (const { partition_id } of partitions) {
      // The statement takes a literal, not a parameter; ids are the engine's own [0-9a-z_-].
      if (!/^[0-9A-Za-z_-]+$/.test(partition_id)) throw new Error(`Unexpected partition id ${partition_id}`);
      await executor.command(
        `ALTER TABLE ${database}.${LISTS_BACKFILL_SNAPSHOT} ATTACH PARTITION ID '${partition_id}' ` +
          `FROM ${database}.${API_REQUESTS.name}`,
      );
    }
  },
};
