// Wire shapes of the analytics routes: the project overview (environments, summary, timeseries,
// endpoints, consumers) and the app routes of spec 4.5 (endpoint metrics and analytics), with
// the figures' definitions in their descriptions.
import { type Static, Type } from "typebox";
import {
  AppSlugsParam,
  ConsumerParam,
  EnvironmentParam,
  MethodsParam,
  PageParam,
  pageSizeParam,
  pagedSchema,
  sinceParam,
  StatusClassesParam,
  StatusCodesParam,
  untilParam,
} from "./data.js";
import { CONSUMER_SORT_KEYS, ENDPOINT_SORT_KEYS, ERROR_SORT_KEYS } from "./vocabulary.js";

/** Timeseries bucket widths, and the limits the server applies to analytics queries. */
export const TIMESERIES_INTERVALS = ["1m", "5m", "15m", "1h", "6h", "1d"] as const;
export type TimeseriesInterval = (typeof TIMESERIES_INTERVALS)[number];

export const ANALYTICS_LIMITS = {
  /** Default window when `since`/`until` are absent: the 24 hours before `until` (default now). */
  defaultWindowMs: 24 * 60 * 60 * 1000,
  /** Largest number of buckets one timeseries may have; more answers 422. */
  maxBuckets: 2000,
  /** Percentiles are exact for groups of at most this many rows, within 1% relative error above. */
  exactPercentileRows: 10_000,
  endpointStats: { defaultPageSize: 25, maxPageSize: 200 },
  projectEndpoints: { defaultPageSize: 25, maxPageSize: 200 },
  endpointOptions: { defaultLimit: 500, maxLimit: 1000 },
  consumers: { defaultLimit: 20, maxLimit: 100 },
  projectConsumers: { defaultPageSize: 50, maxPageSize: 200 },
  projectErrors: { defaultPageSize: 25, maxPageSize: 200 },
  projectErrorIssues: { defaultPageSize: 25, maxPageSize: 100 },
  relatedApis: { defaultLimit: 20, maxLimit: 100 },
  endpointConsumers: { defaultLimit: 10, maxLimit: 50 },
  endpointStatusCodes: { defaultLimit: 20, maxLimit: 50 },
  endpointPayloads: { defaultLimit: 20, maxLimit: 100 },
  endpointValidationErrors: { defaultLimit: 20, maxLimit: 100 },
  /** Repeated `endpoint=` parameters accepted by endpoint-stats. */
  maxEndpoints: 100,
} as const;

/** A union of string literals with its Static type intact (a mapped array would lose it). */
function literals<const T extends readonly string[]>(
  values: T,
  options: { description: string; examples: string[] },
) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

const Instant = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });
const Count = (example: number, description?: string) =>
  Type.Integer({ minimum: 0, examples: [example], ...(description === undefined ? {} : { description }) });
const Millis = (example: number, description: string) =>
  Type.Number({ minimum: 0, description, examples: [example] });
const limitParam = (limits: { defaultLimit: number; maxLimit: number }, what: string) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: limits.defaultLimit,
    description: `How many ${what}, default ${limits.defaultLimit}; values above ${limits.maxLimit} are served as ${limits.maxLimit}.`,
    examples: [limits.defaultLimit],
  });

// ---- query-string pieces ----

