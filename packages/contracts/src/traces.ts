// Wire shapes of the trace queries: recent traces of a project (one summary per trace) and one
// trace in full (its spans as a tree in depth-first order, plus the request and log records that
// carry its trace id).
import { type Static, Type } from "typebox";
import {
  AppSlugsParam,
  DATA_PAGING,
  EnvironmentParam,
  LogRecordSchema,
  PageParam,
  pagedSchema,
  pageSizeParam,
  RequestRecordSchema,
  sinceParam,
  untilParam,
} from "./data.js";
import { INGEST_LIMITS } from "./ingest.js";

/** How much of one trace the detail returns. */
export const TRACE_LIMITS = { spans: 1000, requests: 200, logs: 500 } as const;

const Instant = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.123Z"] });
const TraceIdText = Type.String({ examples: ["4bf92f3577b34da6a3ce929d0e0e4736"] });
const SpanIdText = Type.String({ examples: ["00f067aa0ba902b7"] });
const ALL_DATA = "Default: no bound (all retained spans).";

export const TracesQuerySchema = Type.Object(
  {
    app_slugs: Type.Optional(AppSlugsParam),
    environment: Type.Optional(EnvironmentParam),
    since: Type.Optional(sinceParam(ALL_DATA)),
    until: Type.Optional(untilParam(ALL_DATA)),
    min_duration: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: INGEST_LIMITS.maxResponseTimeMs,
        description: "Only traces lasting at least this many milliseconds.",
        examples: [500],
      }),
    ),
    page: Type.Optional(PageParam),
    page_size: Type.Optional(pageSizeParam(DATA_PAGING.defaultPageSize, DATA_PAGING.maxPageSize)),
  },
  { additionalProperties: false },
);
export type TracesQuery = Static<typeof TracesQuerySchema>;

export const TraceSummarySchema = Type.Object(
  {
    trace_id: TraceIdText,
    started_at: Type.String({ format: "date-time", description: "When its first span started." }),
    duration_ms: Type.Number({
      description: "From its first span's start to its last span's end.",
      examples: [182.5],
    }),
    span_count: Type.Integer({ minimum: 1, examples: [12] }),
    error: Type.Boolean({
      description: "Whether any span has status error or an HTTP status of 500 or more.",
    }),
    root: Type.Object(
      {
        span_id: SpanIdText,
        name: Type.String({ examples: ["GET /orders/{id}"] }),
        kind: Type.String({ examples: ["server"] }),
        service_name: Type.String({ examples: ["checkout-api"] }),
        app_id: Type.String({ description: "The app's UUID." }),
        environment: Type.String({ examples: ["production"] }),
      },
      {
        additionalProperties: false,
        description: "The span without a parent (the earliest such one), else the trace's earliest span.",
      },
    ),
  },
  { additionalProperties: false },
);
export type TraceSummary = Static<typeof TraceSummarySchema>;

export const TracesPageSchema = pagedSchema(TraceSummarySchema);
export type TracesPage = Static<typeof TracesPageSchema>;

export const TraceParamsSchema = Type.Object({
  project_slug: Type.String({ maxLength: 200, examples: ["shop"] }),
  trace_id: Type.String({
    pattern: "^[0-9a-fA-F]{32}$",
    description: "32 hexadecimal digits, any letter case.",
    examples: ["4bf92f3577b34da6a3ce929d0e0e4736"],
  }),
});

export const TraceSpanSchema = Type.Object(
  {
    span_id: SpanIdText,
    parent_span_id: Type.String({ description: "Empty for a root span.", examples: [""] }),
    depth: Type.Integer({
      minimum: 0,
      description: "0 for a root (or a span whose parent was not received), parent's depth + 1 below it.",
    }),
    offset_ms: Type.Number({ description: "Start, in milliseconds after the trace's first span started." }),
    timestamp: Instant,
    duration_ms: Type.Number({ examples: [12.5] }),
    name: Type.String({ examples: ["charge card"] }),
    kind: Type.String({ examples: ["db"] }),
    service_name: Type.String({ examples: ["checkout-api"] }),
    app_id: Type.String({ description: "The app's UUID." }),
    environment: Type.String({ examples: ["production"] }),
    status: Type.String({ description: "`ok` or `error`.", examples: ["ok"] }),
    status_code: Type.Integer({ description: "HTTP status the span saw, 0 for none.", examples: [200] }),
    attributes: Type.Record(Type.String(), Type.String()),
  },
  { additionalProperties: false },
);
export type TraceSpan = Static<typeof TraceSpanSchema>;

export const TraceDetailSchema = Type.Object(
  {
    trace_id: TraceIdText,
    started_at: Type.Union([Instant, Type.Null()], {
      description:
        "When the first span started; when no span was received, the earliest request or log record " +
        "with this trace id (null only when there is none of either).",
    }),
    duration_ms: Type.Number({
      description:
        "First span's start to last span's end, over every span of the trace; when no span was " +
        "received, the earliest request or log record to the last request's end (or latest log).",
    }),
    span_count: Type.Integer({
      minimum: 0,
      description: "Spans of the whole trace, as the trace list counts them (even when `spans` is cut).",
      examples: [1001],
    }),
    error: Type.Boolean({
      description:
        "Whether any span of the whole trace has status error or an HTTP status of 500 or more; when " +
        "no span was received, whether a request answered 500 or more or a log is ERROR or CRITICAL.",
    }),
    truncated: Type.Boolean({
      description:
        `True when the trace has more than the ${TRACE_LIMITS.spans} spans \`spans\` holds: ` +
        "`span_count` is then the total, `spans` its earliest-starting part.",
      examples: [false],
    }),
    spans: Type.Array(TraceSpanSchema, {
      description:
        `The span tree in depth-first order (children by start time), at most ${TRACE_LIMITS.spans} ` +
        "spans, the earliest first.",
    }),
    requests: Type.Array(RequestRecordSchema, {
      description: `Request records with this trace id, oldest first, at most ${TRACE_LIMITS.requests}.`,
    }),
    logs: Type.Array(LogRecordSchema, {
      description: `Log records with this trace id, oldest first, at most ${TRACE_LIMITS.logs}.`,
    }),
  },
  { additionalProperties: false },
);
export type TraceDetail = Static<typeof TraceDetailSchema>;
