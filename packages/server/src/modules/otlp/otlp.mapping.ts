// From OpenTelemetry's vocabulary to Sightline's records: resource attributes to app and
// environment, every span to a span record, a SERVER span with HTTP semantic-convention attributes (current and older names)
// to a request record, an OTLP log record to a log record. Pure; the records it builds go
// through the same ingest pipeline as records posted to /ingest, which validates them again.
import {
  INGEST_LIMITS,
  type IngestLogRecord,
  type IngestRequestRecord,
  type IngestSpanRecord,
} from "@sightline/contracts";
import type { AttributeValue, Attributes, OtlpLogRecord, OtlpSpan } from "./otlp.model.js";
import { SPAN_KIND } from "./otlp.model.js";

/** Used when a resource names no environment; the Node SDK's default too. */
export const DEFAULT_ENVIRONMENT = "production";

/** What a resource says about where its telemetry comes from. */
export interface ResourceIdentity {
  /** `service.name`; "" when missing or the SDKs' `unknown_service` placeholder. */
  readonly serviceName: string;
  readonly environment: string;
}

export function resourceIdentity(resource: Attributes): ResourceIdentity {
  const service = text(resource, "service.name").trim();
  const environment =
    text(resource, "deployment.environment.name") || text(resource, "deployment.environment");
  return {
    // SDKs fill `unknown_service` or `unknown_service:<process>` when nothing was configured.
    serviceName: service.startsWith("unknown_service") ? "" : service,
    environment: environment.trim() === "" ? DEFAULT_ENVIRONMENT : environment,
  };
}

/** Where a record goes: the app id (already resolved) and the environment. */
export interface Destination {
  readonly appId: string;
  readonly environment: string;
  /** The resource's `service.name` as sent ("" when none). */
  readonly serviceName: string;
}

/** Span kinds by their OTLP number, as span records name them. */
const KIND_NAMES: Readonly<Record<number, string>> = {
  [SPAN_KIND.INTERNAL]: "internal",
  [SPAN_KIND.SERVER]: "server",
  [SPAN_KIND.CLIENT]: "client",
  [SPAN_KIND.PRODUCER]: "producer",
  [SPAN_KIND.CONSUMER]: "consumer",
};
const STATUS_ERROR = 2;

/** The span record of any span: ids, timing, kind, status (the HTTP status code when the span
 *  carries one), service and attributes. The ingest pipeline checks ids and times. */
export function spanRecordOf(span: OtlpSpan, to: Destination): IngestSpanRecord {
  const { attributes } = span;
  const httpStatus =
    integer(attributes, "http.response.status_code") ?? integer(attributes, "http.status_code");
  const record: Mutable<IngestSpanRecord> = {
    app_id: to.appId,
    timestamp: isoOf(span.startNs),
    environment: to.environment,
    trace_id: span.traceId,
    span_id: span.spanId,
    name: span.name,
    kind: KIND_NAMES[span.kind] ?? "internal",
    duration_ms: span.endNs > span.startNs ? Number(span.endNs - span.startNs) / 1e6 : 0,
    status: span.statusCode === STATUS_ERROR ? "error" : "ok",
    status_code: httpStatus !== undefined && httpStatus >= 100 && httpStatus <= 599 ? httpStatus : 0,
  };
  if (span.parentSpanId !== "") record.parent_span_id = span.parentSpanId;
  if (to.serviceName !== "") record.service_name = to.serviceName;
  if (span.attributes.size > 0) record.attributes = recordAttributes(span.attributes);
  return record;
}

/**
 * The request record a span stands for, or null when it is not a handled HTTP request: the span
 * must be of kind SERVER and carry a method and a response status code.
 */
export function requestRecordOf(span: OtlpSpan, to: Destination): IngestRequestRecord | null {
  if (span.kind !== SPAN_KIND.SERVER) return null;
  const { attributes } = span;
  const method = text(attributes, "http.request.method") || text(attributes, "http.method");
  const status = integer(attributes, "http.response.status_code") ?? integer(attributes, "http.status_code");
  if (method === "" || status === undefined) return null;
  const route = text(attributes, "http.route");
  const path = pathOf(attributes) || route;
  if (!path.startsWith("/")) return null;

  const record: Mutable<IngestRequestRecord> = {
    app_id: to.appId,
    timestamp: isoOf(span.startNs),
    environment: to.environment,
    method,
    path,
    status_code: status,
    response_time_ms: span.endNs > span.startNs ? Number(span.endNs - span.startNs) / 1e6 : 0,
  };
  if (route !== "") record.route = route;
  const requestSize =
    integer(attributes, "http.request.body.size") ?? integer(attributes, "http.request_content_length");
  const responseSize =
    integer(attributes, "http.response.body.size") ?? integer(attributes, "http.response_content_length");
  if (requestSize !== undefined) record.request_size = requestSize;
  if (responseSize !== undefined) record.response_size = responseSize;
  const ip = firstText(attributes, CLIENT_ADDRESS);
  if (ip !== "") record.ip_address = ip;
  const userAgent = text(attributes, "user_agent.original") || text(attributes, "http.user_agent");
  if (userAgent !== "") record.user_agent = userAgent;
  const consumer = text(attributes, "enduser.id") || text(attributes, "user.id");
  if (consumer !== "") record.consumer_id = consumer;
  const consumerName = text(attributes, "user.name");
  if (consumerName !== "") record.consumer_name = consumerName;
  const requestHeaders = headers(attributes, "http.request.header.");
  const responseHeaders = headers(attributes, "http.response.header.");
  if (requestHeaders !== undefined) record.request_headers = requestHeaders;
  if (responseHeaders !== undefined) record.response_headers = responseHeaders;
  if (span.traceId !== "") record.trace_id = span.traceId;
  if (span.spanId !== "") record.span_id = span.spanId;
  return record;
}