const windowParams = {
  environment: Type.Optional(EnvironmentParam),
  since: Type.Optional(sinceParam("Default: 24 hours before `until`.")),
  until: Type.Optional(untilParam("Default: now.")),
};
const projectParams = { app_slugs: Type.Optional(AppSlugsParam), ...windowParams };
/** The project routes a consumer's page reads take its id too. */
const consumerParam = { consumer: Type.Optional(ConsumerParam) };
const timeseriesParams = {
  interval: Type.Optional(
    literals(TIMESERIES_INTERVALS, {
      description:
        "Bucket width. Without it the width is chosen from the range: the widest one giving at least " +
        `50 buckets (so about 50–300). More than ${ANALYTICS_LIMITS.maxBuckets} buckets answers 422.`,
      examples: ["1h"],
    }),
  ),
  timezone: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        "IANA zone the buckets are aligned to (local hours, local midnights); default: the caller's " +
        "profile zone. Buckets are returned as UTC instants. Zones the events engine cannot load " +
        "(e.g. `SystemV/AST4`) answer 422.",
      examples: ["Europe/Paris"],
    }),
  ),
};
const statusFilterParams = {
  status_classes: Type.Optional(StatusClassesParam),
  status_class: Type.Optional(
    Type.String({ maxLength: 8, description: "One class, as above.", examples: ["5xx"] }),
  ),
  status_codes: Type.Optional(StatusCodesParam),
  status_code: Type.Optional(
    Type.Integer({ minimum: 100, maximum: 599, description: "One status code.", examples: [503] }),
  ),
  methods: Type.Optional(MethodsParam),
  q: Type.Optional(
    Type.String({
      maxLength: 256,
      description:
        "Case-insensitive substring of the route template or the method; every character is literal.",
      examples: ["orders"],
    }),
  ),
};
const sortParams = {
  sort_by: Type.Optional(
    literals(ENDPOINT_SORT_KEYS, {
      description:
        "`endpoint` sorts by method, then path; `data_transfer` by request + response bytes. Ties are " +
        "broken by method, then path (then app id), so paging is stable.",
      examples: ["total_requests"],
    }),
  ),
  sort_dir: Type.Optional(
    literals(["asc", "desc"] as const, {
      description: "Default `asc` for `endpoint`, `desc` otherwise.",
      examples: ["desc"],
    }),
  ),
};
const endpointParams = {
  method: Type.String({ minLength: 1, maxLength: 16, description: "Any letter case.", examples: ["GET"] }),
  path: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: "The endpoint's route template, exactly as the endpoint lists return it.",
    examples: ["/users/{id}/orders"],
  }),
};

// ---- project analytics queries ----

export const EnvironmentsQuerySchema = Type.Object(
  { app_slugs: Type.Optional(AppSlugsParam) },
  { additionalProperties: false },
);
export type EnvironmentsQuery = Static<typeof EnvironmentsQuerySchema>;

export const ProjectAnalyticsQuerySchema = Type.Object(
  { ...projectParams, ...consumerParam },
  { additionalProperties: false },
);
export type ProjectAnalyticsQuery = Static<typeof ProjectAnalyticsQuerySchema>;

export const ProjectTimeseriesQuerySchema = Type.Object(
  { ...projectParams, ...consumerParam, ...timeseriesParams },
  { additionalProperties: false },
);
export type ProjectTimeseriesQuery = Static<typeof ProjectTimeseriesQuerySchema>;

export const ProjectEndpointsQuerySchema = Type.Object(
  {
    ...projectParams,
    ...consumerParam,
    methods: statusFilterParams.methods,
    status_classes: statusFilterParams.status_classes,
    status_codes: statusFilterParams.status_codes,
    q: statusFilterParams.q,
    ...sortParams,
    page: Type.Optional(PageParam),
    page_size: Type.Optional(
      pageSizeParam(
        ANALYTICS_LIMITS.projectEndpoints.defaultPageSize,
        ANALYTICS_LIMITS.projectEndpoints.maxPageSize,
      ),
    ),
  },
  { additionalProperties: false },
);
export type ProjectEndpointsQuery = Static<typeof ProjectEndpointsQuerySchema>;

export const ProjectConsumersQuerySchema = Type.Object(
  {
    ...projectParams,
    q: Type.Optional(
      Type.String({
        maxLength: 256,
        description:
          "Case-insensitive substring of the consumer's id, name or group; every character is literal. " +
          "The unknown consumer (requests without consumer_id) never matches a search.",
        examples: ["acme"],
      }),
    ),
    sort_by: Type.Optional(
      literals(CONSUMER_SORT_KEYS, {
        description:
          "`consumer` sorts by the label; `data_transfer` by request + response bytes. Ties are broken " +
          "by consumer_id, so paging is stable. Default `total_requests`.",
        examples: ["total_requests"],
      }),
    ),
    sort_dir: sortParams.sort_dir,
    page: Type.Optional(PageParam),
    page_size: Type.Optional(
      pageSizeParam(
        ANALYTICS_LIMITS.projectConsumers.defaultPageSize,
        ANALYTICS_LIMITS.projectConsumers.maxPageSize,
      ),
    ),
  },
  { additionalProperties: false },
);
export type ProjectConsumersQuery = Static<typeof ProjectConsumersQuerySchema>;

