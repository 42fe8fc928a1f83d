// Wire shapes of service levels (SLOs): the objective (scope, indicator, target, rolling window,
// burn-rate alerting), its computed status and budget burn-down, and the per-consumer template.
import { type Static, Type } from "typebox";
import { NotificationOutcomeSchema } from "./alerts.js";
import { SLO_WINDOW_DAYS } from "./vocabulary.js";

const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });

export const SLO_LIMITS = {
  slosPerProject: 200,
  endpointsPerSlo: 50,
  channelsPerSlo: 20,
  extraBadStatuses: 10,
  minTarget: 50,
  maxTarget: 99.999,
  maxTemplateConsumers: 50,
} as const;

/** ok, or which burn-rate condition of the multi-window policy holds. */
export const SLO_STATES = ["ok", "slow_burn", "fast_burn"] as const;
export type SloState = (typeof SLO_STATES)[number];

/** The windows over which the status reports burn rates, in minutes. */
export const SLO_BURN_WINDOWS_MINUTES = [5, 30, 60, 360] as const;

/** The Google SRE workbook's policy for a 30-day objective (chapter "Alerting on SLOs"). */
export const DEFAULT_BURN_ALERTS = {
  fast: { burn_rate: 14.4, long_window_minutes: 60, short_window_minutes: 5 },
  slow: { burn_rate: 6, long_window_minutes: 360, short_window_minutes: 30 },
} as const;

const Name = Type.String({ minLength: 1, maxLength: 100, examples: ["Checkout available"] });

const EndpointSchema = Type.Object(
  {
    method: Type.String({ pattern: "^[A-Za-z]{1,16}$", examples: ["POST"] }),
    route: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: "^/",
      description: "The route template as recorded by the SDK.",
      examples: ["/orders"],
    }),
  },
  { additionalProperties: false },
);

const ConsumerText = (description: string, example: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 256 }), Type.Null()], {
    description,
    examples: [example],
  });

const SloScopeInputSchema = Type.Object(
  {
    app: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], {
        description: "App slug; omitted or null for the whole project.",
        examples: ["checkout-api"],
      }),
    ),
    environment: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], {
        description: "Environment name (needs `app`).",
        examples: ["production"],
      }),
    ),
    endpoints: Type.Optional(
      Type.Array(EndpointSchema, {
        maxItems: SLO_LIMITS.endpointsPerSlo,
        description: "One endpoint, or a group of endpoints measured together (needs `app`); empty: all.",
      }),
    ),
    consumer: Type.Optional(ConsumerText("One consumer's `consumer_id`, exactly.", "customer-42")),
    consumer_group: Type.Optional(
      ConsumerText("One consumer group, exactly (not with `consumer`).", "enterprise"),
    ),
  },
  { additionalProperties: false },
);
export type SloScopeInput = Static<typeof SloScopeInputSchema>;

/** `503` for one status code, `4xx` (or `4XX`) for a class. */
export const SLO_STATUS_PATTERN = "^[1-5](?:[0-9]{2}|[xX]{2})$";

