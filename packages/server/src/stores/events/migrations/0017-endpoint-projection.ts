// Events migration 17: api_requests' `by_endpoint` projection (../tables/api-requests.table.ts),
// one endpoint's rows sorted together, materialized over the stored parts by a background
// mutation (docs/adr/0029-endpoint-projection.md).
import { ENDPOINT_PROJECTION_VERSION } from "../tables/index.js";
import { projectionMigration } from "./projection.js";

export const endpointProjectionMigration = projectionMigration(
  "endpoint_projection",
  ENDPOINT_PROJECTION_VERSION,
);