export const ProjectErrorsQuerySchema = Type.Object(
  {
    ...projectParams,
    ...consumerParam,
    status_classes: Type.Optional(
      Type.String({
        maxLength: 16,
        description: "Comma-separated classes among `4xx` and `5xx`; default both. Others answer 422.",
        examples: ["5xx"],
      }),
    ),
    status_codes: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: "Comma-separated status codes 400–599, OR-ed with the classes; others answer 422.",
        examples: ["500,503"],
      }),
    ),
    methods: statusFilterParams.methods,
    q: statusFilterParams.q,
    sort_by: Type.Optional(
      literals(ERROR_SORT_KEYS, {
        description:
          "Default `count`. Ties are broken by app, method, route and status code, so paging is stable.",
        examples: ["count"],
      }),
    ),
    sort_dir: Type.Optional(
      literals(["asc", "desc"] as const, { description: "Default `desc`.", examples: ["desc"] }),
    ),
    page: Type.Optional(PageParam),
    page_size: Type.Optional(
      pageSizeParam(
        ANALYTICS_LIMITS.projectErrors.defaultPageSize,
        ANALYTICS_LIMITS.projectErrors.maxPageSize,
      ),
    ),
  },
  { additionalProperties: false },
);
export type ProjectErrorsQuery = Static<typeof ProjectErrorsQuerySchema>;

export const ProjectErrorIssuesQuerySchema = Type.Object(
  {
    ...projectParams,
    ...consumerParam,
    sort_by: Type.Optional(
      literals(ERROR_SORT_KEYS, {
        description: "Default `count`. Ties are broken by app and fingerprint, so paging is stable.",
        examples: ["count"],
      }),
    ),
    sort_dir: Type.Optional(
      literals(["asc", "desc"] as const, { description: "Default `desc`.", examples: ["desc"] }),
    ),
    page: Type.Optional(PageParam),
    page_size: Type.Optional(
      pageSizeParam(
        ANALYTICS_LIMITS.projectErrorIssues.defaultPageSize,
        ANALYTICS_LIMITS.projectErrorIssues.maxPageSize,
      ),
    ),
  },
  { additionalProperties: false },
);
export type ProjectErrorIssuesQuery = Static<typeof ProjectErrorIssuesQuerySchema>;

// ---- app analytics queries (the routes add `project`) ----

export const AppWindowQuerySchema = Type.Object(windowParams, { additionalProperties: false });
export type AppWindowQuery = Static<typeof AppWindowQuerySchema>;

export const EndpointStatsQuerySchema = Type.Object(
  {
    ...windowParams,
    ...statusFilterParams,
    paths: Type.Optional(
      Type.String({
        maxLength: 8192,
        description: "Comma-separated route templates, exact.",
        examples: ["/users/{id},/orders"],
      }),
    ),
    endpoint: Type.Optional(
      Type.Array(
        Type.String({
          maxLength: 2100,
          description: "`<METHOD> <route template>`, e.g. `GET /users/{id}`.",
          examples: ["GET /users/{id}"],
        }),
        {
          maxItems: ANALYTICS_LIMITS.maxEndpoints,
          description: "Repeatable: `endpoint=GET /users/{id}&endpoint=POST /orders`; OR-ed.",
        },
      ),
    ),
    ...sortParams,
    page: Type.Optional(PageParam),
    page_size: Type.Optional(
      pageSizeParam(
        ANALYTICS_LIMITS.endpointStats.defaultPageSize,
        ANALYTICS_LIMITS.endpointStats.maxPageSize,
      ),
    ),
  },
  { additionalProperties: false },
);
export type EndpointStatsQuery = Static<typeof EndpointStatsQuerySchema>;

export const EndpointOptionsQuerySchema = Type.Object(
  {
    ...windowParams,
    ...statusFilterParams,
    limit: Type.Optional(limitParam(ANALYTICS_LIMITS.endpointOptions, "endpoints")),
  },
  { additionalProperties: false },
);
export type EndpointOptionsQuery = Static<typeof EndpointOptionsQuerySchema>;

