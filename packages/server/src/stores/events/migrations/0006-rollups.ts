// Events migration 6: the request rollups (../tables/rollups.table.ts), the views that feed them
// from every insert into api_requests, and a snapshot of the rows stored before the views
// existed, which the backfill job (../rollups/backfill.ts) rolls up day by day and then drops.
import {
  API_REQUESTS,
  BACKFILL_SNAPSHOT,
  createTableStatement,
  ROLLUP_STATE,
  HOURLY_ROLLUPS,
  rollupSelect,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const rollupsMigration: EventsMigration = {
  version: 6,
  name: "rollups",
  statements: ({ database }) => [
    ...HOURLY_ROLLUPS.map((rollup) => createTableStatement(rollup.table, database, 6)),
    createTableStatement(ROLLUP_STATE, database, 6),
    // The snapshot is taken after the views exist, so no row is in neither; migrations run
    // before this instance ingests, so none is in both (the ADR says what a fleet must do).
    ...HOURLY_ROLLUPS.map(
      (rollup) =>
        `CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.${rollup.view} TO ${database}.${rollup.table.name} ` +
        `AS ${rollupSelect(rollup, `${database}.${API_REQUESTS.name}`)}`,
    ),
    `CREATE TABLE IF NOT EXISTS ${database}.${BACKFILL_SNAPSHOT} AS ${database}.${API_REQUESTS.name}`,
    // Emptied first, so a re-run after a crash is idempotent (REPLACE PARTITION refuses an
    // empty source). Parts are hard links: no copy, and the disk they hold is freed when the
    // backfill drops the snapshot.
    `TRUNCATE TABLE IF EXISTS ${database}.${BACKFILL_SNAPSHOT}`,
    `ALTER TABLE ${database}.${BACKFILL_SNAPSHOT} ATTACH PARTITION tuple() FROM ${database}.${API_REQUESTS.name}`,
  ],
};
