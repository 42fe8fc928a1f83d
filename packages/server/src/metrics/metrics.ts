// The server's Prometheus metrics: one Registry per server (tests build many apps in one
// process, so nothing is global), every instrument declared here with its help text, and the
// observers the stores, ingest and alerting report to. docs/metrics.md describes each series.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Clock } from "../clock.js";
import type { AlertsBacklog, AlertsObserver } from "../modules/alerts/index.js";
import type { EventsObserver, WriterStats } from "../stores/events/index.js";

/** Why ingested records were not stored: a closed set, so it can label a series. */
export type RejectReason =
  "invalid" | "too_large" | "store_refused" | "overloaded" | "unavailable" | "rate_limited" | "other";

/** What the scrape-time gauges read; set once the services exist. */
export interface MetricSources {
  /** Rows waiting or being inserted, per events table. */
  readonly pendingRows: () => Readonly<Record<string, WriterStats>>;
  readonly alertsBacklog: () => Promise<AlertsBacklog>;
  /** A source that failed during a scrape is reported here and its gauges left out. */
  readonly onSourceError: (source: string, error: unknown) => void;
}

export interface Metrics {
  readonly registry: Registry;
  readonly events: EventsObserver;
  readonly alerts: AlertsObserver;
  /** One HTTP answer: `route` is the route's pattern, never the URL. */
  httpResponse(route: string, method: string, status: number, seconds: number): void;
  ingestAccepted(kind: string, records: number): void;
  ingestRejected(kind: string, reason: RejectReason, records: number): void;
  watch(sources: MetricSources): void;
  /** The exposition text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  readonly clock: Clock;
  /** Process metrics (memory, CPU, GC, event-loop lag): off for apps that never expose them,
   *  as each collection keeps an event-loop monitor and a GC observer for the process's life. */
  readonly processMetrics: boolean;
}

/** Seconds: from sub-millisecond reads to the 30 s statement ceiling. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Rows per insert: the writer groups batches up to INGEST_FLUSH_ROWS (10 000 by default). */
const ROW_BUCKETS = [1, 10, 100, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 100_000];

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  let sources: MetricSources | undefined;
  // The backlog is read once per scrape (render() forgets it), though two gauges show it.
  let backlog: Promise<AlertsBacklog | undefined> | undefined;
  const readBacklog = () => {
    backlog ??= (async () => {
      try {
        return await sources?.alertsBacklog();
      } catch (error) {
        sources?.onSourceError("alerts backlog", error);
        return undefined;
      }
    })();
    return backlog;
  };

  const httpRequests = new Counter({
    name: "sightline_http_requests_total",
    help: "HTTP requests answered, by route pattern, method and status code.",
    labelNames: ["route", "method", "status"] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: "sightline_http_request_duration_seconds",
    help: "Time from receiving a request to sending its answer, by route pattern, method and status code.",
    labelNames: ["route", "method", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const httpRefused = new Counter({
    name: "sightline_http_refused_total",
    help: "Requests answered 429 (rate limited) or 503 (at capacity, store down, shutting down), by route pattern and status code.",
    labelNames: ["route", "status"] as const,
    registers,
  });
  const ingestAccepted = new Counter({
    name: "sightline_ingest_records_accepted_total",
    help: "Ingested records stored, by kind (requests, logs, spans).",
    labelNames: ["kind"] as const,
    registers,
  });
  const ingestRejected = new Counter({
    name: "sightline_ingest_records_rejected_total",
    help: "Ingested records not stored, by kind and reason (see docs/metrics.md for the reasons).",
    labelNames: ["kind", "reason"] as const,
    registers,
  });
  new Gauge({
    name: "sightline_ingest_pending_rows",
    help: "Rows waiting for or in an insert, per events table (ingest answers 503 past INGEST_MAX_PENDING_ROWS).",
    labelNames: ["table"] as const,
    registers,
    collect() {
      if (sources === undefined) return;
      for (const [table, stats] of Object.entries(sources.pendingRows())) {
        this.set({ table }, stats.queuedRows + stats.insertingRows);
      }
    },
  });
  const insertDuration = new Histogram({
    name: "sightline_events_insert_duration_seconds",
    help: "Time of one events-store insert (one group of ingest batches), by table and outcome.",
    labelNames: ["table", "outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const insertRows = new Histogram({
    name: "sightline_events_insert_rows",
    help: "Rows per events-store insert, by table and outcome.",
    labelNames: ["table", "outcome"] as const,
    buckets: ROW_BUCKETS,
    registers,
  });
  const queryDuration = new Histogram({
    name: "sightline_events_query_duration_seconds",
    help: "Time of one events-store query, by class (dashboard, alerts, ingest, export) and outcome.",
    labelNames: ["class", "outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const evaluationDuration = new Histogram({
    name: "sightline_alert_evaluation_duration_seconds",
    help: "Time of one alert evaluation pass on this instance (only the lease holder evaluates).",
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const evaluationFailedGroups = new Counter({
    name: "sightline_alert_evaluation_failed_groups_total",
    help: "Rule groups a pass could not evaluate (their events query failed); retried next pass.",
    registers,
  });
  new Gauge({
    name: "sightline_alert_evaluation_lag_seconds",
    help: "Seconds since any instance last evaluated an enabled rule; 0 when no rule is enabled.",
    registers,
    async collect() {
      const read = await readBacklog();
      if (read === undefined) return;
      const last = read.lastEvaluatedAt;
      // No rule enabled, or none evaluated yet: nothing is late.
      if (read.enabledRules === 0 || last === null) this.set(0);
      else this.set(Math.max(0, options.clock.now().getTime() - last.getTime()) / 1000);
    },
  });
  new Gauge({
    name: "sightline_alert_delivery_queue_depth",
    help: "Pending alert notifications: state=due (to send now or being sent), state=waiting (retry later).",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      const read = await readBacklog();
      if (read === undefined) return;
      this.set({ state: "due" }, read.deliveriesDue);
      this.set({ state: "waiting" }, read.deliveriesWaiting);
    },
  });
  const deliveryAttempts = new Counter({
    name: "sightline_alert_delivery_attempts_total",
    help: "Alert notification send attempts by channel type and outcome (delivered, retrying, failed).",
    labelNames: ["channel_type", "outcome"] as const,
    registers,
  });

  return {
    registry,
    events: {
      query: (queryClass, seconds, outcome) => queryDuration.observe({ class: queryClass, outcome }, seconds),
      insert(table, rows, seconds, outcome) {
        insertDuration.observe({ table, outcome }, seconds);
        insertRows.observe({ table, outcome }, rows);
      },
    },
    alerts: {
      evaluationCompleted(seconds, summary) {
        evaluationDuration.observe(seconds);
        if (summary.failedGroups > 0) evaluationFailedGroups.inc(summary.failedGroups);
      },
      deliveryAttempted: (channelType, outcome) =>
        deliveryAttempts.inc({ channel_type: channelType, outcome }),
    },
    httpResponse(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
      if (status === 429 || status === 503) httpRefused.inc({ route, status: labels.status });
    },
    ingestAccepted(kind, records) {
      if (records > 0) ingestAccepted.inc({ kind }, records);
    },
    ingestRejected(kind, reason, records) {
      if (records > 0) ingestRejected.inc({ kind, reason }, records);
    },
    watch(next) {
      sources = next;
    },
    async render() {
      backlog = undefined;
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
