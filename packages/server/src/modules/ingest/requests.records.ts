// The request-record kind: how one record of POST /ingest/requests becomes a row of
// api_requests (defaults, limits, query string split off, route template, headers with secrets
// redacted, headers sent as JSON text by the APILens Python SDK). The row itself is built by
// requestRow, which OTLP's server spans go through as well.
import {
  INGEST_LIMITS,
  type IngestRequestRecord,
  IngestRequestRecordSchema,
  RESOURCE_LIMITS,
} from "@sightline/contracts";
import { API_REQUESTS, type ApiRequestsColumn } from "../../stores/events/index.js";
import {
  type BuiltRow,
  declaredFields,
  escapePointer,
  readHexId,
  type RecordKind,
  type RecordProblem,
} from "./records.js";
import { checkJson, JsonCapError, type JsonCaps } from "../../lib/capped-json.js";
import { deriveRouteTemplate, normaliseRouteTemplate } from "./route-template.js";
import { cutChars, cutUtf8 } from "./text.js";

/** Credentials an instrumented app may forward by mistake; never stored. */
const REDACTED_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
]);
const REDACTED = "[REDACTED]";
const NO_HEADERS = "{}";

export const requestKind: RecordKind<IngestRequestRecord, ApiRequestsColumn> = {
  name: "requests",
  table: API_REQUESTS,
  schema: IngestRequestRecordSchema,
  fields: declaredFields(IngestRequestRecordSchema),
  build(record, problems) {
    const before = problems.length;
    if (!Number.isFinite(record.response_time_ms)) {
      problems.push({ path: "/response_time_ms", message: "must be a finite number" });
    }
    const endpoint = readEndpoint(record.path, record.route, problems);
    const requestHeaders = readHeaders(record.request_headers, "request_headers", problems);
    const responseHeaders = readHeaders(record.response_headers, "response_headers", problems);
    const traceId = readHexId(record.trace_id, 32, "trace_id", problems);
    const spanId = readHexId(record.span_id, 16, "span_id", problems);
    if (problems.length > before) return null;

    // Fields named one by one: object spreads are slow on this path.
    return requestRow({
      method: record.method,
      path: endpoint.path,
      query: endpoint.query,
      route: endpoint.route,
      statusCode: record.status_code,
      responseTimeMs: record.response_time_ms,
      requestSize: record.request_size ?? 0,
      responseSize: record.response_size ?? 0,
      ipAddress: record.ip_address ?? "",
      userAgent: record.user_agent ?? "",
      consumerId: record.consumer_id ?? "",
      consumerName: record.consumer_name ?? "",
      consumerGroup: record.consumer_group ?? "",
      requestPayload: record.request_payload ?? "",
      responsePayload: record.response_payload ?? "",
      requestHeaders,
      responseHeaders,
      traceId,
      spanId,
      baseUrl: record.base_url ?? "",
      scheme: (record.scheme ?? "").toLowerCase(),
      validationErrors: readValidationErrors(record.status_code, record.validation_errors),
    });
  },
};

/** A refused request's validation errors, cut to their limits; none unless it was a 400 or 422. */
function readValidationErrors(
  status: number,
  sent: IngestRequestRecord["validation_errors"],
): readonly ValidationError[] {
  if (sent === undefined || (status !== 400 && status !== 422)) return NO_VALIDATION_ERRORS;
  return sent.map((error) => ({
    path: cutChars(error.path, INGEST_LIMITS.validationPathLength),
    rule: cutChars(error.rule, INGEST_LIMITS.validationRuleLength),
    message: cutChars(error.message ?? "", INGEST_LIMITS.validationMessageLength),
  }));
}

