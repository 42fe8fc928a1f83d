// Events migration 15: api_requests' `by_consumer` projection (../tables/api-requests.table.ts),
// one consumer's rows sorted together, materialized over the stored parts by a background
// mutation (docs/adr/0027-consumer-projection.md).
import { API_REQUESTS, CONSUMER_PROJECTION_VERSION, projectionStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const consumerProjectionMigration: EventsMigration = {
  version: CONSUMER_PROJECTION_VERSION,
  name: "consumer_projection",
  statements: ({ database, topology }) =>
    projectionStatements(topology, API_REQUESTS, database, CONSUMER_PROJECTION_VERSION),
};
