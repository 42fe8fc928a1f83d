// Events migration 11: retention per project for the rollups. api_requests gains `rollup_days`
// (its project's rollup retention, written at ingest), every rollup gains the same column (a
// `max`, filled by its view) and expires each row by it. Metadata only: nothing is rewritten,
// stored rows read 0 (the server-wide days). docs/adr/0023-partitions-and-retention.md.
import { assertIdentifier } from "../dialect.js";
import {
  addColumnsStatements,
  API_REQUESTS,
  createViewStatement,
  onCluster,
  ROLLUP_DAYS_VERSION,
  ROLLUPS,
  storageName,
  ttlExpression,
} from "../tables/index.js";
import { ttlDaysOf } from "./retention.js";
import type { EventsMigration } from "./runner.js";

/** The rollups that existed before this migration (later ones are created with the column). */
const EARLIER_ROLLUPS = ROLLUPS.filter((rollup) =>
  rollup.table.columns.some((column) => column.since < ROLLUP_DAYS_VERSION),
);

export const rollupRetentionMigration: EventsMigration = {
  version: ROLLUP_DAYS_VERSION,
  name: "rollup_retention",
  statements: ({ database, topology }) => [
    ...addColumnsStatements(topology, API_REQUESTS, database, ROLLUP_DAYS_VERSION),
    ...EARLIER_ROLLUPS.flatMap((rollup) =>
      addColumnsStatements(topology, rollup.table, database, ROLLUP_DAYS_VERSION),
    ),
    // A view's SELECT cannot be altered: each is dropped and created again carrying the column
    // (nothing ingests while migrations run, so no insert passes between the two).
    ...EARLIER_ROLLUPS.flatMap((rollup) => [
      `DROP VIEW IF EXISTS ${database}.${rollup.view}${onCluster(topology)} SYNC`,
      createViewStatement(topology, rollup, database, API_REQUESTS.name, ROLLUP_DAYS_VERSION),
    ]),
  ],
  // The TTL keeps the days start-up last set (ROLLUPS_RETENTION_DAYS) for rows that carry 0;
  // parts keep the expiry they were written with until a merge rewrites them anyway.
  async run(executor, { database, topology }) {
    const stored = EARLIER_ROLLUPS.map((rollup) => ({
      rollup,
      name: storageName(topology, rollup.table.name),
    }));
    const rows = await executor.query<{ name: string; engine_full: string }>(
      "SELECT name, engine_full FROM system.tables WHERE database = {database:String}",
      { database },
      "write",
    );
    for (const { rollup, name } of stored) {
      const current = rows.find((row) => row.name === name);
      const days = (current && ttlDaysOf(current.engine_full)) ?? rollup.table.defaultRetentionDays;
      await executor.command(
        `ALTER TABLE ${assertIdentifier(database, "database")}.${name}${onCluster(topology)} ` +
          `MODIFY TTL ${ttlExpression(rollup.table, days)} SETTINGS materialize_ttl_after_modify = 0`,
      );
    }
  },
};
