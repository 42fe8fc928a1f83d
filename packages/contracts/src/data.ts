// Wire shapes of the data queries (spec 4.4.1, 4.4.2): the request and log searches of a project,
// their paged envelope (spec 2.10), one request in full, and the paging limits the server applies.
import { type Static, type TSchema, Type } from "typebox";
import { INGEST_LIMITS } from "./ingest.js";
import { RawRetentionSchema } from "./retention.js";
import { EXPORT_FORMATS, REQUEST_SORT_KEYS } from "./vocabulary.js";

/** Paging of the data queries: `page_size` above the cap is served as the cap and echoed. */
export const DATA_PAGING = { defaultPageSize: 50, maxPageSize: 200, maxPage: 1_000_000 } as const;

const Uuid = Type.String({ format: "uuid", examples: ["0192f3c4-5b6a-7d8e-9f01-23456789abcd"] });
const Instant = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.123Z"] });
const Text = (example: string, description?: string) =>
  Type.String({ examples: [example], ...(description === undefined ? {} : { description }) });

// ---- query-string pieces shared with the analytics routes ----

export const AppSlugsParam = Type.String({
  maxLength: 4096,
  description:
    "Comma-separated app slugs of the project; without it every app of the project is queried. " +
    "An unknown slug answers 422 naming it.",
  examples: ["checkout-api,billing"],
});
export const EnvironmentParam = Type.String({
  maxLength: 256,
  description: "Exact environment, normalised like ingest (trimmed, lower-cased); blank means any.",
  examples: ["production"],
});
/** `since`: `fallback` says what its absence means. */
export const sinceParam = (fallback: string) =>
  Type.String({
    maxLength: 64,
    description:
      "Inclusive start: an ISO 8601 date-time (no offset means UTC) or a date (that day's 00:00 UTC); " +
      `anything else answers 422. ${fallback}`,
    examples: ["2026-11-20T06:00:00Z"],
  });
/** `until`: `fallback` says what its absence means. */
export const untilParam = (fallback: string) =>
  Type.String({
    maxLength: 64,
    description:
      "Inclusive end: an ISO 8601 date-time (no offset means UTC) or a date (through that day's " +
      `23:59:59.999 UTC); must not be before \`since\`. ${fallback}`,
    examples: ["2026-11-21T06:00:00Z"],
  });
export const MethodsParam = Type.String({
  maxLength: 1024,
  description: "Comma-separated HTTP methods, any letter case.",
  examples: ["GET,POST"],
});
export const StatusCodesParam = Type.String({
  maxLength: 1024,
  description: "Comma-separated status codes (integers 100–599); anything else answers 422.",
  examples: ["500,503"],
});
export const StatusClassesParam = Type.String({
  maxLength: 64,
  description: "Comma-separated classes 1xx–5xx (`4xx` = 400–499); OR-ed with the status codes.",
  examples: ["4xx,5xx"],
});
export const ConsumerParam = Type.String({
  maxLength: 256,
  description:
    "One consumer: its `consumer_id` exactly as the lists return it (case and blanks significant); " +
    "empty means any.",
  examples: ["customer-42"],
});
export const TraceIdParam = Type.String({
  maxLength: 64,
  description: "The records of one trace: 32 hex digits, any letter case.",
  examples: ["4bf92f3577b34da6a3ce929d0e0e4736"],
});
export const PageParam = Type.Integer({
  minimum: 1,
  maximum: DATA_PAGING.maxPage,
  default: 1,
  description: "1-based page number.",
  examples: [1],
});
export const pageSizeParam = (fallback: number, cap: number) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: fallback,
    description: `Items per page, default ${fallback}; values above ${cap} are served as ${cap} (the envelope says so).`,
    examples: [fallback],
  });

/** A response-time bound in milliseconds, within what ingest stores (0 to 24 hours). */
const responseTimeParam = (what: string, example: number) =>
  Type.Number({
    minimum: 0,
    maximum: INGEST_LIMITS.maxResponseTimeMs,
    description: `${what}, milliseconds (0 to ${INGEST_LIMITS.maxResponseTimeMs}, the ingest limit).`,
    examples: [example],
  });

