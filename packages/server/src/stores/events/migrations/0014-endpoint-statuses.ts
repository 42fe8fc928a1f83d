// Events migration 14: api_endpoint_statuses_hourly, requests per endpoint, status code and hour,
// fed from api_requests (../tables/rollups.table.ts, ENDPOINT_STATUSES_HOURLY), which answers an
// endpoint's status codes. Its own snapshot of api_requests, rolled up day by day by the backfill
// (the scheme of migrations 6, 10 and 12, ADR 0018).
import { STATUSES_GENERATION } from "../queries/rollups/generations.js";
import { rollupGenerationMigration } from "./snapshot.js";

export const endpointStatusesMigration = rollupGenerationMigration("endpoint_statuses", STATUSES_GENERATION);
