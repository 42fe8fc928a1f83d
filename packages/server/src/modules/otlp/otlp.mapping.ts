// From OpenTelemetry's vocabulary to Sightline's: resource attributes to app and environment,
// every span to an api_spans row, a SERVER span with HTTP semantic-convention attributes (current
// and older names) to an api_requests row as well, an OTLP log record to a log record. Spans go
// straight to rows (row kinds for ingest's placed-input pipeline, built by the same spanRow and
// requestRow as posted records): no wire-shaped record in between, the hot path of OTLP ingest.
// Pure.
import { HTTP_METHOD_TOKEN, INGEST_LIMITS, type IngestLogRecord } from "@sightline/contracts";
import {
  API_REQUESTS,
  API_SPANS,
  type ApiRequestsColumn,
  type ApiSpansColumn,
} from "../../stores/events/index.js";
import {
  type AppRef,
  cutChars,
  foldHeaders,
  type PlacedInput,
  readEndpoint,
  readHexId,
  type RecordProblem,
  requestRow,
  type RowKind,
  readSpanIds,
  setOwn,
  spanRow,
  uuidV7Derived,
} from "../ingest/index.js";
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

/** Where a resource's telemetry goes: its app (resolved from the key's apps) and environment. */
export interface Destination {
  readonly app: AppRef;
  readonly environment: string;
  /** The resource's `service.name` as sent ("" when none). */
  readonly serviceName: string;
}

/** A span on its way to rows: its resource's destination and its start in milliseconds. */
export interface PlacedSpan extends PlacedInput {
  readonly span: OtlpSpan;
  readonly serviceName: string;
}

export function placeSpan(span: OtlpSpan, to: Destination): PlacedSpan {
  return {
    span,
    serviceName: to.serviceName,
    app: to.app,
    environment: to.environment,
    timestampMs: Number(span.startNs / 1_000_000n),
  };
}

/** Span kinds by their OTLP number, as span rows name them. */
const KIND_NAMES: Readonly<Record<number, string>> = {
  [SPAN_KIND.INTERNAL]: "internal",
  [SPAN_KIND.SERVER]: "server",
  [SPAN_KIND.CLIENT]: "client",
  [SPAN_KIND.PRODUCER]: "producer",
  [SPAN_KIND.CONSUMER]: "consumer",
};
const STATUS_ERROR = 2;

/**
 * Every span as an api_spans row: ids checked as W3C ids, kind and status named, the HTTP status
 * code when the span carries one, attributes as text within the limits (the first that fit are
 * kept, so a span is not lost over its least important attributes).
 */
export const otlpSpanRows: RowKind<PlacedSpan, ApiSpansColumn> = {
  name: "spans",
  table: API_SPANS,
  rowId: spanRowId,
  build({ span, serviceName }, problems) {
    const before = problems.length;
    const ids = readSpanIds(span.traceId, span.spanId, span.parentSpanId, problems);
    const durationMs = durationOf(span, "/duration_ms", problems);
    if (problems.length > before) return null;

    const httpStatus = httpStatusOf(span.attributes);
    return spanRow({
      traceId: ids.traceId,
      spanId: ids.spanId,
      parentSpanId: ids.parentSpanId,
      name: span.name,
      kind: KIND_NAMES[span.kind] ?? "internal",
      serviceName,
      durationMs,
      status: span.statusCode === STATUS_ERROR ? "error" : "ok",
      statusCode: httpStatus !== undefined && httpStatus >= 100 && httpStatus <= 599 ? httpStatus : 0,
      attributes: textAttributes(span.attributes),
    });
  },
};

/** A span's rows (its span row, and its request row when it serves one) are named by its trace
 *  and span id, so an export sent again makes the same rows, which are then stored once. */
function spanRowId({ span }: PlacedSpan, timestampMs: number): string {
  return uuidV7Derived(timestampMs, `${span.traceId}/${span.spanId}`);
}

/** Whether a span stands for a handled HTTP request: of kind SERVER, with a method, a response
 *  status code and a path (or route) starting with `/`. Those yield an api_requests row too. */
export function servesHttpRequest(span: OtlpSpan): boolean {
  if (span.kind !== SPAN_KIND.SERVER) return false;
  const { attributes } = span;
  if (methodOf(attributes) === "" || httpStatusOf(attributes) === undefined) return false;
  return (pathOf(attributes) || text(attributes, "http.route")).startsWith("/");
}

/** The api_requests row of a span servesHttpRequest accepts: the request's endpoint, status,
 *  timing, sizes, client, consumer and captured headers, by current and older attribute names. */
