// The span kind: how one record of POST /ingest/traces (the APILens SDKs' span shape) becomes a
// row of api_spans: ids checked as W3C ids, kind and status normalised, 0 = no status code.
import { INGEST_LIMITS, type IngestSpanRecord, IngestSpanRecordSchema } from "@sightline/contracts";
import { API_SPANS, type ApiSpansColumn } from "../../stores/events/index.js";
import { declaredFields, readAttributes, readHexId, type RecordKind } from "./records.js";
import { cutChars } from "./text.js";

const STATUSES: Readonly<Record<string, "ok" | "error">> = {
  "": "ok",
  ok: "ok",
  unset: "ok",
  error: "error",
};

export const spanKind: RecordKind<IngestSpanRecord, ApiSpansColumn> = {
  name: "spans",
  table: API_SPANS,
  schema: IngestSpanRecordSchema,
  fields: declaredFields(IngestSpanRecordSchema),
  build(record, common, problems) {
    const before = problems.length;
    const traceId = readHexId(record.trace_id, 32, "trace_id", problems);
    const spanId = readHexId(record.span_id, 16, "span_id", problems);
    if (record.trace_id === "") problems.push({ path: "/trace_id", message: "must not be empty" });
    if (record.span_id === "") problems.push({ path: "/span_id", message: "must not be empty" });
    const parentSpanId = readHexId(record.parent_span_id, 16, "parent_span_id", problems);
    const duration = record.duration_ms ?? 0;
    if (!Number.isFinite(duration))
      problems.push({ path: "/duration_ms", message: "must be a finite number" });
    const status = Object.hasOwn(STATUSES, (record.status ?? "").trim().toLowerCase())
      ? STATUSES[(record.status ?? "").trim().toLowerCase()]
      : undefined;
    if (status === undefined) problems.push({ path: "/status", message: 'must be "ok" or "error"' });
    const statusCode = record.status_code ?? 0;
    if (statusCode !== 0 && statusCode < 100) {
      problems.push({ path: "/status_code", message: "must be 100–599, or 0 for none" });
    }
    const attributes = readAttributes(record.attributes, problems);
    if (problems.length > before) return null;

    const kind = cutChars((record.kind ?? "").trim().toLowerCase(), INGEST_LIMITS.spanKindLength);
    return {
      endpoint: null,
      row: {
        id: common.id,
        project_id: common.projectId,
        app_id: common.app.id,
        timestamp: common.timestamp,
        environment: common.environment,
        trace_id: traceId,
        span_id: spanId,
        parent_span_id: parentSpanId === spanId ? "" : parentSpanId,
        name: cutChars(record.name ?? "", INGEST_LIMITS.spanNameLength),
        kind: kind === "" ? "internal" : kind,
        service_name: cutChars(record.service_name ?? "", INGEST_LIMITS.serviceNameLength),
        duration_ms: duration,
        status,
        status_code: statusCode,
        attributes,
      },
    };
  },
};
