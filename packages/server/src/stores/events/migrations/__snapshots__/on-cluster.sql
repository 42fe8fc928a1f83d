CREATE TABLE IF NOT EXISTS sightline.schema_migrations ON CLUSTER fleet (version UInt32, name String, applied_at DateTime64(3, 'UTC')) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sightline/schema_migrations', '{replica}') ORDER BY version;

CREATE TABLE IF NOT EXISTS sightline.api_requests_local ON CLUSTER fleet (
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
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_local', '{replica}')
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(90)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String,
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String,
      user_agent LowCardinality(String),
      consumer_id String,
      consumer_name String,
      consumer_group LowCardinality(String),
      request_payload String,
      response_payload String,
      request_headers String,
      response_headers String,
      trace_id String,
      span_id String
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_local', cityHash64(id));

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_logs_local ON CLUSTER fleet (
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
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_logs_local', '{replica}')
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(30)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_logs ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      level LowCardinality(String),
      message String,
      logger_name LowCardinality(String),
      payload String,
      attributes Map(LowCardinality(String), String),
      trace_id String,
      span_id String,
      endpoint_method LowCardinality(String),
      endpoint_path String,
      endpoint_route LowCardinality(String),
      status_code UInt16,
      consumer_id String
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_logs_local', cityHash64(id));

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_spans_local ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
      environment LowCardinality(String),
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      parent_span_id String CODEC(ZSTD(1)),
      name String CODEC(ZSTD(1)),
      kind LowCardinality(String),
      service_name LowCardinality(String),
      duration_ms Float64,
      status LowCardinality(String),
      status_code UInt16,
      attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_spans_local', '{replica}')
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(30)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_spans ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      trace_id String,
      span_id String,
      parent_span_id String,
      name String,
      kind LowCardinality(String),
      service_name LowCardinality(String),
      duration_ms Float64,
      status LowCardinality(String),
      status_code UInt16,
      attributes Map(LowCardinality(String), String)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_spans_local', cityHash64(trace_id));

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS query String CODEC(ZSTD(1)), ADD COLUMN IF NOT EXISTS base_url LowCardinality(String);

ALTER TABLE sightline.api_requests ON CLUSTER fleet ADD COLUMN IF NOT EXISTS query String, ADD COLUMN IF NOT EXISTS base_url LowCardinality(String);

ALTER TABLE sightline.api_logs_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS consumer_name String CODEC(ZSTD(1)), ADD COLUMN IF NOT EXISTS consumer_group LowCardinality(String);

ALTER TABLE sightline.api_logs ON CLUSTER fleet ADD COLUMN IF NOT EXISTS consumer_name String, ADD COLUMN IF NOT EXISTS consumer_group LowCardinality(String);

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS scheme LowCardinality(String), ADD COLUMN IF NOT EXISTS validation_paths Array(String) CODEC(ZSTD(1)), ADD COLUMN IF NOT EXISTS validation_rules Array(LowCardinality(String)), ADD COLUMN IF NOT EXISTS validation_messages Array(String) CODEC(ZSTD(3));

ALTER TABLE sightline.api_requests ON CLUSTER fleet ADD COLUMN IF NOT EXISTS scheme LowCardinality(String), ADD COLUMN IF NOT EXISTS validation_paths Array(String), ADD COLUMN IF NOT EXISTS validation_rules Array(LowCardinality(String)), ADD COLUMN IF NOT EXISTS validation_messages Array(String);

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_requests_hourly_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      latency AggregateFunction(quantilesDD(0.005, 0.5, 0.95, 0.99), Float64),
      endpoints AggregateFunction(uniqExact, UInt64),
      consumers AggregateFunction(uniqExact, UInt64)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_hourly_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(hour), toYYYYMMDD(hour)))
    ORDER BY (project_id, hour, app_id, environment, source)
    TTL toDateTime(hour) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_hourly ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      latency AggregateFunction(quantilesDD(0.005, 0.5, 0.95, 0.99), Float64),
      endpoints AggregateFunction(uniqExact, UInt64),
      consumers AggregateFunction(uniqExact, UInt64)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_hourly_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.api_errors_hourly_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      status_code UInt16,
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      consumers AggregateFunction(uniqExact, UInt64)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_errors_hourly_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(hour), toYYYYMMDD(hour)))
    ORDER BY (project_id, hour, app_id, environment, method, route, status_code, source)
    TTL toDateTime(hour) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_errors_hourly ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      status_code UInt16,
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      consumers AggregateFunction(uniqExact, UInt64)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_errors_hourly_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.rollup_backfill ON CLUSTER fleet (
      day Date,
      rows UInt64,
      done_at DateTime64(3, 'UTC')
    )
    ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sightline/rollup_backfill', '{replica}')
    ORDER BY (day)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_requests_hourly_mv ON CLUSTER fleet TO sightline.api_requests_hourly_local AS SELECT project_id, app_id, environment, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, quantilesDDState(0.005, 0.5, 0.95, 0.99)(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS latency, uniqExactState(cityHash64(app_id, method, route)) AS endpoints, uniqExactStateIf(cityHash64(consumer_id), consumer_id != '') AS consumers FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, hour;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_errors_hourly_mv ON CLUSTER fleet TO sightline.api_errors_hourly_local AS SELECT project_id, app_id, environment, method, route, status_code, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, min(timestamp) AS first_seen, max(timestamp) AS last_seen, uniqExactStateIf(cityHash64(consumer_id), consumer_id != '') AS consumers FROM sightline.api_requests_local WHERE (status_code >= 400) GROUP BY project_id, app_id, environment, method, route, status_code, hour;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_local ON CLUSTER fleet (
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
      query String CODEC(ZSTD(1)),
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String) CODEC(ZSTD(1)),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String) CODEC(ZSTD(3)),
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_backfill_local', '{replica}')
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(90)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String,
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String,
      user_agent LowCardinality(String),
      consumer_id String,
      consumer_name String,
      consumer_group LowCardinality(String),
      request_payload String,
      response_payload String,
      request_headers String,
      response_headers String,
      trace_id String,
      span_id String,
      query String,
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_backfill_local', cityHash64(id));

