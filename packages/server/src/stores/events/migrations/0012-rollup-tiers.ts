// Events migration 12: the rollup tiers (../tables/rollups.table.ts; docs/adr/0025-rollup-tiers.md).
// api_endpoints_hourly, fed from api_requests, serves the partial days of the endpoint rollup;
// api_requests_daily and api_errors_daily, fed from the hourly rollups' live rows, serve long
// windows. One snapshot of api_requests for all three, which the backfill rolls up day by day
// (the scheme of migrations 6 and 10, ADR 0018): the daily views skip the hourly rollups'
// backfilled rows, so a row older than this migration reaches a daily rollup through the
// snapshot alone, never twice.
import {
  API_REQUESTS,
  createTableStatements,
  createViewStatement,
  snapshotStatements,
  TIER_ROLLUPS,
  TIERS_BACKFILL_SNAPSHOT,
  TIERS_ROLLUP_STATE,
  TIERS_VERSION,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";
import { attachRequestPartitions } from "./snapshot.js";

export const rollupTiersMigration: EventsMigration = {
  version: TIERS_VERSION,
  name: "rollup_tiers",
  statements: ({ database, topology }) => [
    ...TIER_ROLLUPS.flatMap((rollup) =>
      createTableStatements(topology, rollup.table, database, TIERS_VERSION),
    ),
    ...createTableStatements(topology, TIERS_ROLLUP_STATE, database, TIERS_VERSION),
    // Views first, then the snapshot: a row is in one of them, never in neither.
    ...TIER_ROLLUPS.map((rollup) =>
      createViewStatement(
        topology,
        rollup,
        database,
        rollup.fedFrom?.table.name ?? API_REQUESTS.name,
        TIERS_VERSION,
      ),
    ),
    ...snapshotStatements(topology, API_REQUESTS, database, TIERS_VERSION, TIERS_BACKFILL_SNAPSHOT),
  ],
  run: (executor, ctx) => attachRequestPartitions(executor, ctx, TIERS_BACKFILL_SNAPSHOT),
};
