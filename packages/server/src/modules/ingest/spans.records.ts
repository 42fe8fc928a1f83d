// The span kind: how one record of POST /ingest/traces (the APILens SDKs' span shape) becomes a
// row of api_spans: ids checked as W3C ids, kind and status normalised, 0 = no status code. The
// row itself is built by spanRow, which OTLP's spans go through as well.
import { INGEST_LIMITS, type IngestSpanRecord, IngestSpanRecordSchema } from "@sightline/contracts";
import { API_SPANS, type ApiSpansColumn } from "../../stores/events/index.js";
import {
  type BuiltRow,
  declaredFields,
  readAttributes,
  readHexId,
  type RecordKind,
  type RecordProblem,
} from "./records.js";
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
  build(record, problems) {
    const before = problems.length;
    const ids = readSpanIds(record.trace_id, record.span_id, record.parent_span_id, problems);
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

    // Fields named one by one: an object spread here cost a third of the span pipeline.
    return spanRow({
      traceId: ids.traceId,
      spanId: ids.spanId,
      parentSpanId: ids.parentSpanId,
      name: record.name ?? "",
      kind: record.kind ?? "",
      serviceName: record.service_name ?? "",
      durationMs: duration,
      status: status ?? "ok",
      statusCode,
      attributes,
    });
  },
};

/** A span's ids as stored: W3C trace and span ids (both required) and its parent's ("" for a root). */
export function readSpanIds(
  traceId: string,
  spanId: string,
  parentSpanId: string | undefined,
  problems: RecordProblem[],
): { readonly traceId: string; readonly spanId: string; readonly parentSpanId: string } {
  if (traceId === "") problems.push({ path: "/trace_id", message: "must not be empty" });
  if (spanId === "") problems.push({ path: "/span_id", message: "must not be empty" });
  return {
    traceId: readHexId(traceId, 32, "trace_id", problems),
    spanId: readHexId(spanId, 16, "span_id", problems),
    parentSpanId: readHexId(parentSpanId, 16, "parent_span_id", problems),
  };
}

/** A span's own fields, read and checked from whichever form it came in. */
export interface SpanFields {
  /** Checked W3C ids, lower-case hex; parentSpanId "" for a root. */
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  /** Name, kind and service as sent; cut to their limits here. */
  readonly name: string;
  readonly kind: string;
  readonly serviceName: string;
  readonly durationMs: number;
  readonly status: "ok" | "error";
  /** 100–599, or 0 for none. */
  readonly statusCode: number;
  /** Checked keys, values as text already cut. */
  readonly attributes: Readonly<Record<string, string>>;
}

/** The api_spans row of a span: its limits and defaults applied, in one place for every way in. */
export function spanRow(span: SpanFields): BuiltRow<ApiSpansColumn> {
  const kind = cutChars(span.kind.trim().toLowerCase(), INGEST_LIMITS.spanKindLength);
  return {
    endpoint: null,
    row: {
      trace_id: span.traceId,
      span_id: span.spanId,
      parent_span_id: span.parentSpanId === span.spanId ? "" : span.parentSpanId,
      name: cutChars(span.name, INGEST_LIMITS.spanNameLength),
      kind: kind === "" ? "internal" : kind,
      service_name: cutChars(span.serviceName, INGEST_LIMITS.serviceNameLength),
      duration_ms: span.durationMs,
      status: span.status,
      status_code: span.statusCode,
      attributes: span.attributes,
    },
  };
}
