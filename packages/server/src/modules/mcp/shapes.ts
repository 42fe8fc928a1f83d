// The compact shapes MCP tools answer with: the API's own figures under names that carry their
// unit (`error_rate_pct`, `*_ms`, `*_bytes`), endpoints as "METHOD /route", long texts cut to a
// bound and marked so, and deltas rounded to what a reader can use.
import type {
  LogRecord,
  ProjectConsumerStats,
  ProjectEndpointStats,
  RequestRecord,
  Summary,
} from "@sightline/contracts";

/** Longest text a list item carries (payloads and messages in full are one call away). */
export const TEXT_BOUND = 300;
/** Longest payload a single-record answer carries. */
export const PAYLOAD_BOUND = 4000;

export function bounded(text: string, max = TEXT_BOUND): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

export const round2 = (value: number) => Math.round(value * 100) / 100;

type Traffic = Pick<
  Summary,
  | "total_requests"
  | "error_count"
  | "client_errors"
  | "server_errors"
  | "error_rate"
  | "avg_response_time_ms"
  | "p50_response_time_ms"
  | "p95_response_time_ms"
  | "p99_response_time_ms"
>;

/** The traffic figures of an aggregate, exactly as the API computes them. */
export function traffic(figures: Traffic) {
  return {
    total_requests: figures.total_requests,
    error_count: figures.error_count,
    client_errors_4xx: figures.client_errors,
    server_errors_5xx: figures.server_errors,
    error_rate_pct: figures.error_rate,
    avg_response_time_ms: figures.avg_response_time_ms,
    p50_response_time_ms: figures.p50_response_time_ms,
    p95_response_time_ms: figures.p95_response_time_ms,
    p99_response_time_ms: figures.p99_response_time_ms,
  };
}

export type TrafficFigures = ReturnType<typeof traffic>;

/** How each figure moved from the baseline to the window (after − before). */
export function change(after: TrafficFigures, before: TrafficFigures) {
  const requestsPct =
    before.total_requests === 0
      ? null
      : round2(((after.total_requests - before.total_requests) / before.total_requests) * 100);
  return {
    total_requests: after.total_requests - before.total_requests,
    total_requests_pct: requestsPct,
    error_count: after.error_count - before.error_count,
    server_errors_5xx: after.server_errors_5xx - before.server_errors_5xx,
    error_rate_pct_points: round2(after.error_rate_pct - before.error_rate_pct),
    p95_response_time_ms: round2(after.p95_response_time_ms - before.p95_response_time_ms),
    avg_response_time_ms: round2(after.avg_response_time_ms - before.avg_response_time_ms),
  };
}

export const endpointName = (row: { method: string; path: string }) => `${row.method} ${row.path}`;

export function endpointRow(row: ProjectEndpointStats) {
  return {
    app: row.app_slug,
    endpoint: endpointName(row),
    ...traffic(row),
    data_transfer_bytes: row.total_request_bytes + row.total_response_bytes,
    last_seen_at: row.last_seen_at,
  };
}

export function consumerRow(row: ProjectConsumerStats) {
  return {
    consumer_id: row.consumer_id,
    consumer: row.consumer,
    consumer_group: row.consumer_group,
    ...traffic(row),
    last_seen_at: row.last_seen_at,
  };
}

/** A request record in a list: what locates and characterises it, no payloads or headers. */
export function requestRow(row: RequestRecord, appSlugs: ReadonlyMap<string, string>) {
  return {
    id: row.id,
    timestamp: row.timestamp,
    app: appSlugs.get(row.app_id) ?? null,
    environment: row.environment,
    endpoint: `${row.method} ${row.route}`,
    path: bounded(row.query === "" ? row.path : `${row.path}?${row.query}`),
    status_code: row.status_code,
    response_time_ms: row.response_time_ms,
    consumer_id: row.consumer_id,
    trace_id: row.trace_id,
  };
}

export function logRow(row: LogRecord, appSlugs: ReadonlyMap<string, string>) {
  return {
    id: row.id,
    timestamp: row.timestamp,
    app: appSlugs.get(row.app_id) ?? null,
    environment: row.environment,
    level: row.level,
    logger: row.logger_name,
    message: bounded(row.message),
    trace_id: row.trace_id,
  };
}