export const AppConsumersQuerySchema = Type.Object(
  { ...windowParams, limit: Type.Optional(limitParam(ANALYTICS_LIMITS.consumers, "consumers")) },
  { additionalProperties: false },
);
export type AppConsumersQuery = Static<typeof AppConsumersQuerySchema>;

export const AppTimeseriesQuerySchema = Type.Object(
  { ...windowParams, ...timeseriesParams },
  { additionalProperties: false },
);
export type AppTimeseriesQuery = Static<typeof AppTimeseriesQuerySchema>;

export const RelatedApisQuerySchema = Type.Object(
  { ...windowParams, limit: Type.Optional(limitParam(ANALYTICS_LIMITS.relatedApis, "families")) },
  { additionalProperties: false },
);
export type RelatedApisQuery = Static<typeof RelatedApisQuerySchema>;

export const EndpointQuerySchema = Type.Object(
  { ...windowParams, ...endpointParams },
  { additionalProperties: false },
);
export type EndpointQuery = Static<typeof EndpointQuerySchema>;

export const EndpointTimeseriesQuerySchema = Type.Object(
  { ...windowParams, ...endpointParams, ...timeseriesParams },
  { additionalProperties: false },
);
export type EndpointTimeseriesQuery = Static<typeof EndpointTimeseriesQuerySchema>;

export const EndpointConsumersQuerySchema = Type.Object(
  {
    ...windowParams,
    ...endpointParams,
    limit: Type.Optional(limitParam(ANALYTICS_LIMITS.endpointConsumers, "consumers")),
  },
  { additionalProperties: false },
);
export type EndpointConsumersQuery = Static<typeof EndpointConsumersQuerySchema>;

export const EndpointStatusCodesQuerySchema = Type.Object(
  {
    ...windowParams,
    ...endpointParams,
    limit: Type.Optional(limitParam(ANALYTICS_LIMITS.endpointStatusCodes, "status codes")),
  },
  { additionalProperties: false },
);
export type EndpointStatusCodesQuery = Static<typeof EndpointStatusCodesQuerySchema>;

export const EndpointPayloadsQuerySchema = Type.Object(
  {
    ...windowParams,
    ...endpointParams,
    limit: Type.Optional(limitParam(ANALYTICS_LIMITS.endpointPayloads, "samples")),
  },
  { additionalProperties: false },
);
export type EndpointPayloadsQuery = Static<typeof EndpointPayloadsQuerySchema>;

export const EndpointValidationErrorsQuerySchema = Type.Object(
  {
    ...windowParams,
    ...endpointParams,
    limit: Type.Optional(limitParam(ANALYTICS_LIMITS.endpointValidationErrors, "field and rule pairs")),
  },
  { additionalProperties: false },
);
export type EndpointValidationErrorsQuery = Static<typeof EndpointValidationErrorsQuerySchema>;

// ---- answers ----

/** The traffic figures every aggregate carries. */
const trafficFields = {
  total_requests: Count(1200),
  error_count: Count(36, "Requests with status >= 400."),
  client_errors: Count(30, "Requests with status 400–499."),
  server_errors: Count(6, "Requests with status >= 500."),
  error_rate: Type.Number({
    minimum: 0,
    maximum: 100,
    description: "error_count / total_requests × 100; 0 when there are no requests.",
    examples: [3],
  }),
  avg_response_time_ms: Millis(84.2, "Arithmetic mean; 0 when there are no requests."),
  p50_response_time_ms: Millis(61, percentileText("50th")),
  p95_response_time_ms: Millis(240.5, percentileText("95th")),
  p99_response_time_ms: Millis(812.3, percentileText("99th")),
  total_request_bytes: Count(614400),
  total_response_bytes: Count(2457600),
};

function percentileText(rank: string): string {
  return (
    `${rank} percentile: exact (linear interpolation between closest ranks) for up to ` +
    `${ANALYTICS_LIMITS.exactPercentileRows} requests, within 1% relative error above; 0 when there are none.`
  );
}

