// Request records as sent: one plain object per exchange, serialised with the rest of its batch
// by a single JSON.stringify. (A hand-written encoder writing JSON text field by field was tried
// and measured slower: V8's JSON.stringify of flat objects is faster than many small
// stringify calls and concatenations; see docs/performance.md.)
import type { Exchange } from "../capture/exchange.js";
import { REDACTED } from "../capture/redact.js";
import { type RequestRecordWire, WIRE_LIMITS } from "../wire.js";

export interface EncoderSettings {
  readonly app: string;
  readonly environment: string;
  readonly projectSlug: string | undefined;
  /** Query keys whose values are masked. */
  readonly secretKeys: RegExp;
}

/** Returns a function turning one exchange into its request record. */
export function requestEncoder(settings: EncoderSettings): (ex: Exchange) => RequestRecordWire {
  return (ex) => {
    const query = ex.query === "" ? "" : `?${maskQuery(ex.query, settings.secretKeys)}`;
    const record: RequestRecordWire = {
      app_id: settings.app,
      timestamp: isoTimestamp(ex.timestamp),
      environment: settings.environment,
      method: ex.method,
      path: (ex.path + query).slice(0, WIRE_LIMITS.pathLength),
      status_code: ex.status,
      response_time_ms: Math.round(ex.durationMs * 1000) / 1000,
      request_size: ex.requestSize,
      response_size: ex.responseSize,
      ip_address: ex.ip,
      user_agent: ex.userAgent,
      trace_id: ex.traceId,
      span_id: ex.spanId,
    };
    if (settings.projectSlug !== undefined) record.project_slug = settings.projectSlug;
    if (ex.route !== undefined) record.route = ex.route;
    if (ex.scheme !== "") record.scheme = ex.scheme;
    if (ex.validationErrors !== undefined && (ex.status === 400 || ex.status === 422)) {
      record.validation_errors = ex.validationErrors;
    }
    const consumer = ex.consumer;
    if (consumer !== undefined) {
      record.consumer_id = consumer.id;
      if (consumer.name !== undefined) record.consumer_name = consumer.name;
      if (consumer.group !== undefined) record.consumer_group = consumer.group;
    }
    if (ex.requestHeaders !== undefined) record.request_headers = ex.requestHeaders;
    if (ex.responseHeaders !== undefined) record.response_headers = ex.responseHeaders;
    if (ex.requestBody !== undefined && ex.requestBody !== "") record.request_payload = ex.requestBody;
    if (ex.responseBody !== undefined && ex.responseBody !== "") record.response_payload = ex.responseBody;
    return record;
  };
}

let cachedSecond = Number.NaN;
let cachedPrefix = "";

/** `Date#toISOString` of an epoch-ms integer, formatting the date and time once per second. */
export function isoTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    // Everything up to the milliseconds: "2026-11-26T04:40:07." (years past 9999 included).
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, -4);
    cachedSecond = second;
  }
  const milli = ms - second * 1000;
  return `${cachedPrefix}${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
}

/** Query values under secret-looking keys masked; the rest as sent. */
function maskQuery(query: string, keys: RegExp): string {
  if (!keys.test(query)) return query;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (keys.test(key)) params.set(key, REDACTED);
  return params.toString();
}
