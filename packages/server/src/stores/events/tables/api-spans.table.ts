// api_spans: one row per span of a trace (written by span ingest, read by the trace routes).
// Sorted like the other tables, project then time; a trace is found through the bloom filter
// on trace_id. Why this shape: docs/adr/0011-events-table-declarations-and-spans.md.
import { RAW_LAYOUT } from "./layouts.js";
import { defineEventsTable } from "./table.js";

export const API_SPANS = defineEventsTable({
  name: "api_spans",
  columns: [
    { name: "id", type: "UUID", since: 3 },
    { name: "project_id", type: "LowCardinality(String)", since: 3 },
    { name: "app_id", type: "LowCardinality(String)", since: 3 },
    /** When the span started. */
    { name: "timestamp", type: "DateTime64(3, 'UTC') CODEC(Delta(8), LZ4)", since: 3 },
    { name: "environment", type: "LowCardinality(String)", since: 3 },
    { name: "trace_id", type: "String CODEC(ZSTD(1))", since: 3 },
    { name: "span_id", type: "String CODEC(ZSTD(1))", since: 3 },
    { name: "parent_span_id", type: "String CODEC(ZSTD(1))", since: 3 },
    { name: "name", type: "String CODEC(ZSTD(1))", since: 3 },
    { name: "kind", type: "LowCardinality(String)", since: 3 },
    { name: "service_name", type: "LowCardinality(String)", since: 3 },
    { name: "duration_ms", type: "Float64", since: 3 },
    /** `ok` or `error`. */
    { name: "status", type: "LowCardinality(String)", since: 3 },
    /** The HTTP status the span saw; 0 when none. */
    { name: "status_code", type: "UInt16", since: 3 },
    { name: "attributes", type: "Map(LowCardinality(String), String) CODEC(ZSTD(1))", since: 3 },
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
  // A trace's spans on one shard, traces spread over all (docs/adr/0024).
  shardBy: "cityHash64(trace_id)",
  layout: RAW_LAYOUT,
});

export type ApiSpansColumn = (typeof API_SPANS.columnNames)[number];
