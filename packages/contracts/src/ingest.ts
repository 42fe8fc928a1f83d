// Wire shapes of ingest: request records (spec 2.8 plus documented extensions), log records,
// the batch answer, and the limits and log-level spellings the server applies to them.
import { type Static, Type } from "typebox";
import { LOG_LEVELS, type LogLevel } from "./vocabulary.js";

/** Limits applied to ingested records. Strings marked "cut" are truncated, not rejected. */
export const INGEST_LIMITS = {
  /** Raw request paths and endpoint paths: longer is a rejected record. */
  pathLength: 2048,
  /** HTTP method tokens: longer is a rejected record. */
  methodLength: 16,
  /** Environment names after trimming: 1–64 characters or the record is rejected. */
  environmentLength: 64,
  /** `app_id` and `project_slug` values: longer cannot name anything and is rejected. */
  identifierLength: 128,
  /** Request/response payloads and log payloads: cut to this many UTF-8 bytes. */
  payloadBytes: 65_536,
  /** Log messages: cut to this many UTF-8 bytes. */
  messageBytes: 32_768,
  /** `user_agent`: cut to this many characters. */
  userAgentLength: 1024,
  /** `ip_address`: cut to this many characters. */
  ipAddressLength: 64,
  /** `consumer_id`, `consumer_name`, `consumer_group`, `logger_name`: cut to this many characters. */
  labelLength: 256,
  /** Headers per map: more is a rejected record. */
  headerCount: 100,
  /** Header names: longer is a rejected record. */
  headerNameLength: 256,
  /** Header values: cut to this many UTF-8 bytes. */
  headerValueBytes: 8192,
  /** Log attributes per record: more is a rejected record. */
  attributeCount: 64,
  /** Attribute keys: 1–128 characters or the record is rejected. */
  attributeKeyLength: 128,
  /** String attribute values: cut to this many characters. */
  attributeValueLength: 1024,
  /** `response_time_ms`: 0 up to 24 hours; more is a rejected record (no HTTP exchange is timed
   *  in days, and an absurd value would dominate every mean it enters). */
  maxResponseTimeMs: 86_400_000,
  /** `request_size`, `response_size`: 0 up to 1 TiB; more is a rejected record. */
  maxBodySizeBytes: 1_099_511_627_776,
  /** How far ahead of the server's clock a timestamp may be. */
  futureToleranceMs: 60 * 60 * 1000,
  /** Idempotency-Key header: 1–255 visible ASCII characters. */
  idempotencyKeyLength: 255,
  /** How long an Idempotency-Key is remembered. */
  idempotencyWindowMs: 24 * 60 * 60 * 1000,
  /** Rejected records listed in an answer's `errors` (the count in `rejected` is complete). */
  listedErrors: 100,
  /** Invalid records a batch may carry and still be stored in part: with more, the batch is
   *  refused whole (422, the first problems listed, nothing stored) and its rest is not read. */
  invalidRecordsPerBatch: 100,
  /** Nesting of arrays and objects in an ingest body (the envelope is 1, a record 3, its
   *  headers or attributes 4): deeper is refused whole with 413 before the body is parsed. */
  bodyDepth: 8,
  /** Values at the top level of an ingest body (the envelope has one member): more is 413. */
  topLevelValues: 16,
  /** JSON values inside one record, nested ones included (a request record with both header
   *  maps full holds about 230): more is refused whole with 413 before the body is parsed. */
  recordValues: 512,
  /** Unknown field names listed in an answer's `ignored_fields`, each cut to `identifierLength`. */
  listedIgnoredFields: 50,
  /** `base_url` of a request record: cut to this many characters. */
  baseUrlLength: 512,
  /** `validation_errors` of a request record: more entries is a rejected record. */
  validationErrorCount: 20,
  /** A validation error's `path`: cut to this many characters. */
  validationPathLength: 256,
  /** A validation error's `rule`: cut to this many characters. */
  validationRuleLength: 64,
  /** A validation error's `message`: cut to this many characters. */
  validationMessageLength: 256,
  /** Span names: cut to this many characters. */
  spanNameLength: 256,
  /** Span kinds: cut to this many characters. */
  spanKindLength: 16,
  /** Span service names: cut to this many characters. */
  serviceNameLength: 128,
} as const;

/** Accepted spellings besides the levels themselves (any letter case). */
export const LOG_LEVEL_ALIASES: Readonly<Record<string, LogLevel>> = {
  TRACE: "DEBUG",
  WARN: "WARNING",
  FATAL: "CRITICAL",
};