export const otlpRequestRows: RowKind<PlacedSpan, ApiRequestsColumn> = {
  name: "requests",
  table: API_REQUESTS,
  rowId: spanRowId,
  build({ span }, problems) {
    const before = problems.length;
    const { attributes } = span;
    const method = methodOf(attributes);
    if (method.length > INGEST_LIMITS.methodLength || !METHOD.test(method)) {
      problems.push({
        path: "/method",
        message: `must be an HTTP method token of at most ${INGEST_LIMITS.methodLength} characters`,
      });
    }
    const statusCode = httpStatusOf(attributes) ?? 0;
    if (statusCode < 100 || statusCode > 599)
      problems.push({ path: "/status_code", message: "must be 100–599" });
    const route = text(attributes, "http.route");
    const rawPath = pathOf(attributes) || route;
    if (rawPath.length > INGEST_LIMITS.pathLength)
      problems.push({ path: "/path", message: `must be at most ${INGEST_LIMITS.pathLength} characters` });
    if (route.length > INGEST_LIMITS.pathLength)
      problems.push({ path: "/route", message: `must be at most ${INGEST_LIMITS.pathLength} characters` });
    const responseTimeMs = durationOf(span, "/response_time_ms", problems);
    const requestSize = sizeOf(attributes, REQUEST_SIZE, "/request_size", problems);
    const responseSize = sizeOf(attributes, RESPONSE_SIZE, "/response_size", problems);
    const endpoint = readEndpoint(rawPath, route, problems);
    const requestHeaders = foldHeaders(
      headers(attributes, "http.request.header."),
      "request_headers",
      problems,
    );
    const responseHeaders = foldHeaders(
      headers(attributes, "http.response.header."),
      "response_headers",
      problems,
    );
    const traceId = readHexId(span.traceId, 32, "trace_id", problems);
    const spanId = readHexId(span.spanId, 16, "span_id", problems);
    if (problems.length > before) return null;

    return requestRow({
      method,
      path: endpoint.path,
      query: endpoint.query,
      route: endpoint.route,
      statusCode,
      responseTimeMs,
      requestSize,
      responseSize,
      ipAddress: firstText(attributes, CLIENT_ADDRESS),
      userAgent: text(attributes, "user_agent.original") || text(attributes, "http.user_agent"),
      consumerId: text(attributes, "enduser.id") || text(attributes, "user.id"),
      consumerName: text(attributes, "user.name"),
      consumerGroup: "",
      requestPayload: "",
      responsePayload: "",
      requestHeaders,
      responseHeaders,
      traceId,
      spanId,
      baseUrl: "",
      scheme: otlpScheme(text(attributes, "url.scheme") || text(attributes, "http.scheme")),
      validationErrors: [],
    });
  },
};

const METHOD = new RegExp(`^${HTTP_METHOD_TOKEN}+$`);
const REQUEST_SIZE = ["http.request.body.size", "http.request_content_length"];
const RESPONSE_SIZE = ["http.response.body.size", "http.response_content_length"];

function methodOf(attributes: Attributes): string {
  return text(attributes, "http.request.method") || text(attributes, "http.method");
}

function httpStatusOf(attributes: Attributes): number | undefined {
  return integer(attributes, "http.response.status_code") ?? integer(attributes, "http.status_code");
}

/** The span's duration in milliseconds (0 when it ends before it starts); over a day is a problem. */
function durationOf(span: OtlpSpan, path: string, problems: RecordProblem[]): number {
  const ms = span.endNs > span.startNs ? Number(span.endNs - span.startNs) / 1e6 : 0;
  if (ms > INGEST_LIMITS.maxResponseTimeMs)
    problems.push({ path, message: `must be at most ${INGEST_LIMITS.maxResponseTimeMs} ms (24 hours)` });
  return ms;
}

/** A body size by the first attribute name present; 0 when none; over the limit is a problem. */
function sizeOf(
  attributes: Attributes,
  keys: readonly string[],
  path: string,
  problems: RecordProblem[],
): number {
  for (const key of keys) {
    const size = integer(attributes, key);
    if (size === undefined) continue;
    if (size > INGEST_LIMITS.maxBodySizeBytes)
      problems.push({ path, message: `must be at most ${INGEST_LIMITS.maxBodySizeBytes} bytes` });
    return size;
  }
  return 0;
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
    app_id: to.app.id,
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

/** `http.request.header.<name>` attributes (string arrays per semconv) as header entries. */
function headers(attributes: Attributes, prefix: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [key, value] of attributes) {
    if (!key.startsWith(prefix) || key.length === prefix.length) continue;
    entries.push([
      key.slice(prefix.length),
      Array.isArray(value) ? value.map(valueText).join(", ") : valueText(value),
    ]);
  }
  return entries;
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

/** Attributes as an api_spans row keeps them: text (structured values as JSON) cut to the
 *  limits, the first that fit kept. */
function textAttributes(attributes: Attributes): Record<string, string> {
  // A plain object stays in V8's fast mode (a null-prototype one does not, and serialises a
  // quarter slower).
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [key, value] of attributes) {
    if (count >= INGEST_LIMITS.attributeCount) break;
    if (key.length > INGEST_LIMITS.attributeKeyLength) continue;
    setOwn(kept, key, cutChars(valueText(value), INGEST_LIMITS.attributeValueLength));
    count += 1;
  }
  return kept;
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

/** `url.scheme` (or the older `http.scheme`) when it is http or https; otherwise unknown. */
function otlpScheme(value: string): string {
  const scheme = value.toLowerCase();
  return scheme === "http" || scheme === "https" ? scheme : "";
}
