// Events migration 6: the request rollups (../tables/rollups.table.ts), the views that feed them
// from every insert into api_requests, and a snapshot of the rows stored before the views
// existed, which the backfill job (../rollups/backfill.ts) rolls up day by day and then drops.
import {
  API_REQUESTS,
  BACKFILL_SNAPSHOT,
  createTableStatements,
  createViewStatement,
  HOURLY_ROLLUPS,
  onCluster,
  ROLLUP_STATE,
  snapshotStatements,
  storageName,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const rollupsMigration: EventsMigration = {
  version: 6,
  name: "rollups",
  statements: ({ database, topology }) => [
    ...HOURLY_ROLLUPS.flatMap((rollup) => createTableStatements(topology, rollup.table, database, 6)),
    ...createTableStatements(topology, ROLLUP_STATE, database, 6),
    // The snapshot is taken after the views exist, so no row is in neither; migrations run
    // before this instance ingests, so none is in both (the ADR says what a fleet must do).
    ...HOURLY_ROLLUPS.map((rollup) => createViewStatement(topology, rollup, database, API_REQUESTS.name, 6)),
    ...snapshotStatements(topology, API_REQUESTS, database, 6, BACKFILL_SNAPSHOT),
    `ALTER TABLE ${database}.${storageName(topology, BACKFILL_SNAPSHOT)}${onCluster(topology)} ` +
      `ATTACH PARTITION tuple() FROM ${database}.${storageName(topology, API_REQUESTS.name)}`,
  ],
};