const AvailabilitySliSchema = Type.Object(
  {
    kind: Type.Literal("availability"),
    also_bad: Type.Optional(
      Type.Array(Type.String({ pattern: SLO_STATUS_PATTERN, examples: ["429"] }), {
        maxItems: SLO_LIMITS.extraBadStatuses,
        uniqueItems: true,
        description:
          "Answers counted as failures besides 5xx: status codes (`429`) or classes (`4xx`). Default none.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "Good: requests answered with a status below 500 and not listed in `also_bad`.",
  },
);
const LatencySliSchema = Type.Object(
  {
    kind: Type.Literal("latency"),
    threshold_ms: Type.Number({
      exclusiveMinimum: 0,
      maximum: 86_400_000,
      description: "Good: requests answered in less than this many milliseconds.",
      examples: [300],
    }),
  },
  { additionalProperties: false },
);
export const SliSchema = Type.Union([AvailabilitySliSchema, LatencySliSchema], {
  description: "The indicator: which requests are good.",
});
export type Sli = Static<typeof SliSchema>;

const TargetSchema = Type.Number({
  minimum: SLO_LIMITS.minTarget,
  maximum: SLO_LIMITS.maxTarget,
  description: "The objective: percent of good requests over the window.",
  examples: [99.9],
});
// An enum, not a union of mapped literals: the mapped array's static type was `never`.
const WindowDaysSchema = Type.Enum(SLO_WINDOW_DAYS, {
  description: "The rolling window in days: 7, 28 or 30.",
  examples: [30],
});

const BurnConditionSchema = Type.Object(
  {
    burn_rate: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1000,
      description: "Fires when both windows burn the budget more than this many times as fast as allowed.",
      examples: [14.4],
    }),
    long_window_minutes: Type.Integer({ minimum: 1, maximum: 4320, examples: [60] }),
    short_window_minutes: Type.Integer({ minimum: 1, maximum: 4320, examples: [5] }),
  },
  { additionalProperties: false },
);
export type BurnCondition = Static<typeof BurnConditionSchema>;

const AlertingInputSchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ default: true })),
    fast: Type.Optional(BurnConditionSchema),
    slow: Type.Optional(BurnConditionSchema),
  },
  {
    additionalProperties: false,
    description:
      "Multi-window, multi-burn-rate alerting. Defaults: fast 14.4x over 60 and 5 minutes, slow 6x over " +
      "360 and 30 minutes.",
  },
);

const ChannelIdsSchema = Type.Array(Uuid, {
  maxItems: SLO_LIMITS.channelsPerSlo,
  uniqueItems: true,
  description: "Notification channels of the project that hear about burn-rate alerts.",
});

export const CreateSloBodySchema = Type.Object(
  {
    name: Name,
    scope: Type.Optional(SloScopeInputSchema),
    sli: SliSchema,
    target: TargetSchema,
    window_days: WindowDaysSchema,
    alerting: Type.Optional(AlertingInputSchema),
    channel_ids: Type.Optional(ChannelIdsSchema),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: "Checkout available",
        scope: {
          app: "checkout-api",
          environment: "production",
          endpoints: [{ method: "POST", route: "/orders" }],
        },
        sli: { kind: "availability", also_bad: ["429"] },
        target: 99.9,
        window_days: 30,
      },
    ],
  },
);
export type CreateSloBody = Static<typeof CreateSloBodySchema>;

export const UpdateSloBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    scope: Type.Optional(SloScopeInputSchema),
    sli: Type.Optional(SliSchema),
    target: Type.Optional(TargetSchema),
    window_days: Type.Optional(WindowDaysSchema),
    alerting: Type.Optional(AlertingInputSchema),
    channel_ids: Type.Optional(ChannelIdsSchema),
  },
  { additionalProperties: false, examples: [{ target: 99.5 }] },
);
export type UpdateSloBody = Static<typeof UpdateSloBodySchema>;

export const PerConsumerSloBodySchema = Type.Object(
  {
    // Spelled out rather than Omit<CreateSloBody, "scope">: the omitted type loses `window_days`.
    template: Type.Object(
      {
        name: Name,
        sli: SliSchema,
        target: TargetSchema,
        window_days: WindowDaysSchema,
        alerting: Type.Optional(AlertingInputSchema),
        channel_ids: Type.Optional(ChannelIdsSchema),
      },
      { additionalProperties: false },
    ),
    scope: Type.Optional(Type.Omit(SloScopeInputSchema, ["consumer", "consumer_group"])),
    top: Type.Integer({
      minimum: 1,
      maximum: SLO_LIMITS.maxTemplateConsumers,
      description: "How many consumers: those with the most requests in the scope over the window.",
      examples: [10],
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        template: {
          name: "Checkout available",
          sli: { kind: "availability" },
          target: 99.9,
          window_days: 30,
        },
        scope: { app: "checkout-api" },
        top: 10,
      },
    ],
  },
);
export type PerConsumerSloBody = Static<typeof PerConsumerSloBodySchema>;