TRUNCATE TABLE IF EXISTS sightline.api_requests_backfill_local ON CLUSTER fleet;

ALTER TABLE sightline.api_requests_backfill_local ON CLUSTER fleet ATTACH PARTITION tuple() FROM sightline.api_requests_local;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.uptime_results_local ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      check_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
      ok UInt8,
      status_code UInt16,
      latency_ms Float64,
      error String CODEC(ZSTD(1))
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/uptime_results_local', '{replica}')
    ORDER BY (project_id, check_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(90)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.uptime_results ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      check_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      ok UInt8,
      status_code UInt16,
      latency_ms Float64,
      error String
    )
    ENGINE = Distributed('fleet', 'sightline', 'uptime_results_local', cityHash64(id));

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

ALTER TABLE sightline.api_logs_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS fingerprint String CODEC(ZSTD(1));

ALTER TABLE sightline.api_logs ON CLUSTER fleet ADD COLUMN IF NOT EXISTS fingerprint String;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

DROP VIEW IF EXISTS sightline.api_requests_hourly_mv ON CLUSTER fleet SYNC;

DROP VIEW IF EXISTS sightline.api_errors_hourly_mv ON CLUSTER fleet SYNC;

DROP TABLE IF EXISTS sightline.api_requests_rebuild_local ON CLUSTER fleet SYNC;

CREATE TABLE IF NOT EXISTS sightline.api_requests_rebuild_local ON CLUSTER fleet (
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
      query String CODEC(ZSTD(1)),
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String) CODEC(ZSTD(1)),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String) CODEC(ZSTD(3)),
      retention_days UInt16,
      stored_on Date,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_rebuild_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 90, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

EXCHANGE TABLES sightline.api_requests_local AND sightline.api_requests_rebuild_local ON CLUSTER fleet;

DROP TABLE IF EXISTS sightline.api_requests_rebuild_local ON CLUSTER fleet SYNC;

ALTER TABLE sightline.api_requests ON CLUSTER fleet ADD COLUMN IF NOT EXISTS retention_days UInt16, ADD COLUMN IF NOT EXISTS stored_on Date;

DROP TABLE IF EXISTS sightline.api_logs_rebuild_local ON CLUSTER fleet SYNC;

