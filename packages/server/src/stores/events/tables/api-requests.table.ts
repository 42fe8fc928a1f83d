// api_requests: one row per handled HTTP request (written by ingest, read by the data and
// analytics queries). Why this shape: docs/adr/0005-ingest-durability.md, docs/adr/0011-*.md.
import { RAW_LAYOUT } from "./layouts.js";
import { defineEventsTable } from "./table.js";

/** The events migration that adds the `by_consumer` projection. */
export const CONSUMER_PROJECTION_VERSION = 15;
/** The events migration that adds the `by_endpoint` projection. */
export const ENDPOINT_PROJECTION_VERSION = 17;

export const API_REQUESTS = defineEventsTable({
  name: "api_requests",
  columns: [
    { name: "id", type: "UUID", since: 1 },
    { name: "project_id", type: "LowCardinality(String)", since: 1 },
    { name: "app_id", type: "LowCardinality(String)", since: 1 },
    { name: "timestamp", type: "DateTime64(3, 'UTC') CODEC(Delta(8), LZ4)", since: 1 },
    { name: "environment", type: "LowCardinality(String)", since: 1 },
    { name: "method", type: "LowCardinality(String)", since: 1 },
    /** The path without its query string (since migration 4; before, as sent). */
    { name: "path", type: "String CODEC(ZSTD(1))", since: 1 },
    { name: "route", type: "LowCardinality(String)", since: 1 },
    { name: "status_code", type: "UInt16", since: 1 },
    { name: "response_time_ms", type: "Float64", since: 1 },
    { name: "request_size", type: "UInt64", since: 1 },
    { name: "response_size", type: "UInt64", since: 1 },
    { name: "ip_address", type: "String CODEC(ZSTD(1))", since: 1 },
    { name: "user_agent", type: "LowCardinality(String)", since: 1 },
    { name: "consumer_id", type: "String CODEC(ZSTD(1))", since: 1 },
    { name: "consumer_name", type: "String CODEC(ZSTD(1))", since: 1 },
    { name: "consumer_group", type: "LowCardinality(String)", since: 1 },
    { name: "request_payload", type: "String CODEC(ZSTD(3))", since: 1 },
    { name: "response_payload", type: "String CODEC(ZSTD(3))", since: 1 },
    { name: "request_headers", type: "String CODEC(ZSTD(3))", since: 1 },
    { name: "response_headers", type: "String CODEC(ZSTD(3))", since: 1 },
    { name: "trace_id", type: "String CODEC(ZSTD(1))", since: 1 },
    { name: "span_id", type: "String CODEC(ZSTD(1))", since: 1 },
    { name: "query", type: "String CODEC(ZSTD(1))", since: 4 },
    { name: "base_url", type: "LowCardinality(String)", since: 4 },
    /** `http`, `https` or empty (unknown). */
    { name: "scheme", type: "LowCardinality(String)", since: 5 },
    /** Validation errors of a 400/422 answer as three parallel arrays (one entry per failed
     *  field and rule): ARRAY JOIN counts them by field without parsing text. */
    { name: "validation_paths", type: "Array(String) CODEC(ZSTD(1))", since: 5 },
    { name: "validation_rules", type: "Array(LowCardinality(String))", since: 5 },
    { name: "validation_messages", type: "Array(String) CODEC(ZSTD(3))", since: 5 },
    /** Days the row is kept: its project's retention for this kind when it was stored; 0 for
     *  rows stored before per-project retention (kept the server-wide days). docs/adr/0023. */
    { name: "retention_days", type: "UInt16", since: 9 },
    /** The UTC day the row's batch arrived (one value per batch): the partition's week, so a
     *  batch is one part whatever times its records carry (docs/adr/0023). */
    { name: "stored_on", type: "Date", since: 9 },
    /** Days the rollup rows this row feeds are kept: its project's rollup retention when it was
     *  stored; 0 (the type's default: rows stored before, and writers that do not name the
     *  column) for the server-wide days. The views carry it into every rollup. docs/adr/0023. */
    { name: "rollup_days", type: "UInt16", since: 11 },
  ],
  indexes: ["INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4"],
  orderBy: ["project_id", "timestamp", "id"],
  projections: [
    {
      // One consumer's rows together: the consumer page's figures, series and endpoints (and a
      // consumer-scoped SLO) read that consumer's rows, where the table's order made them read
      // every row of the project's window. The columns those figures read, nothing more.
      // docs/adr/0027-consumer-projection.md.
      name: "by_consumer",
      since: CONSUMER_PROJECTION_VERSION,
      columns: [
        "project_id",
        "consumer_id",
        "timestamp",
        "app_id",
        "environment",
        "method",
        "route",
        "status_code",
        "response_time_ms",
        "request_size",
        "response_size",
      ],
      orderBy: ["project_id", "consumer_id", "timestamp"],
    },
    {
      // One endpoint's rows together: the endpoint page's consumers card groups the endpoint's
      // rows by consumer, with each one's newest name, which no rollup holds; the raw edges of
      // the endpoint rollups and an endpoint-scoped SLO read them too. Route and method before
      // the app, so a filter on routes alone, or an endpoint across the project's apps, narrows
      // as well. docs/adr/0029-endpoint-projection.md.
      name: "by_endpoint",
      since: ENDPOINT_PROJECTION_VERSION,
      columns: [
        "project_id",
        "route",
        "method",
        "app_id",
        "timestamp",
        "environment",
        "status_code",
        "response_time_ms",
        "request_size",
        "response_size",
        "consumer_id",
        "consumer_name",
        "consumer_group",
      ],
      orderBy: ["project_id", "route", "method", "app_id", "timestamp"],
    },
  ],
  defaultRetentionDays: 90,
  // Spread by record, not by tenant (docs/adr/0024): one busy project fills every shard.
  shardBy: "cityHash64(id)",
  layout: RAW_LAYOUT,
});

export type ApiRequestsColumn = (typeof API_REQUESTS.columnNames)[number];