/** The stored level for a spelling (case-insensitive, aliases included), or null if unknown. */
export function normaliseLogLevel(spelling: string): LogLevel | null {
  const upper = spelling.trim().toUpperCase();
  if ((LOG_LEVELS as readonly string[]).includes(upper)) return upper as LogLevel;
  return Object.hasOwn(LOG_LEVEL_ALIASES, upper) ? (LOG_LEVEL_ALIASES[upper] ?? null) : null;
}

const Timestamp = Type.String({
  maxLength: 64,
  description:
    "ISO 8601 date-time; without an offset it is UTC. Not older than the retention window, " +
    "not more than 1 hour ahead.",
  examples: ["2026-11-21T06:00:00.123Z"],
});
const AppId = Type.String({
  minLength: 1,
  maxLength: INGEST_LIMITS.identifierLength,
  description: "UUID or slug of a live app of the key's project (an app key: its own app).",
  examples: ["checkout-api"],
});
const ProjectSlug = Type.String({
  maxLength: INGEST_LIMITS.identifierLength,
  description: "Optional; when present and non-empty it must equal the API key's project.",
  examples: ["shop"],
});
/** Optional on every kind: a record without one is in `production`, as a span is. */
const Environment = Type.Optional(
  Type.String({
    maxLength: 256,
    description: "Default `production`. Trimmed and lower-cased; 1–64 characters after that.",
    examples: ["production"],
  }),
);
/** An HTTP method is an RFC 9110 token: these characters, at least one. */
export const HTTP_METHOD_TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]";

const Method = Type.String({
  minLength: 1,
  maxLength: INGEST_LIMITS.methodLength,
  pattern: `^${HTTP_METHOD_TOKEN}+$`,
  description: "An HTTP method token; stored upper-case.",
  examples: ["GET"],
});
const Path = Type.String({
  minLength: 1,
  maxLength: INGEST_LIMITS.pathLength,
  pattern: "^/",
  description:
    "The raw request path, starting with `/`. A query string (`?…`) is split off and stored as the " +
    "record's `query`; the path and its route template never include it.",
  examples: ["/users/42/orders?page=2"],
});
const TraceId = Type.String({
  maxLength: 32,
  description: "W3C trace-id: 32 hex digits, not all zero; empty means none.",
  examples: ["4bf92f3577b34da6a3ce929d0e0e4736"],
});
const SpanId = Type.String({
  maxLength: 16,
  description: "W3C parent-id/span-id: 16 hex digits, not all zero; empty means none.",
  examples: ["00f067aa0ba902b7"],
});
const HeaderMap = Type.Record(Type.String(), Type.String());
const Headers = Type.Union([HeaderMap, Type.String()], {
  description:
    `Header name -> value; at most ${INGEST_LIMITS.headerCount} headers. Names are lower-cased, values cut ` +
    `to ${INGEST_LIMITS.headerValueBytes} bytes; authorization, cookie, set-cookie, proxy-authorization ` +
    "and x-api-key values are stored as [REDACTED]. Also accepted as the JSON text of such an object " +
    '(how the APILens Python SDK sends them); `""` means none.',
  examples: [{ "content-type": "application/json" }, '{"content-type":"application/json"}'],
});
const Size = (description: string) =>
  Type.Integer({
    minimum: 0,
    maximum: INGEST_LIMITS.maxBodySizeBytes,
    description: `${description} At most 1 TiB (${INGEST_LIMITS.maxBodySizeBytes}).`,
    examples: [512],
  });
const CutString = (limit: string, example: string) =>
  Type.String({ description: `Cut to ${limit}. Default empty.`, examples: [example] });

/** The request schemes a record may name (any letter case; stored lower-case). */
export const REQUEST_SCHEMES = ["http", "https"] as const;

