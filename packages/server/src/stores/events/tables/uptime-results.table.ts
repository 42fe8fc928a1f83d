// uptime_results: one row per run of an uptime check (written by the uptime runner, read for the
// check's uptime percentages, latency chart and recent failures). Kept as long as requests
// (REQUESTS_RETENTION_DAYS), at least 30 days.
import { WEEKLY_LAYOUT } from "./layouts.js";
import { defineEventsTable } from "./table.js";

export const UPTIME_RESULTS = defineEventsTable({
  name: "uptime_results",
  columns: [
    { name: "id", type: "UUID", since: 7 },
    { name: "project_id", type: "LowCardinality(String)", since: 7 },
    { name: "check_id", type: "LowCardinality(String)", since: 7 },
    { name: "timestamp", type: "DateTime64(3, 'UTC') CODEC(Delta(8), LZ4)", since: 7 },
    // 1 when the answer came in time with the expected status and body text.
    { name: "ok", type: "UInt8", since: 7 },
    // 0 when no answer came.
    { name: "status_code", type: "UInt16", since: 7 },
    { name: "latency_ms", type: "Float64", since: 7 },
    { name: "error", type: "String CODEC(ZSTD(1))", since: 7 },
  ],
  indexes: [],
  orderBy: ["project_id", "check_id", "timestamp", "id"],
  defaultRetentionDays: 90,
  // Spread by record (docs/adr/0024).
  shardBy: "cityHash64(id)",
  layout: WEEKLY_LAYOUT,
});

export type UptimeResultsColumn = (typeof UPTIME_RESULTS.columnNames)[number];