const AppRefSchema = Type.Object(
  {
    id: Uuid,
    slug: Type.String({ examples: ["checkout-api"] }),
    name: Type.String({ examples: ["Checkout"] }),
  },
  { additionalProperties: false },
);

export const SloScopeSchema = Type.Object(
  {
    app: Type.Union([AppRefSchema, Type.Null()], { description: "Null: the whole project." }),
    environment: Type.Union([Type.String(), Type.Null()], { examples: ["production"] }),
    endpoints: Type.Array(EndpointSchema, { description: "Empty: every endpoint." }),
    consumer: Type.Union([Type.String(), Type.Null()], { examples: ["customer-42"] }),
    consumer_group: Type.Union([Type.String(), Type.Null()], { examples: [null] }),
  },
  { additionalProperties: false },
);
export type SloScope = Static<typeof SloScopeSchema>;

export const SloSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["Checkout available"] }),
    scope: SloScopeSchema,
    sli: Type.Union([
      Type.Object(
        { kind: Type.Literal("availability"), also_bad: Type.Array(Type.String({ examples: ["429"] })) },
        { additionalProperties: false },
      ),
      LatencySliSchema,
    ]),
    target: Type.Number({ examples: [99.9] }),
    window_days: Type.Integer({ examples: [30] }),
    alerting: Type.Object(
      { enabled: Type.Boolean(), fast: BurnConditionSchema, slow: BurnConditionSchema },
      { additionalProperties: false },
    ),
    channel_ids: Type.Array(Uuid),
    state: Type.Enum(SLO_STATES, {
      description: "From the last evaluation of the burn-rate alerts.",
      examples: ["ok"],
    }),
    state_since: Timestamp,
    last_evaluated_at: Type.Union([Timestamp, Type.Null()]),
    page: Type.String({
      description: "The SLO's page in the dashboard, a path under PUBLIC_URL.",
      examples: ["/projects/shop/slos/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"],
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type Slo = Static<typeof SloSchema>;

export const SlosQuerySchema = Type.Object(
  {
    app: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "SLOs covering this app (slug).",
        examples: ["checkout-api"],
      }),
    ),
    method: Type.Optional(
      Type.String({
        maxLength: 16,
        description: "With `route`: SLOs covering this endpoint.",
        examples: ["POST"],
      }),
    ),
    route: Type.Optional(Type.String({ maxLength: 1000, examples: ["/orders"] })),
    consumer: Type.Optional(
      Type.String({
        maxLength: 256,
        description: "SLOs covering this consumer's requests.",
        examples: ["customer-42"],
      }),
    ),
    include_status: Type.Optional(
      Type.Boolean({
        default: false,
        description: "Add each SLO's current status (one events-store read).",
        examples: [true],
      }),
    ),
  },
  { additionalProperties: false },
);
export type SlosQuery = Static<typeof SlosQuerySchema>;

export const BurnRateSchema = Type.Object(
  {
    minutes: Type.Integer({ examples: [60] }),
    requests: Type.Integer({ minimum: 0, examples: [1200] }),
    bad: Type.Integer({ minimum: 0, examples: [3] }),
    burn_rate: Type.Union([Type.Number(), Type.Null()], {
      description: "The bad share divided by the allowed share (1 − target); null without requests.",
      examples: [2.5],
    }),
  },
  { additionalProperties: false },
);
export type BurnRate = Static<typeof BurnRateSchema>;

export const BadRequestsFilterSchema = Type.Object(
  {
    query: Type.Record(Type.String(), Type.String(), {
      description:
        "Parameters of the request search (`GET …/data/requests`), as its query string takes them.",
    }),
    api_path: Type.String({
      examples: ["/api/v1/projects/shop/data/requests?app_slugs=checkout&status_classes=5xx"],
    }),
    dashboard_path: Type.String({
      description: "The dashboard's Requests page with the same filter, a path under PUBLIC_URL.",
      examples: ["/projects/shop/requests?app=checkout&status=5xx"],
    }),
    exact: Type.Boolean({
      description:
        "False when the search cannot express the whole scope (a group of endpoints, a consumer group) " +
        "and shows a superset of the failing requests.",
    }),
  },
  { additionalProperties: false, description: "The requests that spent the budget, as a request search." },
);
export type BadRequestsFilter = Static<typeof BadRequestsFilterSchema>;

