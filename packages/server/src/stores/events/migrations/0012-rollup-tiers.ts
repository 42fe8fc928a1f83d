// Events migration 12: the rollup tiers (../tables/rollups.table.ts; docs/adr/0025-rollup-tiers.md).
// api_endpoints_hourly, fed from api_requests, serves the partial days of the endpoint rollup;
// api_requests_daily and api_errors_daily, fed from the hourly rollups' live rows, serve long
// windows. One snapshot of api_requests for all three, which the backfill rolls up day by day
// (the scheme of migrations 6 and 10, ADR 0018): the daily views skip the hourly rollups'
// backfilled rows, so a row older than this migration reaches a daily rollup through the
// snapshot alone, never twice.
import { TIERS_GENERATION } from "../queries/rollups/generations.js";
import { rollupGenerationMigration } from "./snapshot.js";

export const rollupTiersMigration = rollupGenerationMigration("rollup_tiers", TIERS_GENERATION);