const consumerFields = {
  consumer: Type.String({
    description:
      'Label: the consumer_name, else the consumer_id, else "unknown" (requests without consumer_id).',
    examples: ["Acme Corp"],
  }),
  consumer_id: Type.String({
    description: "The identity; empty for the unknown consumer.",
    examples: ["customer-42"],
  }),
  consumer_name: Type.String({
    description: "The most recent non-empty name sent.",
    examples: ["Acme Corp"],
  }),
  consumer_group: Type.String({
    description: "The most recent non-empty group sent.",
    examples: ["enterprise"],
  }),
  total_requests: trafficFields.total_requests,
  error_count: trafficFields.error_count,
  client_errors: trafficFields.client_errors,
  server_errors: trafficFields.server_errors,
  error_rate: trafficFields.error_rate,
  avg_response_time_ms: trafficFields.avg_response_time_ms,
};

export const EnvironmentsSchema = Type.Object(
  {
    environments: Type.Array(Type.String(), {
      description: "Distinct environments with request or log records, sorted.",
      examples: [["production", "staging"]],
    }),
  },
  { additionalProperties: false },
);
export type Environments = Static<typeof EnvironmentsSchema>;

export const SummarySchema = Type.Object(
  {
    ...trafficFields,
    unique_endpoints: Count(42, "Distinct endpoints: (app, method, route template)."),
    unique_consumers: Count(17, "Distinct non-empty consumer_id values."),
  },
  { additionalProperties: false },
);
export type Summary = Static<typeof SummarySchema>;

export const TimeseriesPointSchema = Type.Object(
  {
    bucket: Type.String({
      format: "date-time",
      description: "Start of the bucket (aligned in the requested zone), as a UTC instant.",
      examples: ["2026-11-20T23:00:00.000Z"],
    }),
    ...trafficFields,
  },
  { additionalProperties: false },
);
export type TimeseriesPoint = Static<typeof TimeseriesPointSchema>;

export const TimeseriesSchema = Type.Object(
  {
    interval: literals(TIMESERIES_INTERVALS, { description: "The bucket width used.", examples: ["15m"] }),
    timezone: Type.String({ description: "The zone buckets are aligned to.", examples: ["Europe/Paris"] }),
    since: Instant,
    until: Instant,
    points: Type.Array(TimeseriesPointSchema, {
      description:
        "Every bucket from the one holding `since` to the one holding `until`, zero-filled, ascending.",
    }),
  },
  { additionalProperties: false },
);
export type Timeseries = Static<typeof TimeseriesSchema>;

const endpointFields = {
  method: Type.String({ examples: ["GET"] }),
  path: Type.String({ description: "The route template.", examples: ["/users/{id}/orders"] }),
};

export const EndpointStatsSchema = Type.Object(
  {
    ...endpointFields,
    ...trafficFields,
    last_seen_at: Type.String({
      format: "date-time",
      description: "Newest request in the window.",
      examples: ["2026-11-21T05:59:58.120Z"],
    }),
  },
  { additionalProperties: false },
);
export type EndpointStats = Static<typeof EndpointStatsSchema>;

export const EndpointStatsPageSchema = pagedSchema(EndpointStatsSchema);
export type EndpointStatsPage = Static<typeof EndpointStatsPageSchema>;

const appFields = {
  app_id: Type.String({
    description: "The app's UUID.",
    examples: ["3f0b8c1e-5a4d-4b2f-9c1e-7d8a6b5c4d3e"],
  }),
  app_slug: Type.Union([Type.String(), Type.Null()], {
    description: "The app's slug; null when the app has been deleted since (its records remain).",
    examples: ["checkout-api"],
  }),
};

export const ProjectEndpointStatsSchema = Type.Object(
  {
    ...appFields,
    ...EndpointStatsSchema.properties,
  },
  { additionalProperties: false },
);
export type ProjectEndpointStats = Static<typeof ProjectEndpointStatsSchema>;

export const ProjectEndpointsPageSchema = pagedSchema(ProjectEndpointStatsSchema);
export type ProjectEndpointsPage = Static<typeof ProjectEndpointsPageSchema>;

export const EndpointOptionSchema = Type.Object(
  { ...endpointFields, total_requests: trafficFields.total_requests },
  { additionalProperties: false },
);
export type EndpointOption = Static<typeof EndpointOptionSchema>;

