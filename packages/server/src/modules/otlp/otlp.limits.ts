// What one OTLP export may hold, counted while it is decoded: a few kilobytes of gzip can say
// millions of empty items, so work is bounded by these counts, not by the body's bytes. The
// values are far above what an OpenTelemetry SDK (512 spans per export, 128 attributes per item
// by default) or a Collector (8,192 per batch by default) sends. Listed in the README and
// docs/errors.md.
import { AppError } from "../../errors.js";

export const OTLP_LIMITS = {
  /** resourceSpans / resourceLogs entries per export. */
  resources: 1_000,
  /** scopeSpans / scopeLogs entries per export, over all its resources. */
  scopes: 10_000,
  /** Spans (traces) or log records (logs) per export. */
  items: 20_000,
  /** Entries of one list: the attributes of a resource, scope, span, span event, span link or log
   *  record, and the values of one kvlistValue or arrayValue. */
  listEntries: 256,
  /** Events of one span, and links of one span (each). */
  eventsPerSpan: 1_000,
  linksPerSpan: 1_000,
  /** AnyValues nested in arrayValue / kvlistValue, counted from the attribute's (or body's) value. */
  valueDepth: 16,
  /** Everything the export holds, at any depth: protobuf messages, or JSON objects and arrays. */
  elements: 1_000_000,
} as const;

export type OtlpLimit = keyof typeof OTLP_LIMITS;

const BATCH_ADVICE =
  "Send smaller exports (an OpenTelemetry Collector: set the batch processor's send_batch_max_size).";

/** What each cap counts, as answers say it, and what a sender can do about it. */
const WORDING: Readonly<Record<OtlpLimit, { readonly counted: string; readonly advice: string }>> = {
  resources: { counted: "resource entries", advice: BATCH_ADVICE },
  scopes: { counted: "scope entries", advice: BATCH_ADVICE },
  items: { counted: "items", advice: BATCH_ADVICE },
  elements: { counted: "elements (protobuf messages, or JSON objects and arrays)", advice: BATCH_ADVICE },
  listEntries: {
    counted: "entries in one attribute list, kvlistValue or arrayValue",
    advice:
      "Keep attributes under the SDK's attribute count limit (OTEL_ATTRIBUTE_COUNT_LIMIT, 128 by default).",
  },
  eventsPerSpan: {
    counted: "events in one span",
    advice: "Keep events under the SDK's limit (OTEL_SPAN_EVENT_COUNT_LIMIT, 128 by default).",
  },
  linksPerSpan: {
    counted: "links in one span",
    advice: "Keep links under the SDK's limit (OTEL_SPAN_LINK_COUNT_LIMIT, 128 by default).",
  },
  valueDepth: {
    counted: "AnyValues nested in one another",
    advice: "Flatten the attribute's value.",
  },
};

/**
 * The 413 of an export over a cap: names the cap (`limit`) and its value (`maximum`); nothing of
 * the export is stored. `counted` overrides what the answer says was counted ("spans").
 */
export function overLimit(limit: OtlpLimit, counted?: string): AppError {
  const max = OTLP_LIMITS[limit];
  const wording = WORDING[limit];
  return new AppError(
    "payload_too_large",
    `The export holds more than ${max} ${counted ?? wording.counted} (OTLP limit "${limit}"); nothing ` +
      `of it was stored. ${wording.advice}`,
    { extensions: { limit, maximum: max } },
  );
}
