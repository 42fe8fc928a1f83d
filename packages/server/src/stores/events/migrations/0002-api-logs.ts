// Events migration 2: api_logs, one row per log record of an instrumented app (written by the
// ingest writer, read by the log search). Why this shape: docs/adr/0005-ingest-durability.md.
import type { EventsMigration } from "./runner.js";

export const apiLogsMigration: EventsMigration = {
  version: 2,
  name: "api_logs",
  statements: ({ database }) => [
    `CREATE TABLE IF NOT EXISTS ${database}.api_logs (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
      environment LowCardinality(String),
      level LowCardinality(String),
      message String CODEC(ZSTD(1)),
      logger_name LowCardinality(String),
      payload String CODEC(ZSTD(3)),
      attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      endpoint_method LowCardinality(String),
      endpoint_path String CODEC(ZSTD(1)),
      endpoint_route LowCardinality(String),
      status_code UInt16,
      consumer_id String CODEC(ZSTD(1)),
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = MergeTree
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(30)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400`,
  ],
};
