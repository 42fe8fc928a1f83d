// The request-record kind: how one record of POST /ingest/requests becomes a row of
// api_requests (defaults, limits, query string split off, route template, headers with secrets
// redacted, headers sent as JSON text by the APILens Python SDK).
import {
  INGEST_LIMITS,
  type IngestRequestRecord,
  IngestRequestRecordSchema,
  RESOURCE_LIMITS,
} from "@sightline/contracts";
import { API_REQUESTS, type ApiRequestsColumn } from "../../stores/events/index.js";
import { declaredFields, escapePointer, readHexId, type RecordKind, type RecordProblem } from "./records.js";
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
  build(record, common, problems) {
    const before = problems.length;
    if (!Number.isFinite(record.response_time_ms)) {
      problems.push({ path: "/response_time_ms", message: "must be a finite number" });
    }
    const mark = record.path.indexOf("?");
    const path = mark === -1 ? record.path : record.path.slice(0, mark);
    const query = mark === -1 ? "" : record.path.slice(mark + 1);
    const derived = record.route === undefined || record.route.trim() === "";
    const route = derived ? deriveRouteTemplate(path) : normaliseRouteTemplate((record.route ?? "").trim());
    // The template becomes a catalogue entry, whose unique index holds only so many bytes.
    if (Buffer.byteLength(route, "utf8") > RESOURCE_LIMITS.routeTemplateBytes) {
      problems.push({
        path: derived ? "/path" : "/route",
        message: `its route template must be at most ${RESOURCE_LIMITS.routeTemplateBytes} bytes of UTF-8`,
      });
    }
    const requestHeaders = readHeaders(record.request_headers, "request_headers", problems);
    const responseHeaders = readHeaders(record.response_headers, "response_headers", problems);
    const traceId = readHexId(record.trace_id, 32, "trace_id", problems);
    const spanId = readHexId(record.span_id, 16, "span_id", problems);
    if (problems.length > before) return null;

    const method = record.method.toUpperCase();
    return {
      endpoint: { method, path: route },
      row: {
        id: common.id,
        project_id: common.projectId,
        app_id: common.app.id,
        timestamp: common.timestamp,
        environment: common.environment,
        method,
        path,
        route,
        status_code: record.status_code,
        response_time_ms: record.response_time_ms,
        request_size: record.request_size ?? 0,
        response_size: record.response_size ?? 0,
        ip_address: cutChars(record.ip_address ?? "", INGEST_LIMITS.ipAddressLength),
        user_agent: cutChars(record.user_agent ?? "", INGEST_LIMITS.userAgentLength),
        consumer_id: cutChars(record.consumer_id ?? "", INGEST_LIMITS.labelLength),
        consumer_name: cutChars(record.consumer_name ?? "", INGEST_LIMITS.labelLength),
        consumer_group: cutChars(record.consumer_group ?? "", INGEST_LIMITS.labelLength),
        request_payload: cutUtf8(record.request_payload ?? "", INGEST_LIMITS.payloadBytes),
        response_payload: cutUtf8(record.response_payload ?? "", INGEST_LIMITS.payloadBytes),
        request_headers: requestHeaders,
        response_headers: responseHeaders,
        trace_id: traceId,
        span_id: spanId,
        query,
        base_url: cutChars((record.base_url ?? "").trim(), INGEST_LIMITS.baseUrlLength),
      },
    };
  },
};

/**
 * Headers as the JSON text of an object: names lower-cased (repeated names joined with ", " as
 * HTTP folds them), values cut, credentials redacted. Too many headers or an unusable name
 * rejects the record. Stored as text rather than a Map column: headers are shown, never
 * filtered on, and a Map costs the engine measurably more per row on insert and merge.
 */
function readHeaders(
  sent: Readonly<Record<string, string>> | string | undefined,
  field: string,
  problems: RecordProblem[],
): string {
  if (sent === undefined || sent === "") return NO_HEADERS;
  const headers = typeof sent === "string" ? parseHeaderText(sent) : sent;
  if (headers === null) {
    problems.push({
      path: `/${field}`,
      message: "must be an object of header names to strings, or the JSON text of one",
    });
    return NO_HEADERS;
  }
  const entries = Object.entries(headers);
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

/** Headers sent as JSON text: an object whose values are all strings, else null. */
function parseHeaderText(text: string): Readonly<Record<string, string>> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  for (const value of Object.values(parsed)) if (typeof value !== "string") return null;
  return parsed as Record<string, string>;
}
