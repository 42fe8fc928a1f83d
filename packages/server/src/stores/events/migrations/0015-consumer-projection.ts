// Events migration 15: api_requests' `by_consumer` projection (../tables/api-requests.table.ts),
// one consumer's rows sorted together, materialized over the stored parts by a background
// mutation (docs/adr/0027-consumer-projection.md).
import { CONSUMER_PROJECTION_VERSION } from "../tables/index.js";
import { projectionMigration } from "./projection.js";

export const consumerProjectionMigration = projectionMigration(
  "consumer_projection",
  CONSUMER_PROJECTION_VERSION,
);
