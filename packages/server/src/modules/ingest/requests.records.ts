// The request-record kind: how one record of POST /ingest/requests becomes a row of
// api_requests (defaults, limits, route template, headers with secrets redacted).
import {
  INGEST_LIMITS,
  type IngestRequestRecord,
  IngestRequestRecordSchema,
  RESOURCE_LIMITS,
} from "@sightline/contracts";
import { readHexId, type RecordKind, type RecordProblem } from "./records.js";
import { deriveRouteTemplate, normaliseRouteTemplate } from "./route-template.js";
import { cutChars, cutUtf8 } from "./text.js";

/** api_requests columns, in the order rows are serialised (see the 0001 events migration). */
export const REQUEST_COLUMNS = [
  "id",
  "project_id",
  "app_id",
  "timestamp",
  "environment",
  "method",
  "path",
  "route",
  "status_code",
  "response_time_ms",
  "request_size",
  "response_size",
  "ip_address",
  "user_agent",
  "consumer_id",
  "consumer_name",
  "consumer_group",
  "request_payload",
  "response_payload",
  "request_headers",
  "response_headers",
  "trace_id",
  "span_id",
] as const;

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

export const requestKind: RecordKind<IngestRequestRecord> = {
  name: "requests",
  table: "api_requests",
  columns: REQUEST_COLUMNS,
  schema: IngestRequestRecordSchema,
  build(record, common, problems) {
    const before = problems.length;
    if (!Number.isFinite(record.response_time_ms)) {
      problems.push({ path: "/response_time_ms", message: "must be a finite number" });
    }
    const derived = record.route === undefined || record.route.trim() === "";
    const route = derived
      ? deriveRouteTemplate(record.path)
      : normaliseRouteTemplate((record.route ?? "").trim());
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
      values: [
        common.id,
        common.projectId,
        common.app.id,
        common.timestamp,
        common.environment,
        method,
        record.path,
        route,
        record.status_code,
        record.response_time_ms,
        record.request_size ?? 0,
        record.response_size ?? 0,
        cutChars(record.ip_address ?? "", INGEST_LIMITS.ipAddressLength),
        cutChars(record.user_agent ?? "", INGEST_LIMITS.userAgentLength),
        cutChars(record.consumer_id ?? "", INGEST_LIMITS.labelLength),
        cutChars(record.consumer_name ?? "", INGEST_LIMITS.labelLength),
        cutChars(record.consumer_group ?? "", INGEST_LIMITS.labelLength),
        cutUtf8(record.request_payload ?? "", INGEST_LIMITS.payloadBytes),
        cutUtf8(record.response_payload ?? "", INGEST_LIMITS.payloadBytes),
        requestHeaders,
        responseHeaders,
        traceId,
        spanId,
      ],
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
  headers: Readonly<Record<string, string>> | undefined,
  field: string,
  problems: RecordProblem[],
): string {
  if (headers === undefined) return NO_HEADERS;
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

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
