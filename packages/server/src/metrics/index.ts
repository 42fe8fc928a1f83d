// Public surface of the metrics module: the per-server registry and the ingest observer.
export { createMetrics, type Metrics, type MetricSources, type RejectReason } from "./metrics.js";
export { observeIngest } from "./ingest.observed.js";