const ValidationErrorSchema = Type.Object(
  {
    path: Type.String({
      description:
        `The field that failed, as a dotted path (\`body.items.0.qty\`); cut to ${INGEST_LIMITS.validationPathLength} ` +
        "characters. Empty for the input as a whole.",
      examples: ["body.email"],
    }),
    rule: Type.String({
      minLength: 1,
      description: `The rule it broke as the validator names it; cut to ${INGEST_LIMITS.validationRuleLength} characters.`,
      examples: ["format"],
    }),
    message: Type.Optional(
      Type.String({
        description:
          `The validator's message, cut to ${INGEST_LIMITS.validationMessageLength} characters. Never the ` +
          "offending value: clients must leave it out.",
        examples: ['must match format "email"'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const IngestRequestRecordSchema = Type.Object(
  {
    project_slug: Type.Optional(ProjectSlug),
    app_id: AppId,
    timestamp: Timestamp,
    environment: Environment,
    method: Method,
    path: Path,
    route: Type.Optional(
      Type.String({
        maxLength: INGEST_LIMITS.pathLength,
        description:
          "The framework's route template (`/users/{id}`; `:id` and `<int:id>` are rewritten to `{id}`). " +
          "Without it the template is derived from `path`: integers, UUIDs, long hex and base64-like " +
          "tokens, prefixed ids, e-mail addresses and dates become `{id}`.",
        examples: ["/users/{id}/orders"],
      }),
    ),
    status_code: Type.Integer({ minimum: 100, maximum: 599, examples: [200] }),
    response_time_ms: Type.Number({
      minimum: 0,
      maximum: INGEST_LIMITS.maxResponseTimeMs,
      description: `Milliseconds, from 0 up to 24 hours (${INGEST_LIMITS.maxResponseTimeMs}).`,
      examples: [12.5],
    }),
    request_size: Type.Optional(Size("Request body bytes. Default 0.")),
    response_size: Type.Optional(Size("Response body bytes. Default 0.")),
    ip_address: Type.Optional(CutString(`${INGEST_LIMITS.ipAddressLength} characters`, "203.0.113.7")),
    user_agent: Type.Optional(CutString(`${INGEST_LIMITS.userAgentLength} characters`, "curl/8.5.0")),
    consumer_id: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "customer-42")),
    consumer_name: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "Acme Corp")),
    consumer_group: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "enterprise")),
    request_payload: Type.Optional(CutString(`${INGEST_LIMITS.payloadBytes} bytes`, '{"sku":"A-1"}')),
    response_payload: Type.Optional(CutString(`${INGEST_LIMITS.payloadBytes} bytes`, '{"id":42}')),
    request_headers: Type.Optional(Headers),
    response_headers: Type.Optional(Headers),
    trace_id: Type.Optional(TraceId),
    span_id: Type.Optional(SpanId),
    base_url: Type.Optional(
      CutString(`${INGEST_LIMITS.baseUrlLength} characters`, "https://api.example.com"),
    ),
    scheme: Type.Optional(
      Type.String({
        maxLength: 5,
        pattern: "^([hH][tT][tT][pP][sS]?)?$",
        description:
          "`http` or `https` as the client reached the app (any letter case); empty means unknown.",
        examples: ["https"],
      }),
    ),
    validation_errors: Type.Optional(
      Type.Array(ValidationErrorSchema, {
        maxItems: INGEST_LIMITS.validationErrorCount,
        description:
          "Why the request was refused, for a 400 or 422 answer: one entry per failed field and rule " +
          `(at most ${INGEST_LIMITS.validationErrorCount}); ignored on other statuses.`,
      }),
    ),
  },
  {
    description:
      "One handled HTTP request (spec 2.8 plus extensions). Fields not listed here are ignored and named " +
      "once per batch in the answer's `ignored_fields`.",
  },
);
export type IngestRequestRecord = Static<typeof IngestRequestRecordSchema>;

export const IngestRequestsBodySchema = Type.Object(
  { requests: Type.Array(IngestRequestRecordSchema, { description: "At most INGEST_MAX_BATCH records." }) },
  { additionalProperties: false },
);
export type IngestRequestsBody = Static<typeof IngestRequestsBodySchema>;

// One `type` list rather than an anyOf of three schemas: the same values, one check per value
// (validated once per attribute of every ingested span and log record).
const AttributeValue = Type.Unsafe<string | number | boolean>({ type: ["string", "number", "boolean"] });

