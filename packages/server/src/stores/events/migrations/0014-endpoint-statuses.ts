// Events migration 14: api_endpoint_statuses_hourly, requests per endpoint, status code and hour,
// fed from api_requests (../tables/rollups.table.ts, ENDPOINT_STATUSES_HOURLY), which answers an
// endpoint's status codes. Its own snapshot of api_requests, rolled up day by day by the backfill
// (the scheme of migrations 6, 10 and 12, ADR 0018).
import {
  API_REQUESTS,
  createTableStatements,
  createViewStatement,
  snapshotStatements,
  STATUS_ROLLUPS,
  STATUSES_BACKFILL_SNAPSHOT,
  STATUSES_ROLLUP_STATE,
  STATUSES_VERSION,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";
import { attachRequestPartitions } from "./snapshot.js";

export const endpointStatusesMigration: EventsMigration = {
  version: STATUSES_VERSION,
  name: "endpoint_statuses",
  statements: ({ database, topology }) => [
    ...STATUS_ROLLUPS.flatMap((rollup) =>
      createTableStatements(topology, rollup.table, database, STATUSES_VERSION),
    ),
    ...createTableStatements(topology, STATUSES_ROLLUP_STATE, database, STATUSES_VERSION),
    // Views first, then the snapshot: a row is in one of them, never in neither.
    ...STATUS_ROLLUPS.map((rollup) =>
      createViewStatement(topology, rollup, database, API_REQUESTS.name, STATUSES_VERSION),
    ),
    ...snapshotStatements(topology, API_REQUESTS, database, STATUSES_VERSION, STATUSES_BACKFILL_SNAPSHOT),
  ],
  run: (executor, ctx) => attachRequestPartitions(executor, ctx, STATUSES_BACKFILL_SNAPSHOT),
};
