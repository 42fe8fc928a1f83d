// Events migration 17: api_requests' `by_endpoint` projection (../tables/api-requests.table.ts),
// one endpoint's rows sorted together, materialized over the stored parts by a background
// mutation (docs/adr/0029-endpoint-projection.md).
import { API_REQUESTS, ENDPOINT_PROJECTION_VERSION, projectionStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const endpointProjectionMigration: EventsMigration = {
  version: ENDPOINT_PROJECTION_VERSION,
  name: "endpoint_projection",
  statements: ({ database, topology }) =>
    projectionStatements(topology, API_REQUESTS, database, ENDPOINT_PROJECTION_VERSION),
};