CREATE TABLE IF NOT EXISTS sightline.api_logs_rebuild_local ON CLUSTER fleet (
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
      consumer_name String CODEC(ZSTD(1)),
      consumer_group LowCardinality(String),
      fingerprint String CODEC(ZSTD(1)),
      retention_days UInt16,
      stored_on Date,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_logs_rebuild_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 30, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

EXCHANGE TABLES sightline.api_logs_local AND sightline.api_logs_rebuild_local ON CLUSTER fleet;

DROP TABLE IF EXISTS sightline.api_logs_rebuild_local ON CLUSTER fleet SYNC;

ALTER TABLE sightline.api_logs ON CLUSTER fleet ADD COLUMN IF NOT EXISTS retention_days UInt16, ADD COLUMN IF NOT EXISTS stored_on Date;

DROP TABLE IF EXISTS sightline.api_spans_rebuild_local ON CLUSTER fleet SYNC;

CREATE TABLE IF NOT EXISTS sightline.api_spans_rebuild_local ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
      environment LowCardinality(String),
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      parent_span_id String CODEC(ZSTD(1)),
      name String CODEC(ZSTD(1)),
      kind LowCardinality(String),
      service_name LowCardinality(String),
      duration_ms Float64,
      status LowCardinality(String),
      status_code UInt16,
      attributes Map(LowCardinality(String), String) CODEC(ZSTD(1)),
      retention_days UInt16,
      stored_on Date,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_spans_rebuild_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 30, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

EXCHANGE TABLES sightline.api_spans_local AND sightline.api_spans_rebuild_local ON CLUSTER fleet;

DROP TABLE IF EXISTS sightline.api_spans_rebuild_local ON CLUSTER fleet SYNC;

ALTER TABLE sightline.api_spans ON CLUSTER fleet ADD COLUMN IF NOT EXISTS retention_days UInt16, ADD COLUMN IF NOT EXISTS stored_on Date;

DROP TABLE IF EXISTS sightline.uptime_results_rebuild_local ON CLUSTER fleet SYNC;

CREATE TABLE IF NOT EXISTS sightline.uptime_results_rebuild_local ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      check_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC') CODEC(Delta(8), LZ4),
      ok UInt8,
      status_code UInt16,
      latency_ms Float64,
      error String CODEC(ZSTD(1))
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/uptime_results_rebuild_local', '{replica}')
    PARTITION BY toMonday(timestamp)
    ORDER BY (project_id, check_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(90)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

EXCHANGE TABLES sightline.uptime_results_local AND sightline.uptime_results_rebuild_local ON CLUSTER fleet;

DROP TABLE IF EXISTS sightline.uptime_results_rebuild_local ON CLUSTER fleet SYNC;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_requests_hourly_mv ON CLUSTER fleet TO sightline.api_requests_hourly_local AS SELECT project_id, app_id, environment, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, quantilesDDState(0.005, 0.5, 0.95, 0.99)(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS latency, uniqExactState(cityHash64(app_id, method, route)) AS endpoints, uniqExactStateIf(cityHash64(consumer_id), consumer_id != '') AS consumers FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, hour;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_errors_hourly_mv ON CLUSTER fleet TO sightline.api_errors_hourly_local AS SELECT project_id, app_id, environment, method, route, status_code, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, min(timestamp) AS first_seen, max(timestamp) AS last_seen, uniqExactStateIf(cityHash64(consumer_id), consumer_id != '') AS consumers FROM sightline.api_requests_local WHERE (status_code >= 400) GROUP BY project_id, app_id, environment, method, route, status_code, hour;

ALTER TABLE sightline.api_requests_hourly_local ON CLUSTER fleet MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE sightline.api_errors_hourly_local ON CLUSTER fleet MODIFY SETTING ttl_only_drop_parts = 1;

ALTER TABLE sightline.rollup_backfill ON CLUSTER fleet MODIFY SETTING ttl_only_drop_parts = 1;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_endpoints_daily_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      latency_histogram SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64)))
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_endpoints_daily_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(day), toYYYYMMDD(day)))
    ORDER BY (project_id, day, app_id, environment, method, route, source)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_endpoints_daily ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      latency_histogram SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64)))
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_endpoints_daily_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.api_consumers_daily_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      consumer_id String,
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      latency_histogram SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64))),
      latest_name SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), String)),
      latest_group SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), String))
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_consumers_daily_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(day), toYYYYMMDD(day)))
    ORDER BY (project_id, day, app_id, environment, consumer_id, source)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_consumers_daily ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      consumer_id String,
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      latency_histogram SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64))),
      latest_name SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), String)),
      latest_group SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), String))
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_consumers_daily_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.rollup_backfill_lists ON CLUSTER fleet (
      day Date,
      rows UInt64,
      done_at DateTime64(3, 'UTC')
    )
    ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sightline/rollup_backfill_lists', '{replica}')
    ORDER BY (day)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_endpoints_daily_mv ON CLUSTER fleet TO sightline.api_endpoints_daily_local AS SELECT project_id, app_id, environment, method, route, toDateTime(toStartOfDay(timestamp), 'UTC') AS day, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, max(timestamp) AS last_seen, sumMap([if((if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) = 0, toInt16(-32768), toInt16(ceil(log(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) / 0.019000571614286515)))], [toUInt64(1)]) AS latency_histogram FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, method, route, day;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_consumers_daily_mv ON CLUSTER fleet TO sightline.api_consumers_daily_local AS SELECT project_id, app_id, environment, consumer_id, toDateTime(toStartOfDay(timestamp), 'UTC') AS day, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, max(timestamp) AS last_seen, sumMap([if((if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) = 0, toInt16(-32768), toInt16(ceil(log(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) / 0.019000571614286515)))], [toUInt64(1)]) AS latency_histogram, maxIf(tuple(timestamp, consumer_name), consumer_name != '') AS latest_name, maxIf(tuple(timestamp, consumer_group), consumer_group != '') AS latest_group FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, consumer_id, day;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_lists_local ON CLUSTER fleet (
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
      query String CODEC(ZSTD(1)),
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String) CODEC(ZSTD(1)),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String) CODEC(ZSTD(3)),
      retention_days UInt16,
      stored_on Date,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_backfill_lists_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 90, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_lists ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String,
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String,
      user_agent LowCardinality(String),
      consumer_id String,
      consumer_name String,
      consumer_group LowCardinality(String),
      request_payload String,
      response_payload String,
      request_headers String,
      response_headers String,
      trace_id String,
      span_id String,
      query String,
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String),
      retention_days UInt16,
      stored_on Date
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_backfill_lists_local', cityHash64(id));