/** One failed field and rule of a refused request. */
export interface ValidationError {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

const NO_VALIDATION_ERRORS: readonly ValidationError[] = [];

/** A handled request's own fields, read and checked from whichever form it came in. */
export interface RequestFields {
  /** A checked HTTP method token, any letter case. */
  readonly method: string;
  /** From readEndpoint. */
  readonly path: string;
  readonly query: string;
  readonly route: string;
  /** 100–599. */
  readonly statusCode: number;
  /** Finite, 0 up to INGEST_LIMITS.maxResponseTimeMs. */
  readonly responseTimeMs: number;
  readonly requestSize: number;
  readonly responseSize: number;
  /** Labels and payloads as sent; cut to their limits here. */
  readonly ipAddress: string;
  readonly userAgent: string;
  readonly consumerId: string;
  readonly consumerName: string;
  readonly consumerGroup: string;
  readonly requestPayload: string;
  readonly responsePayload: string;
  /** From foldHeaders: JSON text of an object. */
  readonly requestHeaders: string;
  readonly responseHeaders: string;
  /** Checked W3C ids or "". */
  readonly traceId: string;
  readonly spanId: string;
  readonly baseUrl: string;
  /** `http`, `https` or "" (checked by the schema, lower-cased). */
  readonly scheme: string;
  /** Already bounded (readValidationErrors). */
  readonly validationErrors: readonly ValidationError[];
}

/** The api_requests row of a handled request: its limits applied, in one place for every way in. */
export function requestRow(request: RequestFields): BuiltRow<ApiRequestsColumn> {
  const method = request.method.toUpperCase();
  return {
    endpoint: { method, path: request.route },
    row: {
      method,
      path: request.path,
      route: request.route,
      status_code: request.statusCode,
      response_time_ms: request.responseTimeMs,
      request_size: request.requestSize,
      response_size: request.responseSize,
      ip_address: cutChars(request.ipAddress, INGEST_LIMITS.ipAddressLength),
      user_agent: cutChars(request.userAgent, INGEST_LIMITS.userAgentLength),
      consumer_id: cutChars(request.consumerId, INGEST_LIMITS.labelLength),
      consumer_name: cutChars(request.consumerName, INGEST_LIMITS.labelLength),
      consumer_group: cutChars(request.consumerGroup, INGEST_LIMITS.labelLength),
      request_payload: cutUtf8(request.requestPayload, INGEST_LIMITS.payloadBytes),
      response_payload: cutUtf8(request.responsePayload, INGEST_LIMITS.payloadBytes),
      request_headers: request.requestHeaders,
      response_headers: request.responseHeaders,
      trace_id: request.traceId,
      span_id: request.spanId,
      query: request.query,
      base_url: cutChars(request.baseUrl.trim(), INGEST_LIMITS.baseUrlLength),
      scheme: request.scheme,
      validation_paths: request.validationErrors.map((error) => error.path),
      validation_rules: request.validationErrors.map((error) => error.rule),
      validation_messages: request.validationErrors.map((error) => error.message),
    },
  };
}

/**
 * The path without its query string, the query, and the route template: the one sent
 * (normalised) or, without one, derived from the path. The template becomes a catalogue entry,
 * whose unique index holds only so many bytes: a longer one is a problem.
 */
export function readEndpoint(
  rawPath: string,
  sentRoute: string | undefined,
  problems: RecordProblem[],
): { readonly path: string; readonly query: string; readonly route: string } {
  const mark = rawPath.indexOf("?");
  const path = mark === -1 ? rawPath : rawPath.slice(0, mark);
  const query = mark === -1 ? "" : rawPath.slice(mark + 1);
  const derived = sentRoute === undefined || sentRoute.trim() === "";
  const route = derived ? templateOfPath(path) : normaliseRouteTemplate((sentRoute ?? "").trim());
  if (Buffer.byteLength(route, "utf8") > RESOURCE_LIMITS.routeTemplateBytes) {
    problems.push({
      path: derived ? "/path" : "/route",
      message: `its route template must be at most ${RESOURCE_LIMITS.routeTemplateBytes} bytes of UTF-8`,
    });
  }
  return { path, query, route };
}

/** Headers as sent to /ingest (an object, or the JSON text of one) as foldHeaders stores them. */
function readHeaders(
  sent: Readonly<Record<string, string>> | string | undefined,
  field: string,
  problems: RecordProblem[],
): string {
  if (sent === undefined || sent === "") return NO_HEADERS;
  const headers = typeof sent === "string" ? parseHeaderText(sent) : sent;
  if (headers === "too many") {
    problems.push({ path: `/${field}`, message: `must have at most ${INGEST_LIMITS.headerCount} headers` });
    return NO_HEADERS;
  }
  if (headers === null) {
    problems.push({
      path: `/${field}`,
      message: "must be an object of header names to strings, or the JSON text of one",
    });
    return NO_HEADERS;
  }
  return foldHeaders(Object.entries(headers), field, problems);
}

/**
 * Headers as the JSON text of an object: names lower-cased (repeated names joined with ", " as
 * HTTP folds them), values cut, credentials redacted. Too many headers or an unusable name
 * rejects the record. Stored as text rather than a Map column: headers are shown, never
 * filtered on, and a Map costs the engine measurably more per row on insert and merge.
 */
export function foldHeaders(
  entries: ReadonlyArray<readonly [string, string]>,
  field: string,
  problems: RecordProblem[],
): string {
  if (entries.length === 0) return NO_HEADERS;
  if (entries.length > INGEST_LIMITS.headerCount) {
    problems.push({ path: `/${field}`, message: `must have at most ${INGEST_LIMITS.headerCount} headers` });
    return NO_HEADERS;
  }
  const folded = new Map<string, string>();
  for (const [rawName, rawValue] of entries) {
    const name = rawName.trim().toLowerCase();
    if (name === "" || name.length > INGEST_LIMITS.headerNameLength) {
      problems.push({
        path: `/${field}/${escapePointer(rawName)}`,
        message: `header names must be 1–${INGEST_LIMITS.headerNameLength} characters`,
      });
      continue;
    }
    const value = REDACTED_HEADERS.has(name) ? REDACTED : cutUtf8(rawValue, INGEST_LIMITS.headerValueBytes);
    const earlier = folded.get(name);
    folded.set(name, earlier === undefined || earlier === REDACTED ? value : `${earlier}, ${value}`);
  }
  // fromEntries defines own properties: a "__proto__" header stays a header.
  return JSON.stringify(Object.fromEntries(folded));
}

/**
 * The route template of a path. The APILens TypeScript SDK sends Express's route pattern
 * (`/users/:id`) as the path: its placeholders are rewritten to `{id}` like a given `route`.
 */
function templateOfPath(path: string): string {
  const derived = deriveRouteTemplate(path);
  return path.includes(":") || path.includes("<") ? normaliseRouteTemplate(derived) : derived;
}

/** Header text is one flat object: counted before it is parsed, so 1 MB of `"a":"",` builds
 *  nothing (the object form is bounded by the body's caps already). */
const HEADER_TEXT_CAPS: JsonCaps = {
  depth: 1,
  topLevelValues: INGEST_LIMITS.headerCount,
  records: 0,
  recordValues: 0,
};

/** Headers sent as JSON text: an object whose values are all strings, else null. */
function parseHeaderText(text: string): Readonly<Record<string, string>> | "too many" | null {
  let parsed: unknown;
  try {
    checkJson(Buffer.from(text, "utf8"), HEADER_TEXT_CAPS);
    parsed = JSON.parse(text);
  } catch (error) {
    return error instanceof JsonCapError && error.cap === "topLevelValues" ? "too many" : null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  for (const value of Object.values(parsed)) if (typeof value !== "string") return null;
  return parsed as Record<string, string>;
}
