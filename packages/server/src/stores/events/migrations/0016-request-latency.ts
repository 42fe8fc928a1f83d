// Events migration 16: api_request_latency_hourly, requests per app, environment and hour in each
// bucket of the requests page's latency histogram, fed from api_requests
// (../tables/rollups.table.ts, REQUEST_LATENCY_HOURLY). Its own snapshot of api_requests, rolled
// up day by day by the backfill (the scheme of migrations 6, 10, 12 and 14, ADR 0018).
import { LATENCY_GENERATION } from "../queries/rollups/generations.js";
import { rollupGenerationMigration } from "./snapshot.js";

export const requestLatencyMigration = rollupGenerationMigration("request_latency", LATENCY_GENERATION);