/** A page of items with the total the filters match (spec 2.10); `page_size` is the size served. */
export const pagedSchema = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      items: Type.Array(item),
      total_count: Type.Integer({ minimum: 0, description: "Items matching the filters.", examples: [1234] }),
      page: Type.Integer({ minimum: 1, examples: [1] }),
      page_size: Type.Integer({
        minimum: 1,
        description: "The page size used, after capping.",
        examples: [50],
      }),
    },
    { additionalProperties: false },
  );

const ALL_DATA = "Default: no bound (all retained data).";

// ---- requests ----

/** The request search's filters: the list and the export read the same ones. */
const requestFilterParams = {
  app_slugs: Type.Optional(AppSlugsParam),
  environment: Type.Optional(EnvironmentParam),
  since: Type.Optional(sinceParam(ALL_DATA)),
  until: Type.Optional(untilParam(ALL_DATA)),
  methods: Type.Optional(MethodsParam),
  status_codes: Type.Optional(StatusCodesParam),
  status_classes: Type.Optional(StatusClassesParam),
  consumer: Type.Optional(ConsumerParam),
  route: Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        "One route template, exact (as the endpoint lists return it); unlike `path_filter` it matches " +
        "every raw path the template grouped.",
      examples: ["/users/{id}/orders"],
    }),
  ),
  trace_id: Type.Optional(TraceIdParam),
  min_response_time: Type.Optional(responseTimeParam("Inclusive lower bound", 250)),
  max_response_time: Type.Optional(responseTimeParam("Inclusive upper bound", 2000)),
  path_filter: Type.Optional(
    Type.String({
      maxLength: 2048,
      description:
        "Pattern over the raw path (query string included), whole-string and case-insensitive: `*` " +
        "matches any run of characters (including `/`); every other character, `%` and `_` " +
        "included, matches itself.",
      examples: ["/users/*/orders*"],
    }),
  ),
};

export const RequestsQuerySchema = Type.Object(
  {
    ...requestFilterParams,
    sort_by: Type.Optional(
      Type.Union(
        [
          Type.Literal(REQUEST_SORT_KEYS[0]),
          Type.Literal(REQUEST_SORT_KEYS[1]),
          Type.Literal(REQUEST_SORT_KEYS[2]),
        ],
        {
          description:
            "Default `timestamp` (newest first). `response_time_ms` lists the slowest, `response_size` the " +
            "largest; ties are broken by timestamp and id, so pages never overlap or skip.",
          examples: ["response_time_ms"],
        },
      ),
    ),
    sort_dir: Type.Optional(
      Type.Union([Type.Literal("asc"), Type.Literal("desc")], {
        description: "Default `desc`.",
        examples: ["desc"],
      }),
    ),
    page: Type.Optional(PageParam),
    page_size: Type.Optional(pageSizeParam(DATA_PAGING.defaultPageSize, DATA_PAGING.maxPageSize)),
  },
  { additionalProperties: false },
);
export type RequestsQuery = Static<typeof RequestsQuerySchema>;

/** Exports a user may start per minute, over every project (429 rate_limited beyond). */
export const EXPORT_LIMITS = { perUserPerMinute: 10 } as const;

// Spelled out rather than mapped: a mapped array would type the parameter as `undefined`.
const ExportFormatParam = Type.Union([Type.Literal(EXPORT_FORMATS[0]), Type.Literal(EXPORT_FORMATS[1])], {
  default: "ndjson",
  description:
    "`ndjson`: one record per line, as the search returns it. `csv`: RFC 4180, a header row, the " +
    "record's fields as columns in the search's order (objects as JSON text).",
  examples: ["csv"],
});

/** The request export: every filter of the search, no paging, and a format. */
export const RequestsExportQuerySchema = Type.Object(
  { ...requestFilterParams, format: Type.Optional(ExportFormatParam) },
  { additionalProperties: false },
);
export type RequestsExportQuery = Static<typeof RequestsExportQuerySchema>;

/** The request search's filters, for the latency histogram above the list. */
export const RequestsHistogramQuerySchema = Type.Object(
  { ...requestFilterParams },
  { additionalProperties: false },
);
export type RequestsHistogramQuery = Static<typeof RequestsHistogramQuerySchema>;

