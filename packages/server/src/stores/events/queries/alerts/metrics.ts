// The events-store side of evaluation: one statement answers every rule of a project that shares
// a window. Each rule becomes a pair of conditional aggregates (its request count and its metric)
// over one scan of the project's rows in the window, so the cost is one range read of the sort
// key (project_id, timestamp) however many rules the project has.
import type { AlertMetric } from "@sightline/contracts";
import { API_REQUESTS, type EventsExecutor } from "../../index.js";
import { allOf, SqlParams } from "../sql.js";
import { EXACT_PERCENTILE_ROWS, SKETCH_RELATIVE_ACCURACY } from "../traffic.js";
import { qualified, tenantConditions } from "../tenant.js";

/** What the statement needs of a rule: where it looks and what it measures. */
/** The metrics measured over requests (all but `silent_minutes`). */
export type RequestMetric = Exclude<AlertMetric, "silent_minutes">;

export interface MetricSpec {
  readonly appId: string | null;
  readonly environment: string | null;
  readonly endpoint: { readonly method: string; readonly route: string } | null;
  /** Silence rules read heartbeats from the metadata store, never this statement. */
  readonly metric: RequestMetric;
  readonly errorStatusFrom: number | null;
  /** `503` or `5xx`, for status_count. */
  readonly status: string | null;
}

export interface Observation {
  readonly requestCount: number;
  /** Null when the metric cannot be computed (no requests for a rate or a percentile). */
  readonly value: number | null;
}

export interface MetricWindow {
  readonly projectId: string;
  /** Epoch milliseconds, start inclusive, end exclusive. */
  readonly startMs: number;
  readonly endMs: number;
}

/** One observation per spec, in order, from one statement. */
export async function observe(
  events: EventsExecutor,
  window: MetricWindow,
  specs: readonly MetricSpec[],
): Promise<Observation[]> {
  if (specs.length === 0) return [];
  const params = new SqlParams();
  const columns = specs.flatMap((spec, index) => {
    const scope = scopeCondition(spec, params);
    return [`countIf(${scope}) AS n${index}`, `${metricSql(spec, scope, params)} AS v${index}`];
  });
  const [row] = await events.query<Record<string, number | null>>(
    `SELECT ${columns.join(", ")} FROM ${qualified(events, API_REQUESTS)} ` +
      // The window's end is exclusive here: consecutive evaluations never count a row twice.
      `WHERE ${allOf([...tenantConditions({ projectId: window.projectId, since: window.startMs }, params), `timestamp < ${params.instant(window.endMs)}`])}`,
    params.values,
    "read",
  );
  return specs.map((spec, index) => toObservation(spec, row?.[`n${index}`], row?.[`v${index}`]));
}

export function scopeCondition(spec: MetricSpec, params: SqlParams): string {
  const conditions: string[] = [];
  if (spec.appId !== null) conditions.push(`app_id = ${params.bind(spec.appId, "String")}`);
  if (spec.environment !== null) conditions.push(`environment = ${params.bind(spec.environment, "String")}`);
  if (spec.endpoint !== null) {
    conditions.push(`method = ${params.bind(spec.endpoint.method, "String")}`);
    conditions.push(`route = ${params.bind(spec.endpoint.route, "String")}`);
  }
  return `(${allOf(conditions)})`;
}

/**
 * The metric's aggregate. Percentiles mean what they mean in analytics: exact (interpolated) up
 * to EXACT_PERCENTILE_ROWS requests, a DDSketch within its relative accuracy above.
 */
export function metricSql(spec: MetricSpec, scope: string, params: SqlParams): string {
  switch (spec.metric) {
    case "error_rate":
      return `countIf(${scope} AND status_code >= ${params.bind(spec.errorStatusFrom ?? 500, "UInt16")})`;
    case "request_count":
      return "0";
    case "status_count": {
      const status = spec.status ?? "5xx";
      return status.endsWith("xx")
        ? `countIf(${scope} AND intDiv(status_code, 100) = ${params.bind(Number(status[0]), "UInt16")})`
        : `countIf(${scope} AND status_code = ${params.bind(Number(status), "UInt16")})`;
    }
    case "p95_latency_ms":
    case "p99_latency_ms": {
      const level = spec.metric === "p95_latency_ms" ? "0.95" : "0.99";
      return (
        `if(countIf(${scope}) <= ${EXACT_PERCENTILE_ROWS}, ` +
        `arrayReduce('quantileExactInclusive(${level})', groupArrayIf(${EXACT_PERCENTILE_ROWS})(response_time_ms, ${scope})), ` +
        `quantileDDIf(${SKETCH_RELATIVE_ACCURACY}, ${level})(response_time_ms, ${scope}))`
      );
    }
  }
}

function toObservation(spec: MetricSpec, rawCount: unknown, rawValue: unknown): Observation {
  const requestCount = typeof rawCount === "number" && Number.isFinite(rawCount) ? rawCount : 0;
  const value = typeof rawValue === "number" && Number.isFinite(rawValue) ? rawValue : null;
  switch (spec.metric) {
    case "request_count":
      return { requestCount, value: requestCount };
    case "status_count":
      return { requestCount, value: value ?? 0 };
    case "error_rate":
      return { requestCount, value: requestCount === 0 ? null : ((value ?? 0) / requestCount) * 100 };
    case "p95_latency_ms":
    case "p99_latency_ms":
      return { requestCount, value: requestCount === 0 ? null : value };
  }
}
