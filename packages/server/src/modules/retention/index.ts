// Public surface of the retention module: per-project retention of raw records and rollups
// (docs/adr/0023).
export { retentionRoutes } from "./retention.routes.js";
export { createRetentionService, type RetentionService } from "./retention.service.js";
export {
  keptDays,
  maximumOf,
  type RetentionMaxima,
  type StoredRetention,
  storedRetentionOf,
} from "./retention.policy.js";