export const SloStatusSchema = Type.Object(
  {
    slo_id: Uuid,
    window_start: Timestamp,
    window_end: Timestamp,
    requests: Type.Integer({ minimum: 0, examples: [100000] }),
    bad: Type.Integer({ minimum: 0, examples: [40] }),
    attainment: Type.Union([Type.Number(), Type.Null()], {
      description: "Percent of good requests in the window; null without requests.",
      examples: [99.96],
    }),
    meeting: Type.Union([Type.Boolean(), Type.Null()], { description: "attainment >= target." }),
    error_budget: Type.Object(
      {
        allowed_bad: Type.Number({ description: "requests × (1 − target)", examples: [100] }),
        remaining: Type.Union([Type.Number(), Type.Null()], {
          description: "Percent of the budget left (negative once overspent); null without requests.",
          examples: [60],
        }),
      },
      { additionalProperties: false },
    ),
    burn_rates: Type.Array(BurnRateSchema, { description: "Over the last 5, 30, 60 and 360 minutes." }),
    state: Type.Enum(SLO_STATES),
    bad_requests: BadRequestsFilterSchema,
  },
  { additionalProperties: false },
);
export type SloStatus = Static<typeof SloStatusSchema>;

export const SloWithStatusSchema = Type.Object(
  { slo: SloSchema, status: Type.Union([SloStatusSchema, Type.Null()]) },
  { additionalProperties: false },
);
export type SloWithStatus = Static<typeof SloWithStatusSchema>;

export const SloBurnDownSchema = Type.Object(
  {
    slo_id: Uuid,
    window_start: Timestamp,
    window_end: Timestamp,
    allowed_bad: Type.Number({ examples: [100] }),
    days: Type.Array(
      Type.Object(
        {
          date: Type.String({ format: "date", description: "UTC day.", examples: ["2026-03-29"] }),
          requests: Type.Integer({ minimum: 0 }),
          bad: Type.Integer({ minimum: 0 }),
          budget_spent: Type.Union([Type.Number(), Type.Null()], {
            description:
              "Percent of the window's budget this day spent; null without requests in the window.",
          }),
          budget_remaining: Type.Union([Type.Number(), Type.Null()], {
            description: "Percent of the budget left at the end of the day.",
          }),
          burn_rate: Type.Union([Type.Number(), Type.Null()], { description: "The day's burn rate." }),
        },
        { additionalProperties: false },
      ),
      { description: "Oldest first; the first and last day are partial when the window is." },
    ),
  },
  { additionalProperties: false },
);
export type SloBurnDown = Static<typeof SloBurnDownSchema>;

export const SloEventSchema = Type.Object(
  {
    id: Uuid,
    from_state: Type.Enum(SLO_STATES),
    to_state: Type.Enum(SLO_STATES),
    reason: Type.Enum(["evaluation", "slo_changed"]),
    long_burn_rate: Type.Union([Type.Number(), Type.Null()], { examples: [16.2] }),
    short_burn_rate: Type.Union([Type.Number(), Type.Null()], { examples: [20] }),
    long_window_minutes: Type.Integer({ examples: [60] }),
    short_window_minutes: Type.Integer({ examples: [5] }),
    threshold: Type.Number({ description: "The burn rate the condition compares with.", examples: [14.4] }),
    window_end: Timestamp,
    notifications: Type.Array(NotificationOutcomeSchema),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type SloEvent = Static<typeof SloEventSchema>;

export const SloEventsPageSchema = Type.Object(
  {
    items: Type.Array(SloEventSchema),
    total_count: Type.Integer({ minimum: 0 }),
    page: Type.Integer({ minimum: 1 }),
    page_size: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);
export type SloEventsPage = Static<typeof SloEventsPageSchema>;