export const ConsumerStatsSchema = Type.Object(
  {
    ...consumerFields,
    last_seen_at: Type.String({ format: "date-time", examples: ["2026-11-21T05:59:58.120Z"] }),
  },
  { additionalProperties: false },
);
export type ConsumerStats = Static<typeof ConsumerStatsSchema>;

/** A consumer of the project list: every traffic figure, and the last request in the window. */
export const ProjectConsumerStatsSchema = Type.Object(
  {
    consumer: consumerFields.consumer,
    consumer_id: consumerFields.consumer_id,
    consumer_name: consumerFields.consumer_name,
    consumer_group: consumerFields.consumer_group,
    ...trafficFields,
    last_seen_at: Type.String({ format: "date-time", examples: ["2026-11-21T05:59:58.120Z"] }),
  },
  { additionalProperties: false },
);
export type ProjectConsumerStats = Static<typeof ProjectConsumerStatsSchema>;

export const ProjectConsumersPageSchema = pagedSchema(ProjectConsumerStatsSchema);
export type ProjectConsumersPage = Static<typeof ProjectConsumersPageSchema>;

/** One row of the errors breakdown: the failed requests of one endpoint with one status code. */
export const ErrorGroupSchema = Type.Object(
  {
    ...appFields,
    ...endpointFields,
    status_code: Type.Integer({ minimum: 400, maximum: 599, examples: [503] }),
    count: Count(42, "Requests of the endpoint answered with this status code in the window."),
    affected_consumers: Count(7, "Distinct non-empty consumer_id values among them."),
    first_seen_at: Type.String({
      format: "date-time",
      description:
        "Oldest such request retained up to the window's end (not only in the window: a " +
        "long-standing error keeps its first occurrence).",
      examples: ["2026-11-20T06:12:01.004Z"],
    }),
    last_seen_at: Type.String({
      format: "date-time",
      description: "Newest such request in the window.",
      examples: ["2026-11-21T05:59:58.120Z"],
    }),
    is_new: Type.Boolean({
      description: "Whether the group was first seen inside the window (`first_seen_at` >= `since`).",
      examples: [false],
    }),
  },
  { additionalProperties: false },
);
export type ErrorGroup = Static<typeof ErrorGroupSchema>;

export const ErrorGroupsPageSchema = pagedSchema(ErrorGroupSchema);
export type ErrorGroupsPage = Static<typeof ErrorGroupsPageSchema>;

/** One error issue: the ERROR/CRITICAL logs of one app sharing a fingerprint. */
export const ErrorIssueSchema = Type.Object(
  {
    ...appFields,
    fingerprint: Type.String({
      description:
        "Hash of the exception type, the message with numbers, ids and quoted values masked, and the top in-app stack frames.",
      examples: ["9f2c4e1a0b7d3e58"],
    }),
    error_type: Type.String({
      description:
        "The exception's class name (`error_type` attribute or the message's prefix); empty for a plain error log.",
      examples: ["TypeError"],
    }),
    message: Type.String({
      description: "The newest occurrence's message.",
      examples: ["TypeError: order 17 missing"],
    }),
    stack: Type.String({
      description:
        "The newest occurrence's payload (the stack trace for SDK-captured exceptions), cut to 8 KiB.",
      examples: ["TypeError: order 17 missing\n    at loadOrder (/srv/app/orders.js:41:17)"],
    }),
    count: Count(42, "Occurrences in the window."),
    affected_consumers: Count(7, "Distinct non-empty consumer_id values among them."),
    first_seen_at: Type.String({
      format: "date-time",
      description: "Oldest occurrence retained up to the window's end.",
      examples: ["2026-11-20T06:12:01.004Z"],
    }),
    last_seen_at: Type.String({
      format: "date-time",
      description: "Newest occurrence in the window.",
      examples: ["2026-11-21T05:59:58.120Z"],
    }),
    is_new: Type.Boolean({ description: "First seen inside the window.", examples: [false] }),
    is_regression: Type.Boolean({
      description:
        "Seen before the window, then quiet for at least 24 hours before it, and seen again in it.",
      examples: [false],
    }),
    sample_trace_ids: Type.Array(Type.String({ examples: ["4bf92f3577b34da6a3ce929d0e0e4736"] }), {
      maxItems: 5,
      description: "Up to five trace ids of occurrences in the window (their requests and spans).",
    }),
  },
  { additionalProperties: false },
);
export type ErrorIssue = Static<typeof ErrorIssueSchema>;

