// The events tables, each declared once (see table.ts).
export { API_LOGS, type ApiLogsColumn } from "./api-logs.table.js";
export {
  API_REQUESTS,
  type ApiRequestsColumn,
  CONSUMER_PROJECTION_VERSION,
  ENDPOINT_PROJECTION_VERSION,
} from "./api-requests.table.js";
export { API_SPANS, type ApiSpansColumn } from "./api-spans.table.js";
export { UPTIME_RESULTS, type UptimeResultsColumn } from "./uptime-results.table.js";
export {
  addColumnsStatement,
  createTableStatement,
  defineEventsTable,
  type EventsColumn,
  type EventsProjection,
  type EventsTable,
  layoutAt,
  pickColumns,
  type TableLayout,
  type TablePlacement,
  ttlExpression,
} from "./table.js";
export {
  addColumnsStatements,
  createTableStatements,
  createViewStatement,
  distributedColumnsStatements,
  dropTableStatements,
  onCluster,
  projectionStatements,
  snapshotStatements,
  storageEngine,
  storageName,
} from "./cluster.js";
export { LAYOUT_VERSION, RAW_LAYOUT, rawPartition, WEEKLY_LAYOUT } from "./layouts.js";
export {
  BACKFILL_SNAPSHOT,
  LATENCY_BACKFILL_SNAPSHOT,
  LATENCY_ROLLUP_STATE,
  LISTS_BACKFILL_SNAPSHOT,
  LISTS_ROLLUP_STATE,
  ROLLUP_STATE,
  STATUSES_BACKFILL_SNAPSHOT,
  STATUSES_ROLLUP_STATE,
  TIERS_BACKFILL_SNAPSHOT,
  TIERS_ROLLUP_STATE,
} from "./rollups-state.table.js";
export {
  CONSUMER_NAMES_VERSION,
  CONSUMERS_DAILY,
  DAILY,
  ENDPOINT_STATUSES_HOURLY,
  ENDPOINTS_DAILY,
  ENDPOINTS_HOURLY,
  ERRORS_DAILY,
  ERRORS_HOURLY,
  HOURLY,
  HOURLY_ROLLUPS,
  LATENCY_CLASSES_VERSION,
  LATENCY_ROLLUPS,
  LIST_ROLLUPS,
  LATENCY_SKETCH,
  type Rollup,
  type RollupGrain,
  REQUEST_LATENCY_HOURLY,
  ROLLUP_DAYS_VERSION,
  ROLLUP_SOURCE,
  ROLLUPS,
  rollupSelect,
  STATUS_ROLLUPS,
  STATUSES_VERSION,
  TIER_ROLLUPS,
  TIERS_VERSION,
  TRAFFIC_DAILY,
  TRAFFIC_HOURLY,
} from "./rollups.table.js";
