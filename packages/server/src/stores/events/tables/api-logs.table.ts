// api_logs: one row per log record of an instrumented app (written by ingest, read by the log
// search and the trace view). Why this shape: docs/adr/0005-ingest-durability.md.
import { RAW_LAYOUT } from "./layouts.js";
import { defineEventsTable } from "./table.js";

export const API_LOGS = defineEventsTable({
  name: "api_logs",
  columns: [
    { name: "id", type: "UUID", since: 2 },
    { name: "project_id", type: "LowCardinality(String)", since: 2 },
    { name: "app_id", type: "LowCardinality(String)", since: 2 },
    { name: "timestamp", type: "DateTime64(3, 'UTC') CODEC(Delta(8), LZ4)", since: 2 },
    { name: "environment", type: "LowCardinality(String)", since: 2 },
    { name: "level", type: "LowCardinality(String)", since: 2 },
    { name: "message", type: "String CODEC(ZSTD(1))", since: 2 },
    { name: "logger_name", type: "LowCardinality(String)", since: 2 },
    { name: "payload", type: "String CODEC(ZSTD(3))", since: 2 },
    { name: "attributes", type: "Map(LowCardinality(String), String) CODEC(ZSTD(1))", since: 2 },
    { name: "trace_id", type: "String CODEC(ZSTD(1))", since: 2 },
    { name: "span_id", type: "String CODEC(ZSTD(1))", since: 2 },
    { name: "endpoint_method", type: "LowCardinality(String)", since: 2 },
    { name: "endpoint_path", type: "String CODEC(ZSTD(1))", since: 2 },
    { name: "endpoint_route", type: "LowCardinality(String)", since: 2 },
    { name: "status_code", type: "UInt16", since: 2 },
    { name: "consumer_id", type: "String CODEC(ZSTD(1))", since: 2 },
    { name: "consumer_name", type: "String CODEC(ZSTD(1))", since: 4 },
    { name: "consumer_group", type: "LowCardinality(String)", since: 4 },
    // Error grouping key, "" for non-errors (lib/error-fingerprint.ts); rows older than
    // migration 8 have "" too and stay out of the error groups.
    { name: "fingerprint", type: "String CODEC(ZSTD(1))", since: 8 },
    /** Days the row is kept: its project's retention for this kind when it was stored; 0 for
     *  rows stored before per-project retention (kept the server-wide days). docs/adr/0023. */
    { name: "retention_days", type: "UInt16", since: 9 },
    /** The UTC day the row's batch arrived (one value per batch): the partition's week, so a
     *  batch is one part whatever times its records carry (docs/adr/0023). */
    { name: "stored_on", type: "Date", since: 9 },
  ],
  indexes: ["INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4"],
  orderBy: ["project_id", "timestamp", "id"],
  defaultRetentionDays: 30,
  // Spread by record, not by tenant (docs/adr/0024): one busy project fills every shard.
  shardBy: "cityHash64(id)",
  layout: RAW_LAYOUT,
});

export type ApiLogsColumn = (typeof API_LOGS.columnNames)[number];
