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
    `ALTER TABLE ${database}.${LISTS_BACKFILL_SNAPSHOT} ATTACH PARTITION tuple() FROM ${database}.${API_REQUESTS.name}`,
  ],
};