export const IngestLogRecordSchema = Type.Object(
  {
    project_slug: Type.Optional(ProjectSlug),
    app_id: AppId,
    timestamp: Timestamp,
    environment: Environment,
    level: Type.String({
      maxLength: 32,
      description:
        `One of ${LOG_LEVELS.join(", ")}; also ${Object.keys(LOG_LEVEL_ALIASES).join(", ")}, any letter ` +
        "case. Anything else rejects the record.",
      examples: ["warn"],
    }),
    message: Type.String({
      minLength: 1,
      description: `Cut to ${INGEST_LIMITS.messageBytes} bytes.`,
      examples: ["payment provider timed out"],
    }),
    logger_name: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "app.payments")),
    payload: Type.Optional(CutString(`${INGEST_LIMITS.payloadBytes} bytes`, '{"attempt":3}')),
    attributes: Type.Optional(
      Type.Record(Type.String(), AttributeValue, {
        maxProperties: INGEST_LIMITS.attributeCount,
        description:
          `At most ${INGEST_LIMITS.attributeCount} keys of 1–${INGEST_LIMITS.attributeKeyLength} characters; ` +
          `string, number or boolean values (strings cut to ${INGEST_LIMITS.attributeValueLength} characters). ` +
          "Stored and returned as strings (`3`, `true`).",
        examples: [{ order_id: "o-17", attempt: 3, retry: true }],
      }),
    ),
    trace_id: Type.Optional(TraceId),
    span_id: Type.Optional(SpanId),
    endpoint_method: Type.Optional(
      Type.String({
        maxLength: INGEST_LIMITS.methodLength,
        pattern: `^${HTTP_METHOD_TOKEN}*$`,
        description: "The HTTP method of the request being handled; stored upper-case. Empty means none.",
        examples: ["POST"],
      }),
    ),
    endpoint_path: Type.Optional(
      Type.String({
        maxLength: INGEST_LIMITS.pathLength,
        description: "Path of the request being handled, starting with `/`; its route template is derived.",
        examples: ["/orders/17"],
      }),
    ),
    status_code: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 599,
        description: "The status of the request being handled: 100–599, or 0 for none.",
        examples: [504],
      }),
    ),
    consumer_id: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "customer-42")),
    consumer_name: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "Acme Corp")),
    consumer_group: Type.Optional(CutString(`${INGEST_LIMITS.labelLength} characters`, "enterprise")),
  },
  {
    description:
      "One log line of an instrumented application. Fields not listed here are ignored and named once " +
      "per batch in the answer's `ignored_fields`.",
  },
);
export type IngestLogRecord = Static<typeof IngestLogRecordSchema>;

export const IngestLogsBodySchema = Type.Object(
  { logs: Type.Array(IngestLogRecordSchema, { description: "At most INGEST_MAX_BATCH records." }) },
  { additionalProperties: false },
);
export type IngestLogsBody = Static<typeof IngestLogsBodySchema>;

export const IngestSpanRecordSchema = Type.Object(
  {
    project_slug: Type.Optional(ProjectSlug),
    app_id: AppId,
    timestamp: Type.String({
      maxLength: 64,
      description:
        "When the span started: ISO 8601 date-time, without an offset UTC. Not older than the spans " +
        "retention window, not more than 1 hour ahead.",
      examples: ["2026-11-21T06:00:00.123456Z"],
    }),
    environment: Type.Optional(
      Type.String({ maxLength: 256, description: "Default `production`; trimmed and lower-cased." }),
    ),
    trace_id: Type.String({
      maxLength: 32,
      description: "W3C trace-id: 32 hex digits, not all zero.",
      examples: ["4bf92f3577b34da6a3ce929d0e0e4736"],
    }),
    span_id: Type.String({
      maxLength: 16,
      description: "W3C span-id: 16 hex digits, not all zero.",
      examples: ["00f067aa0ba902b7"],
    }),
    parent_span_id: Type.Optional(SpanId),
    name: Type.Optional(CutString(`${INGEST_LIMITS.spanNameLength} characters`, "GET /users/{id}")),
    kind: Type.Optional(
      Type.String({
        description: `Default \`internal\`; lower-cased and cut to ${INGEST_LIMITS.spanKindLength} characters (e.g. server, client, internal, db, http).`,
        examples: ["server"],
      }),
    ),
    service_name: Type.Optional(CutString(`${INGEST_LIMITS.serviceNameLength} characters`, "checkout-api")),
    duration_ms: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: INGEST_LIMITS.maxResponseTimeMs,
        description: "Milliseconds, from 0 up to 24 hours. Default 0.",
        examples: [12.5],
      }),
    ),
    status: Type.Optional(
      Type.String({
        maxLength: 16,
        description: "`ok` (default) or `error`, any letter case; `unset` and empty mean ok.",
        examples: ["ok"],
      }),
    ),
    status_code: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 599,
        description: "The HTTP status the span saw: 100–599, or 0 (default) for none.",
        examples: [200],
      }),
    ),
    attributes: Type.Optional(
      Type.Record(Type.String(), AttributeValue, {
        maxProperties: INGEST_LIMITS.attributeCount,
        description:
          `At most ${INGEST_LIMITS.attributeCount} keys of 1–${INGEST_LIMITS.attributeKeyLength} characters; ` +
          `string, number or boolean values (strings cut to ${INGEST_LIMITS.attributeValueLength} characters). ` +
          "Stored and returned as strings.",
        examples: [{ "http.method": "GET", "db.rows": 3 }],
      }),
    ),
  },
  {
    description:
      "One finished span, in the APILens SDK's shape. Fields not listed here are ignored and named once " +
      "per batch in the answer's `ignored_fields`.",
  },
);
export type IngestSpanRecord = Static<typeof IngestSpanRecordSchema>;