/** The upper edges (ms, exclusive) of the latency histogram's buckets; the last one is open. */
export const LATENCY_HISTOGRAM_EDGES_MS = [
  5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000,
] as const;

export const LatencyBucketSchema = Type.Object(
  {
    min_ms: Type.Number({ minimum: 0, description: "Inclusive lower bound, ms.", examples: [100] }),
    max_ms: Type.Union([Type.Number(), Type.Null()], {
      description: "Exclusive upper bound, ms; null for the last, open bucket.",
      examples: [250],
    }),
    count: Type.Integer({ minimum: 0, description: "Requests in the bucket.", examples: [412] }),
  },
  { additionalProperties: false },
);
export type LatencyBucket = Static<typeof LatencyBucketSchema>;

export const LatencyHistogramSchema = Type.Object(
  {
    buckets: Type.Array(LatencyBucketSchema, {
      description: `Every bucket in order, empty ones included; edges at 0, ${LATENCY_HISTOGRAM_EDGES_MS.join(", ")} ms.`,
    }),
    total_count: Type.Integer({ minimum: 0, description: "Requests the filters match.", examples: [1234] }),
  },
  { additionalProperties: false },
);
export type LatencyHistogram = Static<typeof LatencyHistogramSchema>;

const requestFields = {
  id: Type.String({
    format: "uuid",
    description: "The record's id (UUIDv7 carrying its timestamp); use it with the detail route.",
    examples: ["0192f3c4-5b6a-7d8e-9f01-23456789abcd"],
  }),
  timestamp: Instant,
  app_id: Type.String({ description: "The app's UUID.", examples: ["3f0b8c1e-5a4d-4b2f-9c1e-7d8a6b5c4d3e"] }),
  environment: Text("production"),
  method: Text("GET"),
  path: Text("/users/42/orders", "The request path, without its query string."),
  route: Text("/users/{id}/orders", "The route template the record is grouped under."),
  status_code: Type.Integer({ examples: [200] }),
  response_time_ms: Type.Number({ examples: [12.5] }),
  request_size: Type.Integer({ examples: [512] }),
  response_size: Type.Integer({ examples: [2048] }),
  ip_address: Text("203.0.113.7"),
  user_agent: Text("curl/8.5.0"),
  consumer_id: Text("customer-42"),
  consumer_name: Text("Acme Corp"),
  consumer_group: Text("enterprise"),
  trace_id: Text("4bf92f3577b34da6a3ce929d0e0e4736", "W3C trace id, or empty."),
  span_id: Text("00f067aa0ba902b7", "W3C span id, or empty."),
  query: Text("page=2", "The query string the path was requested with (without `?`), or empty."),
};

/** A request record as the search returns it (spec 2.7 plus id, route, trace_id, span_id). */
export const RequestRecordSchema = Type.Object(requestFields, { additionalProperties: false });
export type RequestRecord = Static<typeof RequestRecordSchema>;

/** A records page, with what it says about raw retention (docs/adr/0023). */
const retainedPagedSchema = <T extends TSchema>(item: T) =>
  Type.Object(
    { ...pagedSchema(item).properties, retention: RawRetentionSchema },
    { additionalProperties: false },
  );

export const RequestsPageSchema = retainedPagedSchema(RequestRecordSchema);
export type RequestsPage = Static<typeof RequestsPageSchema>;

const HeadersSchema = Type.Record(Type.String(), Type.String(), {
  description: "Lower-cased header names; credentials were stored as [REDACTED].",
  examples: [{ "content-type": "application/json" }],
});

