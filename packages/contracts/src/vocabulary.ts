// The wire vocabularies as plain values (no TypeBox): what the dashboard may import at run time
// (`@sightline/contracts/vocabulary`) so it never keeps its own copy of a contract's word list.

/** The stored log levels, least to most severe. */
export const LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Sort keys of endpoint-stats and the project endpoints list. */
export const ENDPOINT_SORT_KEYS = [
  "endpoint",
  "total_requests",
  "error_count",
  "error_rate",
  "avg_response_time_ms",
  "p50_response_time_ms",
  "p95_response_time_ms",
  "p99_response_time_ms",
  "data_transfer",
  "last_seen_at",
] as const;
export type EndpointSortKey = (typeof ENDPOINT_SORT_KEYS)[number];

/** Sort keys of the project consumers list. */
export const CONSUMER_SORT_KEYS = [
  "consumer",
  "total_requests",
  "error_count",
  "error_rate",
  "avg_response_time_ms",
  "p50_response_time_ms",
  "p95_response_time_ms",
  "p99_response_time_ms",
  "data_transfer",
  "last_seen_at",
] as const;
export type ConsumerSortKey = (typeof CONSUMER_SORT_KEYS)[number];

/** Sort keys of the project errors breakdown. */
export const ERROR_SORT_KEYS = ["count", "affected_consumers", "first_seen_at", "last_seen_at"] as const;
export type ErrorSortKey = (typeof ERROR_SORT_KEYS)[number];

/** Sort keys of the request search: newest, slowest, largest (response body). */
export const REQUEST_SORT_KEYS = ["timestamp", "response_time_ms", "response_size"] as const;
export type RequestSortKey = (typeof REQUEST_SORT_KEYS)[number];

/** The formats an export is written in. */
export const EXPORT_FORMATS = ["ndjson", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Metrics an anomaly alert rule takes (ADR 0020). */
export const ANOMALY_METRICS = ["request_count", "error_rate", "p95_latency_ms"] as const;
export type AnomalyMetric = (typeof ANOMALY_METRICS)[number];

/** How wide an anomaly rule's band is. */
export const ANOMALY_SENSITIVITIES = ["low", "medium", "high"] as const;
export type AnomalySensitivity = (typeof ANOMALY_SENSITIVITIES)[number];

/** Which side of the band fires. */
export const ANOMALY_DIRECTIONS = ["both", "up", "down"] as const;
export type AnomalyDirection = (typeof ANOMALY_DIRECTIONS)[number];

/** The windows an anomaly rule may evaluate, in seconds. */
export const ANOMALY_WINDOW_SECONDS = [60, 120, 300, 600, 900, 1800, 3600] as const;

/** An SLO's rolling window in days. */
export const SLO_WINDOW_DAYS = [7, 28, 30] as const;
export type SloWindowDays = (typeof SLO_WINDOW_DAYS)[number];