export const IngestSpansBodySchema = Type.Object(
  { spans: Type.Array(IngestSpanRecordSchema, { description: "At most INGEST_MAX_BATCH records." }) },
  { additionalProperties: false },
);
export type IngestSpansBody = Static<typeof IngestSpansBodySchema>;

export const IngestRecordErrorSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: "Position of the record in the batch.", examples: [3] }),
    pointer: Type.String({
      description: "JSON Pointer into the body.",
      examples: ["/requests/3/status_code"],
    }),
    message: Type.String({ examples: ["must be <= 599"] }),
  },
  { additionalProperties: false },
);
export type IngestRecordError = Static<typeof IngestRecordErrorSchema>;

export const IngestResultSchema = Type.Object(
  {
    accepted: Type.Integer({ minimum: 0, description: "Records stored.", examples: [99] }),
    rejected: Type.Integer({
      minimum: 0,
      description: "Records refused; none of them stored.",
      examples: [1],
    }),
    errors: Type.Array(IngestRecordErrorSchema, {
      description: `Problems of rejected records, at most ${INGEST_LIMITS.listedErrors}.`,
    }),
    ignored_fields: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "Record fields of this batch that Sightline does not know and ignored, sorted, at most " +
          `${INGEST_LIMITS.listedIgnoredFields}; absent when there were none. A typo shows up here.`,
        examples: [["sdk_version"]],
      }),
    ),
  },
  { additionalProperties: false },
);
export type IngestResult = Static<typeof IngestResultSchema>;

/** The 422 answer when every record of a batch was rejected: a problem carrying the same `errors`. */
export const IngestRejectedProblemSchema = Type.Object(
  {
    type: Type.String({ examples: ["urn:sightline:error:validation_error"] }),
    title: Type.String({ examples: ["Validation failed"] }),
    status: Type.Integer({ examples: [422] }),
    detail: Type.String({ examples: ["All 2 records were rejected."] }),
    instance: Type.String({ examples: ["/api/v1/ingest/requests"] }),
    error: Type.String({ examples: ["validation_error"] }),
    request_id: Type.String({ examples: ["req-5f0c2a"] }),
    errors: Type.Array(IngestRecordErrorSchema),
    ignored_fields: Type.Optional(Type.Array(Type.String(), { examples: [["sdk_version"]] })),
  },
  { additionalProperties: true },
);

export const IngestHeartbeatSchema = Type.Object(
  {
    project_slug: Type.Optional(ProjectSlug),
    app_id: AppId,
    environment: Environment,
    instance_id: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: "^[A-Za-z0-9._:-]+$",
      description:
        "Tells the app's processes apart (random per process start); the newest beat per instance is kept.",
      examples: ["4bf92f3577b34da6a3ce929d0e0e4736"],
    }),
    sdk: Type.String({ maxLength: 64, examples: ["sightline-node"] }),
    sdk_version: Type.String({ maxLength: 64, examples: ["0.1.0"] }),
    runtime: Type.String({ maxLength: 128, examples: ["node v20.19.0"] }),
    uptime_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e10, examples: [3600] })),
    cpu_percent: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100_000,
        description: "Process CPU time since the previous beat, as a percentage of one core.",
        examples: [12.5],
      }),
    ),
    memory_rss_bytes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e15, examples: [83886080] })),
    memory_heap_used_bytes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e15, examples: [20971520] })),
    interval_s: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 86_400,
        description: "Seconds until the next beat.",
        examples: [60],
      }),
    ),
  },
  {
    description:
      "One heartbeat of a running app instance. Fields not listed here are ignored, so newer SDKs can send more.",
  },
);
export type IngestHeartbeat = Static<typeof IngestHeartbeatSchema>;

export const HeartbeatAnswerSchema = Type.Object(
  {
    app_id: Type.String({
      description: "The app's UUID.",
      examples: ["3f0b8c1e-5a4d-4b2f-9c1e-7d8a6b5c4d3e"],
    }),
    instance_id: Type.String({ examples: ["4bf92f3577b34da6a3ce929d0e0e4736"] }),
    received_at: Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] }),
  },
  { additionalProperties: false },
);
export type HeartbeatAnswer = Static<typeof HeartbeatAnswerSchema>;