export const ErrorIssuesPageSchema = pagedSchema(ErrorIssueSchema);
export type ErrorIssuesPage = Static<typeof ErrorIssuesPageSchema>;

export const EndpointConsumerSchema = Type.Object(consumerFields, { additionalProperties: false });
export type EndpointConsumer = Static<typeof EndpointConsumerSchema>;

export const RelatedApiSchema = Type.Object(
  {
    family: Type.String({
      description: '"/" + the first segment of the route template ("/" for the root).',
      examples: ["/users"],
    }),
    endpoint_count: Count(4, "Distinct (method, route template) pairs of the family."),
    total_requests: trafficFields.total_requests,
    error_count: trafficFields.error_count,
    client_errors: trafficFields.client_errors,
    server_errors: trafficFields.server_errors,
    error_rate: trafficFields.error_rate,
    avg_response_time_ms: trafficFields.avg_response_time_ms,
  },
  { additionalProperties: false },
);
export type RelatedApi = Static<typeof RelatedApiSchema>;

export const EndpointDetailSchema = Type.Object(
  {
    ...endpointFields,
    ...trafficFields,
    last_seen_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
      description: "Newest request in the window; null without traffic.",
      examples: ["2026-11-21T05:59:58.120Z"],
    }),
  },
  { additionalProperties: false },
);
export type EndpointDetail = Static<typeof EndpointDetailSchema>;

export const StatusCodeCountSchema = Type.Object(
  { status_code: Type.Integer({ examples: [200] }), total_requests: trafficFields.total_requests },
  { additionalProperties: false },
);
export type StatusCodeCount = Static<typeof StatusCodeCountSchema>;

export const ValidationErrorCountSchema = Type.Object(
  {
    path: Type.String({
      description: "The field that failed (dotted path); empty for the input as a whole.",
      examples: ["body.email"],
    }),
    rule: Type.String({ description: "The rule it broke, as the validator names it.", examples: ["format"] }),
    occurrences: Type.Integer({
      description: "Times the field failed this rule in the window.",
      examples: [42],
    }),
    requests: Type.Integer({ description: "Distinct requests it failed in.", examples: [40] }),
    share: Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        "Percentage of the endpoint's refused requests in the window (those with any validation error) " +
        "that failed this field and rule; shares add up to more than 100 when requests fail several fields.",
      examples: [62.5],
    }),
    message: Type.String({
      description: "The validator's message of the latest occurrence (never the value).",
      examples: ['must match format "email"'],
    }),
    last_seen_at: Instant,
  },
  { additionalProperties: false },
);
export type ValidationErrorCount = Static<typeof ValidationErrorCountSchema>;

export const PayloadSampleSchema = Type.Object(
  {
    id: Type.String({ format: "uuid", examples: ["0192f3c4-5b6a-7d8e-9f01-23456789abcd"] }),
    timestamp: Instant,
    environment: Type.String({ examples: ["production"] }),
    method: Type.String({ examples: ["POST"] }),
    path: Type.String({ description: "The raw request path.", examples: ["/orders/17"] }),
    route: Type.String({ description: "The route template.", examples: ["/orders/{id}"] }),
    status_code: Type.Integer({ examples: [201] }),
    response_time_ms: Type.Number({ examples: [87.25] }),
    ip_address: Type.String({ examples: ["203.0.113.7"] }),
    user_agent: Type.String({ examples: ["curl/8.5.0"] }),
    consumer_id: Type.String({ examples: ["customer-42"] }),
    consumer_name: Type.String({ examples: ["Acme Corp"] }),
    consumer_group: Type.String({ examples: ["enterprise"] }),
    request_payload: Type.String({ examples: ['{"sku":"A-1"}'] }),
    response_payload: Type.String({ examples: ['{"id":17}'] }),
  },
  { additionalProperties: false },
);
export type PayloadSample = Static<typeof PayloadSampleSchema>;
