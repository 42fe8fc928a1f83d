// Events migration 1: api_requests, one row per handled HTTP request (written by the ingest
// writer, read by the data and analytics queries). Why this shape: docs/adr/0005-ingest-durability.md.
import type { EventsMigration } from "./runner.js";

export const apiRequestsMigration: EventsMigration = {
  version: 1,
  name: "api_requests",
  statements: ({ database }) => [
    `CREATE TABLE IF NOT EXISTS ${database}.api_requests (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String CODEC(ZSTD(1)),
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String CODEC(ZSTD(1)),
      user_agent LowCardinality(String),
      consumer_id String CODEC(ZSTD(1)),
      consumer_name String CODEC(ZSTD(1)),
      consumer_group LowCardinality(String),
      request_payload String CODEC(ZSTD(3)),
      response_payload String CODEC(ZSTD(3)),
      request_headers String CODEC(ZSTD(3)),
      response_headers String CODEC(ZSTD(3)),
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = MergeTree
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(90)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400`,
  ],
};