TRUNCATE TABLE IF EXISTS sightline.api_requests_backfill_lists_local ON CLUSTER fleet;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days UInt16;

ALTER TABLE sightline.api_requests ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days UInt16;

ALTER TABLE sightline.api_requests_hourly_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_requests_hourly ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_errors_hourly_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_errors_hourly ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_endpoints_daily_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_endpoints_daily ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_consumers_daily_local ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

ALTER TABLE sightline.api_consumers_daily ON CLUSTER fleet ADD COLUMN IF NOT EXISTS rollup_days SimpleAggregateFunction(max, UInt16);

DROP VIEW IF EXISTS sightline.api_requests_hourly_mv ON CLUSTER fleet SYNC;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_requests_hourly_mv ON CLUSTER fleet TO sightline.api_requests_hourly_local AS SELECT project_id, app_id, environment, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, quantilesDDState(0.005, 0.5, 0.95, 0.99)(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS latency, uniqExactState(cityHash64(app_id, method, route)) AS endpoints, uniqExactStateIf(cityHash64(consumer_id), consumer_id != '') AS consumers, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, hour;

DROP VIEW IF EXISTS sightline.api_errors_hourly_mv ON CLUSTER fleet SYNC;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_errors_hourly_mv ON CLUSTER fleet TO sightline.api_errors_hourly_local AS SELECT project_id, app_id, environment, method, route, status_code, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, min(timestamp) AS first_seen, max(timestamp) AS last_seen, uniqExactStateIf(cityHash64(consumer_id), consumer_id != '') AS consumers, max(rollup_days) AS rollup_days FROM sightline.api_requests_local WHERE (status_code >= 400) GROUP BY project_id, app_id, environment, method, route, status_code, hour;

DROP VIEW IF EXISTS sightline.api_endpoints_daily_mv ON CLUSTER fleet SYNC;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_endpoints_daily_mv ON CLUSTER fleet TO sightline.api_endpoints_daily_local AS SELECT project_id, app_id, environment, method, route, toDateTime(toStartOfDay(timestamp), 'UTC') AS day, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, max(timestamp) AS last_seen, sumMap([if((if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) = 0, toInt16(-32768), toInt16(ceil(log(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) / 0.019000571614286515)))], [toUInt64(1)]) AS latency_histogram, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, method, route, day;

DROP VIEW IF EXISTS sightline.api_consumers_daily_mv ON CLUSTER fleet SYNC;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_consumers_daily_mv ON CLUSTER fleet TO sightline.api_consumers_daily_local AS SELECT project_id, app_id, environment, consumer_id, toDateTime(toStartOfDay(timestamp), 'UTC') AS day, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, max(timestamp) AS last_seen, sumMap([if((if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) = 0, toInt16(-32768), toInt16(ceil(log(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) / 0.019000571614286515)))], [toUInt64(1)]) AS latency_histogram, maxIf(tuple(timestamp, consumer_name), consumer_name != '') AS latest_name, maxIf(tuple(timestamp, consumer_group), consumer_group != '') AS latest_group, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, consumer_id, day;

ALTER TABLE sightline.api_requests_hourly_local ON CLUSTER fleet MODIFY TTL toDateTime(hour) + toIntervalDay(if(rollup_days = 0, 400, rollup_days)) SETTINGS materialize_ttl_after_modify = 0;

ALTER TABLE sightline.api_errors_hourly_local ON CLUSTER fleet MODIFY TTL toDateTime(hour) + toIntervalDay(if(rollup_days = 0, 400, rollup_days)) SETTINGS materialize_ttl_after_modify = 0;

ALTER TABLE sightline.api_endpoints_daily_local ON CLUSTER fleet MODIFY TTL toDateTime(day) + toIntervalDay(if(rollup_days = 0, 400, rollup_days)) SETTINGS materialize_ttl_after_modify = 0;

ALTER TABLE sightline.api_consumers_daily_local ON CLUSTER fleet MODIFY TTL toDateTime(day) + toIntervalDay(if(rollup_days = 0, 400, rollup_days)) SETTINGS materialize_ttl_after_modify = 0;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_endpoints_hourly_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      latency_histogram SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64))),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_endpoints_hourly_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(hour), toYYYYMMDD(hour)))
    ORDER BY (project_id, hour, app_id, environment, method, route, source)
    TTL toDateTime(hour) + toIntervalDay(if(rollup_days = 0, 400, rollup_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_endpoints_hourly ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      latency_histogram SimpleAggregateFunction(sumMap, Tuple(Array(Int16), Array(UInt64))),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_endpoints_hourly_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.api_requests_daily_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      latency AggregateFunction(quantilesDD(0.005, 0.5, 0.95, 0.99), Float64),
      endpoints AggregateFunction(uniqExact, UInt64),
      consumers AggregateFunction(uniqExact, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_daily_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(day), toYYYYMMDD(day)))
    ORDER BY (project_id, day, app_id, environment, source)
    TTL toDateTime(day) + toIntervalDay(if(rollup_days = 0, 400, rollup_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_daily ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      errors SimpleAggregateFunction(sum, UInt64),
      client_errors SimpleAggregateFunction(sum, UInt64),
      server_errors SimpleAggregateFunction(sum, UInt64),
      response_time_sum SimpleAggregateFunction(sum, Float64),
      request_bytes SimpleAggregateFunction(sum, UInt64),
      response_bytes SimpleAggregateFunction(sum, UInt64),
      latency AggregateFunction(quantilesDD(0.005, 0.5, 0.95, 0.99), Float64),
      endpoints AggregateFunction(uniqExact, UInt64),
      consumers AggregateFunction(uniqExact, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_daily_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.api_errors_daily_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      status_code UInt16,
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      consumers AggregateFunction(uniqExact, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_errors_daily_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(day), toYYYYMMDD(day)))
    ORDER BY (project_id, day, app_id, environment, method, route, status_code, source)
    TTL toDateTime(day) + toIntervalDay(if(rollup_days = 0, 400, rollup_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_errors_daily ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      status_code UInt16,
      day DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
      last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
      consumers AggregateFunction(uniqExact, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_errors_daily_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.rollup_backfill_tiers ON CLUSTER fleet (
      day Date,
      rows UInt64,
      done_at DateTime64(3, 'UTC')
    )
    ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sightline/rollup_backfill_tiers', '{replica}')
    ORDER BY (day)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_endpoints_hourly_mv ON CLUSTER fleet TO sightline.api_endpoints_hourly_local AS SELECT project_id, app_id, environment, method, route, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, max(timestamp) AS last_seen, sumMap([if((if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) = 0, toInt16(-32768), toInt16(ceil(log(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) / 0.019000571614286515)))], [toUInt64(1)]) AS latency_histogram, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, method, route, hour;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_requests_daily_mv ON CLUSTER fleet TO sightline.api_requests_daily_local AS SELECT project_id, app_id, environment, toDateTime(toStartOfDay(hour), 'UTC') AS day, source, sum(requests) AS requests, sum(errors) AS errors, sum(client_errors) AS client_errors, sum(server_errors) AS server_errors, sum(response_time_sum) AS response_time_sum, sum(request_bytes) AS request_bytes, sum(response_bytes) AS response_bytes, quantilesDDMergeState(0.005, 0.5, 0.95, 0.99)(latency) AS latency, uniqExactMergeState(endpoints) AS endpoints, uniqExactMergeState(consumers) AS consumers, max(rollup_days) AS rollup_days FROM sightline.api_requests_hourly_local WHERE source = 0 GROUP BY project_id, app_id, environment, day, source;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_errors_daily_mv ON CLUSTER fleet TO sightline.api_errors_daily_local AS SELECT project_id, app_id, environment, method, route, status_code, toDateTime(toStartOfDay(hour), 'UTC') AS day, source, sum(requests) AS requests, min(first_seen) AS first_seen, max(last_seen) AS last_seen, uniqExactMergeState(consumers) AS consumers, max(rollup_days) AS rollup_days FROM sightline.api_errors_hourly_local WHERE source = 0 GROUP BY project_id, app_id, environment, method, route, status_code, day, source;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_tiers_local ON CLUSTER fleet (
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
      query String CODEC(ZSTD(1)),
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String) CODEC(ZSTD(1)),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String) CODEC(ZSTD(3)),
      retention_days UInt16,
      stored_on Date,
      rollup_days UInt16,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_backfill_tiers_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 90, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_tiers ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String,
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String,
      user_agent LowCardinality(String),
      consumer_id String,
      consumer_name String,
      consumer_group LowCardinality(String),
      request_payload String,
      response_payload String,
      request_headers String,
      response_headers String,
      trace_id String,
      span_id String,
      query String,
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String),
      retention_days UInt16,
      stored_on Date,
      rollup_days UInt16
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_backfill_tiers_local', cityHash64(id));

TRUNCATE TABLE IF EXISTS sightline.api_requests_backfill_tiers_local ON CLUSTER fleet;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

DROP VIEW IF EXISTS sightline.api_consumers_daily_mv ON CLUSTER fleet SYNC;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_consumers_daily_mv ON CLUSTER fleet TO sightline.api_consumers_daily_local AS SELECT project_id, app_id, environment, consumer_id, toDateTime(toStartOfDay(timestamp), 'UTC') AS day, toUInt8(0) AS source, count() AS requests, countIf(status_code >= 400) AS errors, countIf(status_code >= 400 AND status_code < 500) AS client_errors, countIf(status_code >= 500) AS server_errors, sum(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) AS response_time_sum, sum(least(request_size, 1099511627776)) AS request_bytes, sum(least(response_size, 1099511627776)) AS response_bytes, max(timestamp) AS last_seen, sumMap([if((if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) = 0, toInt16(-32768), toInt16(ceil(log(if(isNaN(response_time_ms) OR response_time_ms < 0.001, 0, least(response_time_ms, 86400000))) / 0.019000571614286515)))], [toUInt64(1)]) AS latency_histogram, tuple(maxIf(timestamp, consumer_name != ''), argMaxIf(consumer_name, timestamp, consumer_name != '')) AS latest_name, tuple(maxIf(timestamp, consumer_group != ''), argMaxIf(consumer_group, timestamp, consumer_group != '')) AS latest_group, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, consumer_id, day;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_endpoint_statuses_hourly_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      status_code UInt16,
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_endpoint_statuses_hourly_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(hour), toYYYYMMDD(hour)))
    ORDER BY (project_id, app_id, method, route, hour, environment, status_code, source)
    TTL toDateTime(hour) + toIntervalDay(if(rollup_days = 0, 400, rollup_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_endpoint_statuses_hourly ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      method LowCardinality(String),
      route LowCardinality(String),
      status_code UInt16,
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_endpoint_statuses_hourly_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.rollup_backfill_statuses ON CLUSTER fleet (
      day Date,
      rows UInt64,
      done_at DateTime64(3, 'UTC')
    )
    ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sightline/rollup_backfill_statuses', '{replica}')
    ORDER BY (day)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_endpoint_statuses_hourly_mv ON CLUSTER fleet TO sightline.api_endpoint_statuses_hourly_local AS SELECT project_id, app_id, environment, method, route, status_code, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, method, route, status_code, hour;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_statuses_local ON CLUSTER fleet (
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
      query String CODEC(ZSTD(1)),
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String) CODEC(ZSTD(1)),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String) CODEC(ZSTD(3)),
      retention_days UInt16,
      stored_on Date,
      rollup_days UInt16,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_backfill_statuses_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 90, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_statuses ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String,
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String,
      user_agent LowCardinality(String),
      consumer_id String,
      consumer_name String,
      consumer_group LowCardinality(String),
      request_payload String,
      response_payload String,
      request_headers String,
      response_headers String,
      trace_id String,
      span_id String,
      query String,
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String),
      retention_days UInt16,
      stored_on Date,
      rollup_days UInt16
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_backfill_statuses_local', cityHash64(id));

TRUNCATE TABLE IF EXISTS sightline.api_requests_backfill_statuses_local ON CLUSTER fleet;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet ADD PROJECTION IF NOT EXISTS by_consumer (SELECT project_id, consumer_id, timestamp, app_id, environment, method, route, status_code, response_time_ms, request_size, response_size ORDER BY (project_id, consumer_id, timestamp));

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet MATERIALIZE PROJECTION by_consumer;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

CREATE TABLE IF NOT EXISTS sightline.api_request_latency_hourly_local ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      latency_0 SimpleAggregateFunction(sum, UInt64),
      latency_1 SimpleAggregateFunction(sum, UInt64),
      latency_2 SimpleAggregateFunction(sum, UInt64),
      latency_3 SimpleAggregateFunction(sum, UInt64),
      latency_4 SimpleAggregateFunction(sum, UInt64),
      latency_5 SimpleAggregateFunction(sum, UInt64),
      latency_6 SimpleAggregateFunction(sum, UInt64),
      latency_7 SimpleAggregateFunction(sum, UInt64),
      latency_8 SimpleAggregateFunction(sum, UInt64),
      latency_9 SimpleAggregateFunction(sum, UInt64),
      latency_10 SimpleAggregateFunction(sum, UInt64),
      latency_11 SimpleAggregateFunction(sum, UInt64),
      latency_12 SimpleAggregateFunction(sum, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/sightline/api_request_latency_hourly_local', '{replica}')
    PARTITION BY (source, if(source = 0, toYYYYMM(hour), toYYYYMMDD(hour)))
    ORDER BY (project_id, hour, app_id, environment, source)
    TTL toDateTime(hour) + toIntervalDay(if(rollup_days = 0, 400, rollup_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_request_latency_hourly ON CLUSTER fleet (
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      environment LowCardinality(String),
      hour DateTime('UTC'),
      source UInt8,
      requests SimpleAggregateFunction(sum, UInt64),
      latency_0 SimpleAggregateFunction(sum, UInt64),
      latency_1 SimpleAggregateFunction(sum, UInt64),
      latency_2 SimpleAggregateFunction(sum, UInt64),
      latency_3 SimpleAggregateFunction(sum, UInt64),
      latency_4 SimpleAggregateFunction(sum, UInt64),
      latency_5 SimpleAggregateFunction(sum, UInt64),
      latency_6 SimpleAggregateFunction(sum, UInt64),
      latency_7 SimpleAggregateFunction(sum, UInt64),
      latency_8 SimpleAggregateFunction(sum, UInt64),
      latency_9 SimpleAggregateFunction(sum, UInt64),
      latency_10 SimpleAggregateFunction(sum, UInt64),
      latency_11 SimpleAggregateFunction(sum, UInt64),
      latency_12 SimpleAggregateFunction(sum, UInt64),
      rollup_days SimpleAggregateFunction(max, UInt16)
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_request_latency_hourly_local', cityHash64(project_id, app_id, environment));

CREATE TABLE IF NOT EXISTS sightline.rollup_backfill_latency ON CLUSTER fleet (
      day Date,
      rows UInt64,
      done_at DateTime64(3, 'UTC')
    )
    ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/all/sightline/rollup_backfill_latency', '{replica}')
    ORDER BY (day)
    TTL toDateTime(day) + toIntervalDay(400)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE MATERIALIZED VIEW IF NOT EXISTS sightline.api_request_latency_hourly_mv ON CLUSTER fleet TO sightline.api_request_latency_hourly_local AS SELECT project_id, app_id, environment, toStartOfHour(timestamp) AS hour, toUInt8(0) AS source, count() AS requests, countIf(response_time_ms >= 0 AND response_time_ms < 5) AS latency_0, countIf(response_time_ms >= 5 AND response_time_ms < 10) AS latency_1, countIf(response_time_ms >= 10 AND response_time_ms < 25) AS latency_2, countIf(response_time_ms >= 25 AND response_time_ms < 50) AS latency_3, countIf(response_time_ms >= 50 AND response_time_ms < 100) AS latency_4, countIf(response_time_ms >= 100 AND response_time_ms < 250) AS latency_5, countIf(response_time_ms >= 250 AND response_time_ms < 500) AS latency_6, countIf(response_time_ms >= 500 AND response_time_ms < 1000) AS latency_7, countIf(response_time_ms >= 1000 AND response_time_ms < 2500) AS latency_8, countIf(response_time_ms >= 2500 AND response_time_ms < 5000) AS latency_9, countIf(response_time_ms >= 5000 AND response_time_ms < 10000) AS latency_10, countIf(response_time_ms >= 10000 AND response_time_ms < 30000) AS latency_11, countIf(response_time_ms >= 30000) AS latency_12, max(rollup_days) AS rollup_days FROM sightline.api_requests_local GROUP BY project_id, app_id, environment, hour;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_latency_local ON CLUSTER fleet (
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
      query String CODEC(ZSTD(1)),
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String) CODEC(ZSTD(1)),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String) CODEC(ZSTD(3)),
      retention_days UInt16,
      stored_on Date,
      rollup_days UInt16,
      INDEX trace_id_bloom trace_id TYPE bloom_filter(0.01) GRANULARITY 4,
      PROJECTION by_consumer (SELECT project_id, consumer_id, timestamp, app_id, environment, method, route, status_code, response_time_ms, request_size, response_size ORDER BY (project_id, consumer_id, timestamp))
    )
    ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/sightline/api_requests_backfill_latency_local', '{replica}')
    PARTITION BY (toMonday(stored_on), retention_days)
    ORDER BY (project_id, timestamp, id)
    TTL toDateTime(timestamp) + toIntervalDay(if(retention_days = 0, 90, retention_days))
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1, merge_with_ttl_timeout = 86400, ttl_only_drop_parts = 1;

CREATE TABLE IF NOT EXISTS sightline.api_requests_backfill_latency ON CLUSTER fleet (
      id UUID,
      project_id LowCardinality(String),
      app_id LowCardinality(String),
      timestamp DateTime64(3, 'UTC'),
      environment LowCardinality(String),
      method LowCardinality(String),
      path String,
      route LowCardinality(String),
      status_code UInt16,
      response_time_ms Float64,
      request_size UInt64,
      response_size UInt64,
      ip_address String,
      user_agent LowCardinality(String),
      consumer_id String,
      consumer_name String,
      consumer_group LowCardinality(String),
      request_payload String,
      response_payload String,
      request_headers String,
      response_headers String,
      trace_id String,
      span_id String,
      query String,
      base_url LowCardinality(String),
      scheme LowCardinality(String),
      validation_paths Array(String),
      validation_rules Array(LowCardinality(String)),
      validation_messages Array(String),
      retention_days UInt16,
      stored_on Date,
      rollup_days UInt16
    )
    ENGINE = Distributed('fleet', 'sightline', 'api_requests_backfill_latency_local', cityHash64(id));

TRUNCATE TABLE IF EXISTS sightline.api_requests_backfill_latency_local ON CLUSTER fleet;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet ADD PROJECTION IF NOT EXISTS by_endpoint (SELECT project_id, route, method, app_id, timestamp, environment, status_code, response_time_ms, request_size, response_size, consumer_id, consumer_name, consumer_group ORDER BY (project_id, route, method, app_id, timestamp));

ALTER TABLE sightline.api_requests_local ON CLUSTER fleet MATERIALIZE PROJECTION by_endpoint;

INSERT INTO sightline.schema_migrations (version, name, applied_at) SELECT {version:UInt32}, {name:String}, now64(3, 'UTC');
