// The events schema's released migrations, in version order.
import { apiRequestsMigration } from "./0001-api-requests.js";
import { apiLogsMigration } from "./0002-api-logs.js";
import { apiSpansMigration } from "./0003-api-spans.js";
import { clientFieldsMigration } from "./0004-client-fields.js";
import { requestValidationErrorsMigration } from "./0005-request-validation-errors.js";
import { rollupsMigration } from "./0006-rollups.js";
import { uptimeChecksMigration } from "./0007-uptime-checks.js";
import { logFingerprintsMigration } from "./0008-log-fingerprints.js";
import { partitionsMigration } from "./0009-partitions-and-retention.js";
import { listRollupsMigration } from "./0010-list-rollups.js";
import { rollupRetentionMigration } from "./0011-rollup-retention.js";
import { rollupTiersMigration } from "./0012-rollup-tiers.js";
import { consumerNamesMigration } from "./0013-consumer-names.js";
import { endpointStatusesMigration } from "./0014-endpoint-statuses.js";
import { consumerProjectionMigration } from "./0015-consumer-projection.js";
import { requestLatencyMigration } from "./0016-request-latency.js";
import { endpointProjectionMigration } from "./0017-endpoint-projection.js";
import type { EventsMigration } from "./runner.js";

export { applyRetention, type RetentionDays } from "./retention.js";
export { applyTableSettings } from "./table-settings.js";
export {
  type EventsMigration,
  type EventsMigrationContext,
  EventsMigrationError,
  verifyEventsSchema,
} from "./runner.js";

/** Append only; a released entry is never edited or renumbered. */
export const eventsMigrations: readonly EventsMigration[] = [
  apiRequestsMigration,
  apiLogsMigration,
  apiSpansMigration,
  clientFieldsMigration,
  requestValidationErrorsMigration,
  rollupsMigration,
  uptimeChecksMigration,
  logFingerprintsMigration,
  partitionsMigration,
  listRollupsMigration,
  rollupRetentionMigration,
  rollupTiersMigration,
  consumerNamesMigration,
  endpointStatusesMigration,
  consumerProjectionMigration,
  requestLatencyMigration,
  endpointProjectionMigration,
];