/** Where the client's address may be, newest convention first. */
const CLIENT_ADDRESS = ["client.address", "http.client_ip", "net.peer.ip", "network.peer.address"];

/**
 * The log record an OTLP log record stands for, or a reason it has none. Severity: the number
 * when set (the OTLP ranges), else the text; the body is the message (structured bodies as JSON).
 */
export function logRecordOf(log: OtlpLogRecord, to: Destination): IngestLogRecord | string {
  const timeNs = log.timeNs > 0n ? log.timeNs : log.observedNs;
  if (timeNs === 0n) return "has neither time_unix_nano nor observed_time_unix_nano";
  const message = log.body === null ? log.eventName : valueText(log.body);
  if (message === "") return "has an empty body and no event name";

  const record: Mutable<IngestLogRecord> = {
    app_id: to.appId,
    timestamp: isoOf(timeNs),
    environment: to.environment,
    level: levelOf(log.severityNumber, log.severityText),
    message,
  };
  if (log.scope !== "") record.logger_name = log.scope;
  if (log.attributes.size > 0) record.attributes = recordAttributes(log.attributes);
  if (log.traceId !== "") record.trace_id = log.traceId;
  if (log.spanId !== "") record.span_id = log.spanId;
  const method = text(log.attributes, "http.request.method") || text(log.attributes, "http.method");
  const path = pathOf(log.attributes).split("?")[0] ?? "";
  if (method !== "" && path.startsWith("/")) {
    record.endpoint_method = method;
    record.endpoint_path = path;
  }
  const status =
    integer(log.attributes, "http.response.status_code") ?? integer(log.attributes, "http.status_code");
  if (status !== undefined && status >= 100 && status <= 599) record.status_code = status;
  return record;
}

/** OTLP severity numbers come in fours: TRACE 1–4, DEBUG 5–8, INFO 9–12, WARN 13–16, ERROR
 *  17–20, FATAL 21–24. The ingest pipeline maps TRACE/WARN/FATAL to its own levels. */
function levelOf(severityNumber: number, severityText: string): string {
  if (severityNumber >= 1 && severityNumber <= 24) {
    return (
      ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"][Math.floor((severityNumber - 1) / 4)] ?? "INFO"
    );
  }
  return severityText.trim() === "" ? "INFO" : severityText;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The raw path with its query string: `url.path` + `url.query`, or `http.target`, or the
 *  path of `url.full` / `http.url`. "" when none is there. */
function pathOf(attributes: Attributes): string {
  const path = text(attributes, "url.path");
  if (path !== "") {
    const query = text(attributes, "url.query");
    return query === "" ? path : `${path}?${query}`;
  }
  const target = text(attributes, "http.target");
  if (target !== "") return target;
  const full = text(attributes, "url.full") || text(attributes, "http.url");
  if (full === "") return "";
  try {
    const url = new URL(full);
    return `${url.pathname}${url.search}`;
  } catch {
    return "";
  }
}

/** `http.request.header.<name>` attributes (string arrays per semconv) as a header object. */
function headers(attributes: Attributes, prefix: string): Record<string, string> | undefined {
  const entries: Array<[string, string]> = [];
  for (const [key, value] of attributes) {
    if (!key.startsWith(prefix) || key.length === prefix.length) continue;
    entries.push([
      key.slice(prefix.length),
      Array.isArray(value) ? value.map(valueText).join(", ") : valueText(value),
    ]);
  }
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

function text(attributes: Attributes, key: string): string {
  const value = attributes.get(key);
  return typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : "";
}

function firstText(attributes: Attributes, keys: readonly string[]): string {
  for (const key of keys) {
    const value = text(attributes, key);
    if (value !== "") return value;
  }
  return "";
}

/** A non-negative integer attribute (sent as int, or as text by careless instrumentations). */
function integer(attributes: Attributes, key: string): number | undefined {
  const value = attributes.get(key);
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

/**
 * Attributes as a record takes them: scalars as they are, the rest as JSON. OpenTelemetry allows
 * 128 attributes and long keys where a record takes fewer: the first that fit are kept (so the
 * telemetry is not lost over its least important attributes), the rest dropped.
 */
export function recordAttributes(attributes: Attributes): Record<string, string | number | boolean> {
  const kept: Array<[string, string | number | boolean]> = [];
  for (const [key, value] of attributes) {
    if (kept.length >= INGEST_LIMITS.attributeCount) break;
    if (key.length <= INGEST_LIMITS.attributeKeyLength) kept.push([key, scalar(value)]);
  }
  // fromEntries defines own properties: a "__proto__" attribute stays an attribute.
  return Object.fromEntries(kept);
}

/** Log attribute values as the log record takes them: scalars as they are, the rest as JSON. */
function scalar(value: AttributeValue): string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? value
    : valueText(value);
}

function valueText(value: AttributeValue): string {
  if (value === null) return "";
  return typeof value === "string"
    ? value
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);
}

/** Unix nanoseconds as ISO 8601 with milliseconds: what the tables keep, and the form ingest
 *  reads fastest. */
function isoOf(ns: bigint): string {
  const date = new Date(Number(ns / 1_000_000n));
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}