/** One request in full, payloads and headers included (the dashboard's detail view). */
export const RequestDetailSchema = Type.Object(
  {
    ...requestFields,
    base_url: Text(
      "https://api.example.com",
      "The app's scheme and host as its clients reached it, when the client sent it; or empty.",
    ),
    scheme: Text(
      "https",
      "`http` or `https` as the client reached the app, when the client sent it; or empty.",
    ),
    validation_errors: Type.Array(
      Type.Object(
        {
          path: Text("body.email", "The field that failed (dotted path); empty for the input as a whole."),
          rule: Text("format", "The rule it broke, as the validator names it."),
          message: Text('must match format "email"', "The validator's message (never the value)."),
        },
        { additionalProperties: false },
      ),
      { description: "Why a 400 or 422 answer refused the request, when the client sent it; else empty." },
    ),
    request_payload: Text('{"sku":"A-1"}'),
    response_payload: Text('{"id":42}'),
    request_headers: HeadersSchema,
    response_headers: HeadersSchema,
  },
  { additionalProperties: false },
);
export type RequestDetail = Static<typeof RequestDetailSchema>;

export const RequestDetailParamsSchema = Type.Object({
  project_slug: Type.String({ maxLength: 200, examples: ["shop"] }),
  id: Uuid,
});

// ---- logs ----

/** The log search's filters: the list and the export read the same ones. */
const logFilterParams = {
  app_slugs: Type.Optional(AppSlugsParam),
  environment: Type.Optional(EnvironmentParam),
  levels: Type.Optional(
    Type.String({
      maxLength: 1024,
      description:
        "Comma-separated levels: DEBUG, INFO, WARNING, ERROR, CRITICAL or the ingest aliases TRACE, " +
        "WARN, FATAL, any letter case. An unknown level answers 422.",
      examples: ["warn,error"],
    }),
  ),
  search: Type.Optional(
    Type.String({
      maxLength: 1024,
      description:
        "Case-insensitive substring searched in the message, the logger name, and attribute keys and " +
        "values; every character is literal. Surrounding blanks are ignored.",
      examples: ["timed out"],
    }),
  ),
  loggers: Type.Optional(
    Type.String({
      maxLength: 4096,
      description: "Comma-separated logger names, exact and case-sensitive.",
      examples: ["app.payments"],
    }),
  ),
  trace_id: Type.Optional(TraceIdParam),
  since: Type.Optional(sinceParam(ALL_DATA)),
  until: Type.Optional(untilParam(ALL_DATA)),
};

export const LogsQuerySchema = Type.Object(
  {
    ...logFilterParams,
    page: Type.Optional(PageParam),
    page_size: Type.Optional(pageSizeParam(DATA_PAGING.defaultPageSize, DATA_PAGING.maxPageSize)),
  },
  { additionalProperties: false },
);
export type LogsQuery = Static<typeof LogsQuerySchema>;

/** The log export: every filter of the search, no paging, and a format. */
export const LogsExportQuerySchema = Type.Object(
  { ...logFilterParams, format: Type.Optional(ExportFormatParam) },
  { additionalProperties: false },
);
export type LogsExportQuery = Static<typeof LogsExportQuerySchema>;

/** A log record as the search returns it (spec 2.9 plus id, trace_id, span_id and its request). */
export const LogRecordSchema = Type.Object(
  {
    id: Uuid,
    timestamp: Instant,
    app_id: Type.String({
      description: "The app's UUID.",
      examples: ["3f0b8c1e-5a4d-4b2f-9c1e-7d8a6b5c4d3e"],
    }),
    environment: Text("production"),
    level: Text("WARNING", "DEBUG, INFO, WARNING, ERROR or CRITICAL."),
    message: Text("payment provider timed out"),
    logger_name: Text("app.payments"),
    payload: Text('{"attempt":3}'),
    attributes: Type.Record(Type.String(), Type.String(), {
      description: "Attribute values as stored: strings (`3`, `true`).",
      examples: [{ order_id: "o-17", attempt: "3" }],
    }),
    trace_id: Text("4bf92f3577b34da6a3ce929d0e0e4736", "W3C trace id, or empty."),
    span_id: Text("00f067aa0ba902b7", "W3C span id, or empty."),
    endpoint_method: Text("POST", "Method of the request the line was logged while handling, or empty."),
    endpoint_path: Text("/orders/17/pay", "Path of that request, or empty."),
  },
  { additionalProperties: false },
);
export type LogRecord = Static<typeof LogRecordSchema>;

export const LogsPageSchema = retainedPagedSchema(LogRecordSchema);
export type LogsPage = Static<typeof LogsPageSchema>;
