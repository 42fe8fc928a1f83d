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
  snapshotStatements,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";
import { attachRequestPartitions } from "./snapshot.js";

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
  run: (executor, ctx) => attachRequestPartitions(executor, ctx, LISTS_BACKFILL_SNAPSHOT),
};
