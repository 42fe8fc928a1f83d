// Wire shapes of alerting: rules on a project's traffic, their state and history, the channels
// notifications go to, and the outcome of a test notification. Limits the server enforces live here.
import { type Static, Type } from "typebox";
import { ANOMALY_DIRECTIONS, ANOMALY_METRICS, ANOMALY_SENSITIVITIES } from "./vocabulary.js";

const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });
const NullableTimestamp = (description: string) =>
  Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description, examples: [null] });
const Name = Type.String({ minLength: 1, maxLength: 100, examples: ["Checkout failing"] });

export const ALERT_LIMITS = {
  rulesPerProject: 200,
  channelsPerProject: 50,
  channelsPerRule: 20,
  addressesPerChannel: 20,
  minWindowSeconds: 60,
  maxWindowSeconds: 86_400,
  maxForEvaluations: 1_440,
  maxUrlLength: 2_000,
  /** `POST …/alerts/{id}/test` calls per user, and per project, in one minute (429 beyond). */
  testSendsPerUserPerMinute: 5,
  testSendsPerProjectPerMinute: 10,
  /** Points one band chart request may ask for (`(until - since) / window_seconds`). */
  maxBandPoints: 1_500,
  /** `silence` rules: the shortest silence that can fire (the SDK beats every minute). */
  minSilenceSeconds: 120,
} as const;

export const ALERT_METRICS = [
  "error_rate",
  "p95_latency_ms",
  "p99_latency_ms",
  "request_count",
  "status_count",
  "silent_minutes",
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

/**
 * `threshold`: compare with a fixed value; `anomaly`: compare with a seasonal baseline (ADR 0020);
 * `silence`: no heartbeat from the scope's apps for the window (ADR 0022).
 */
export const ALERT_RULE_KINDS = ["threshold", "anomaly", "silence"] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

/** Where a value stood against an anomaly rule's band. */
export const ANOMALY_STATUSES = ["warming_up", "low_volume", "normal", "above", "below"] as const;
export type AnomalyStatus = (typeof ANOMALY_STATUSES)[number];

export const ALERT_COMPARATORS = ["gt", "gte", "lt", "lte"] as const;
export type AlertComparator = (typeof ALERT_COMPARATORS)[number];

export const ALERT_STATES = ["ok", "pending", "firing"] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const CHANNEL_TYPES = ["email", "webhook", "slack"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** `503` for one status code, `5xx` for a class. */
export const STATUS_SELECTOR_PATTERN = "^[1-5](?:[0-9]{2}|xx)$";

const MetricSchema = Type.Enum(ALERT_METRICS, {
  description:
    "`error_rate`: % of requests counted as errors (see `error_status_from`); `p95_latency_ms` / " +
    "`p99_latency_ms`: response-time percentiles; `request_count`: requests in the window (use `lt` 1 for " +
    "no traffic); `status_count`: requests with the status code or class in `status`; `silent_minutes` " +
    "(`silence` rules only): minutes since the scope's newest heartbeat.",
  examples: ["error_rate"],
});
const ComparatorSchema = Type.Enum(ALERT_COMPARATORS, {
  description:
    "How the observed value is compared with `threshold`: >, >=, <, <=. Required for `threshold` rules.",
  examples: ["gt"],
});
const ThresholdSchema = Type.Number({
  minimum: 0,
  maximum: 1e12,
  description:
    "Percent for `error_rate`, milliseconds for latencies, a count otherwise. Required for `threshold` rules.",
  examples: [5],
});
const WindowSchema = Type.Integer({
  minimum: ALERT_LIMITS.minWindowSeconds,
  maximum: ALERT_LIMITS.maxWindowSeconds,
  description:
    "Length of the evaluated window in seconds: 60 (1 minute) to 86400 (24 hours). For `silence` rules, " +
    "how long the scope must have sent no heartbeat: whole minutes, 120 or more.",
  examples: [300],
});
const ErrorStatusFromSchema = Type.Union([Type.Literal(400), Type.Literal(500)], {
  description: "`error_rate` only: count requests with status >= 400, or >= 500 (default).",
  examples: [500],
});
const StatusSelectorSchema = Type.String({
  pattern: STATUS_SELECTOR_PATTERN,
  description: "`status_count` only: a status code (`503`) or a class (`5xx`).",
  examples: ["5xx"],
});
const MinRequestsSchema = Type.Integer({
  minimum: 0,
  maximum: 1_000_000_000,
  description:
    "Below this many requests in the window the rule does not fire (so 1 failure of 2 pages nobody). " +
    "Not used by `request_count`.",
  examples: [20],
});
const ForSchema = Type.Integer({
  minimum: 1,
  maximum: ALERT_LIMITS.maxForEvaluations,
  description: "Consecutive evaluations the condition must hold before the rule fires (1 = at once).",
  examples: [3],
});
const MutedUntilSchema = Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
  description: "Until this time the rule is evaluated and its history kept, but nobody is notified.",
  examples: [null],
});
const KindSchema = Type.Enum(ALERT_RULE_KINDS, {
  description:
    "`threshold` (default): fires when the metric crosses `threshold`. `anomaly`: fires when the metric " +
    "leaves the band around its seasonal baseline (same time of week over the last 4 weeks, scaled to the " +
    "last 2 hours' level); needs no threshold. Anomaly rules take `request_count`, `error_rate` or " +
    "`p95_latency_ms` and a window of 60, 120, 300, 600, 900, 1800 or 3600 seconds. `silence`: fires " +
    "when no heartbeat of the scope (project: any of its apps; app; app and environment) arrived for " +
    "`window_seconds` (whole minutes, at least 120); takes metric `silent_minutes` and no endpoint, " +
    "threshold or anomaly settings.",
  examples: ["threshold"],
});
const SensitivitySchema = Type.Enum(ANOMALY_SENSITIVITIES, {
  description:
    "`anomaly` only: how wide the band is — `high` 4, `medium` (default) 5, `low` 6.5 noise units " +
    "either side of the expected value.",
  examples: ["medium"],
});
const DirectionSchema = Type.Enum(ANOMALY_DIRECTIONS, {
  description:
    "`anomaly` only: which side of the band fires. Default `up` for error_rate and p95_latency_ms, " +
    "`both` for request_count.",
  examples: ["both"],
});

const ChannelIdsSchema = Type.Array(Uuid, {
  maxItems: ALERT_LIMITS.channelsPerRule,
  uniqueItems: true,
  description: "Notification channels of the project that hear about this rule.",
});

const EndpointSchema = Type.Object(
  {
    method: Type.String({ pattern: "^[A-Za-z]{1,16}$", examples: ["GET"] }),
    route: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: "^/",
      description: "The route template as recorded by the SDK.",
      examples: ["/users/{id}"],
    }),
  },
  { additionalProperties: false },
);

const ScopeInputSchema = Type.Object(
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
    endpoint: Type.Optional(
      Type.Union([EndpointSchema, Type.Null()], { description: "Method and route template (needs `app`)." }),
    ),
  },
  { additionalProperties: false },
);
export type AlertScopeInput = Static<typeof ScopeInputSchema>;

const ruleFields = {
  kind: KindSchema,
  sensitivity: SensitivitySchema,
  direction: DirectionSchema,
  name: Name,
  enabled: Type.Boolean({ default: true, examples: [true] }),
  scope: ScopeInputSchema,
  metric: MetricSchema,
  error_status_from: ErrorStatusFromSchema,
  status: StatusSelectorSchema,
  comparator: ComparatorSchema,
  threshold: ThresholdSchema,
  window_seconds: WindowSchema,
  min_requests: MinRequestsSchema,
  for_evaluations: ForSchema,
  muted_until: MutedUntilSchema,
  channel_ids: ChannelIdsSchema,
};

export const CreateAlertRuleBodySchema = Type.Object(
  {
    name: ruleFields.name,
    kind: Type.Optional(ruleFields.kind),
    enabled: Type.Optional(ruleFields.enabled),
    scope: Type.Optional(ruleFields.scope),
    metric: ruleFields.metric,
    error_status_from: Type.Optional(ruleFields.error_status_from),
    status: Type.Optional(ruleFields.status),
    comparator: Type.Optional(ruleFields.comparator),
    threshold: Type.Optional(ruleFields.threshold),
    sensitivity: Type.Optional(ruleFields.sensitivity),
    direction: Type.Optional(ruleFields.direction),
    window_seconds: ruleFields.window_seconds,
    min_requests: Type.Optional(ruleFields.min_requests),
    for_evaluations: Type.Optional(ruleFields.for_evaluations),
    muted_until: Type.Optional(ruleFields.muted_until),
    channel_ids: Type.Optional(ruleFields.channel_ids),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: "Checkout failing",
        scope: { app: "checkout-api", environment: "production" },
        metric: "error_rate",
        error_status_from: 500,
        comparator: "gt",
        threshold: 5,
        window_seconds: 300,
        min_requests: 20,
        for_evaluations: 2,
        channel_ids: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"],
      },
      {
        name: "Checkout traffic unusual",
        kind: "anomaly",
        scope: { app: "checkout-api", environment: "production" },
        metric: "request_count",
        sensitivity: "medium",
        direction: "both",
        window_seconds: 300,
        min_requests: 20,
        for_evaluations: 1,
      },
      {
        name: "Checkout silent",
        kind: "silence",
        scope: { app: "checkout-api", environment: "production" },
        metric: "silent_minutes",
        window_seconds: 600,
      },
    ],
  },
);
export type CreateAlertRuleBody = Static<typeof CreateAlertRuleBodySchema>;

export const UpdateAlertRuleBodySchema = Type.Object(
  {
    name: Type.Optional(ruleFields.name),
    enabled: Type.Optional(Type.Boolean({ examples: [false] })),
    scope: Type.Optional(ruleFields.scope),
    metric: Type.Optional(ruleFields.metric),
    error_status_from: Type.Optional(ruleFields.error_status_from),
    status: Type.Optional(ruleFields.status),
    comparator: Type.Optional(ruleFields.comparator),
    threshold: Type.Optional(ruleFields.threshold),
    sensitivity: Type.Optional(ruleFields.sensitivity),
    direction: Type.Optional(ruleFields.direction),
    window_seconds: Type.Optional(ruleFields.window_seconds),
    min_requests: Type.Optional(ruleFields.min_requests),
    for_evaluations: Type.Optional(ruleFields.for_evaluations),
    muted_until: Type.Optional(ruleFields.muted_until),
    channel_ids: Type.Optional(ruleFields.channel_ids),
  },
  {
    additionalProperties: false,
    description:
      "Only the fields sent change; `scope`, when sent, replaces the whole scope. The kind of a rule " +
      "does not change (delete it and create another).",
    examples: [{ threshold: 10, muted_until: "2026-11-21T08:00:00.000Z" }],
  },
);
export type UpdateAlertRuleBody = Static<typeof UpdateAlertRuleBodySchema>;

const AppRefSchema = Type.Object(
  {
    id: Uuid,
    slug: Type.String({ examples: ["checkout-api"] }),
    name: Type.String({ examples: ["Checkout"] }),
  },
  { additionalProperties: false },
);

export const AlertScopeSchema = Type.Object(
  {
    app: Type.Union([AppRefSchema, Type.Null()], { description: "Null: the whole project." }),
    environment: Type.Union([Type.String(), Type.Null()], { examples: ["production"] }),
    endpoint: Type.Union([EndpointSchema, Type.Null()]),
  },
  { additionalProperties: false },
);
export type AlertScope = Static<typeof AlertScopeSchema>;

const AnomalyBandSchema = Type.Object(
  {
    status: Type.Enum(ANOMALY_STATUSES, {
      description:
        "`warming_up`: fewer than 2 of the last 4 weeks have traffic, no baseline yet (never fires); " +
        "`low_volume`: too few requests to judge (never fires); `normal`, `above`, `below`: where the " +
        "value stood against the band.",
      examples: ["normal"],
    }),
    expected: Type.Union([Type.Number(), Type.Null()], { examples: [120] }),
    lower: Type.Union([Type.Number(), Type.Null()], { examples: [84] }),
    upper: Type.Union([Type.Number(), Type.Null()], { examples: [166] }),
    score: Type.Union([Type.Number(), Type.Null()], {
      description: "Signed distance of the value from the expected value, in noise units.",
      examples: [0.8],
    }),
    weeks_used: Type.Integer({
      minimum: 0,
      description: "Past weeks with traffic in the baseline.",
      examples: [4],
    }),
  },
  { additionalProperties: false },
);
export type AnomalyBand = Static<typeof AnomalyBandSchema>;

export const AlertRuleSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["Checkout failing"] }),
    kind: KindSchema,
    enabled: Type.Boolean(),
    scope: AlertScopeSchema,
    metric: MetricSchema,
    error_status_from: Type.Union([ErrorStatusFromSchema, Type.Null()], {
      description: "Set for `error_rate`, null otherwise.",
    }),
    status: Type.Union([StatusSelectorSchema, Type.Null()], { description: "Set for `status_count`." }),
    comparator: Type.Union([ComparatorSchema, Type.Null()], {
      description: "Null for `anomaly` and `silence` rules.",
    }),
    threshold: Type.Union([Type.Number(), Type.Null()], {
      description: "Null for `anomaly` and `silence` rules.",
      examples: [5],
    }),
    sensitivity: Type.Union([SensitivitySchema, Type.Null()], {
      description: "Set for `anomaly` rules only.",
    }),
    direction: Type.Union([DirectionSchema, Type.Null()], { description: "Set for `anomaly` rules only." }),
    window_seconds: Type.Integer({ examples: [300] }),
    min_requests: Type.Integer({ examples: [20] }),
    for_evaluations: Type.Integer({ examples: [2] }),
    muted_until: Type.Union([Timestamp, Type.Null()]),
    channel_ids: Type.Array(Uuid),
    state: Type.Enum(ALERT_STATES, { examples: ["ok"] }),
    state_since: Timestamp,
    last_evaluated_at: NullableTimestamp("When the rule was last evaluated; null before the first time."),
    last_value: Type.Union([Type.Number(), Type.Null()], {
      description: "The value observed at the last evaluation; null when it could not be computed.",
      examples: [1.2],
    }),
    last_band: Type.Union([AnomalyBandSchema, Type.Null()], {
      description:
        "`anomaly` rules: the band at the last evaluation; null before it and for `threshold` rules.",
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type AlertRule = Static<typeof AlertRuleSchema>;

export const NotificationOutcomeSchema = Type.Object(
  {
    channel_id: Type.Union([Uuid, Type.Null()], { description: "Null once the channel is deleted." }),
    channel_name: Type.String({ examples: ["On-call"] }),
    type: Type.Enum(CHANNEL_TYPES, { examples: ["webhook"] }),
    status: Type.Enum(DELIVERY_STATUSES, {
      description: "`pending` while attempts remain, `failed` after the last one.",
      examples: ["delivered"],
    }),
    attempts: Type.Integer({ minimum: 0, examples: [1] }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: "Why the last attempt failed (never a secret or a full URL).",
      examples: [null],
    }),
    next_attempt_at: NullableTimestamp("When the next attempt is due, while pending."),
    delivered_at: NullableTimestamp("When the channel accepted it."),
  },
  { additionalProperties: false },
);
export type NotificationOutcome = Static<typeof NotificationOutcomeSchema>;

export const AlertEventSchema = Type.Object(
  {
    id: Uuid,
    from_state: Type.Enum(ALERT_STATES, { examples: ["pending"] }),
    to_state: Type.Enum(ALERT_STATES, { examples: ["firing"] }),
    reason: Type.Enum(["evaluation", "rule_changed"], {
      description: "`rule_changed`: the rule was edited or disabled, which resets its state.",
      examples: ["evaluation"],
    }),
    value: Type.Union([Type.Number(), Type.Null()], { examples: [7.5] }),
    threshold: Type.Number({
      description:
        "`anomaly` rules: the edge of the band the value was compared with (`comparator` gt: upper, lt: lower).",
      examples: [5],
    }),
    comparator: ComparatorSchema,
    expected: Type.Union([Type.Number(), Type.Null()], {
      description: "`anomaly` rules: the baseline at that evaluation; null for `threshold` rules.",
      examples: [null],
    }),
    lower: Type.Union([Type.Number(), Type.Null()], {
      description: "`anomaly` rules: lower edge of the band.",
      examples: [null],
    }),
    upper: Type.Union([Type.Number(), Type.Null()], {
      description: "`anomaly` rules: upper edge of the band.",
      examples: [null],
    }),
    request_count: Type.Integer({ minimum: 0, examples: [240] }),
    window_start: Timestamp,
    window_end: Timestamp,
    muted: Type.Boolean({ description: "True when the rule was muted: nobody was notified." }),
    notifications: Type.Array(NotificationOutcomeSchema),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type AlertEvent = Static<typeof AlertEventSchema>;

export const AlertEventsQuerySchema = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1, examples: [1] })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, examples: [50] })),
  },
  { additionalProperties: false },
);
export type AlertEventsQuery = Static<typeof AlertEventsQuerySchema>;

export const AlertEventsPageSchema = Type.Object(
  {
    items: Type.Array(AlertEventSchema),
    total_count: Type.Integer({ minimum: 0, examples: [3] }),
    page: Type.Integer({ minimum: 1, examples: [1] }),
    page_size: Type.Integer({ minimum: 1, examples: [50] }),
  },
  { additionalProperties: false },
);
export type AlertEventsPage = Static<typeof AlertEventsPageSchema>;

export const AlertBandQuerySchema = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        format: "date-time",
        description: "Start of the chart; default 24 hours before `until`.",
        examples: ["2026-11-20T06:00:00.000Z"],
      }),
    ),
    until: Type.Optional(
      Type.String({
        format: "date-time",
        description: "End of the chart; default now.",
        examples: ["2026-11-21T06:00:00.000Z"],
      }),
    ),
  },
  { additionalProperties: false },
);
export type AlertBandQuery = Static<typeof AlertBandQuerySchema>;

export const AlertBandPointSchema = Type.Object(
  {
    window_start: Timestamp,
    window_end: Timestamp,
    value: Type.Union([Type.Number(), Type.Null()], { examples: [131] }),
    request_count: Type.Integer({ minimum: 0, examples: [131] }),
    ...AnomalyBandSchema.properties,
  },
  { additionalProperties: false },
);
export type AlertBandPoint = Static<typeof AlertBandPointSchema>;

export const AlertBandSchema = Type.Object(
  {
    rule_id: Uuid,
    metric: Type.Enum(ANOMALY_METRICS, { examples: ["request_count"] }),
    sensitivity: SensitivitySchema,
    direction: DirectionSchema,
    window_seconds: Type.Integer({ examples: [300] }),
    points: Type.Array(AlertBandPointSchema, {
      description: `One point per window, back to back, oldest first; at most ${ALERT_LIMITS.maxBandPoints}.`,
    }),
  },
  { additionalProperties: false },
);
export type AlertBand = Static<typeof AlertBandSchema>;

export const TestNotificationResultSchema = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          channel_id: Uuid,
          channel_name: Type.String({ examples: ["On-call"] }),
          type: Type.Enum(CHANNEL_TYPES, { examples: ["slack"] }),
          ok: Type.Boolean(),
          error: Type.Union([Type.String(), Type.Null()], { examples: [null] }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TestNotificationResult = Static<typeof TestNotificationResultSchema>;

// ---- notification channels ----

const Addresses = Type.Array(
  Type.String({ format: "email", maxLength: 254, examples: ["oncall@example.com"] }),
  {
    maxItems: ALERT_LIMITS.addressesPerChannel,
    uniqueItems: true,
    description: "`email` only: who receives the e-mails.",
  },
);
const AllMembers = Type.Boolean({
  description:
    "`email` only: every member of the project at the time of sending (instead of, or besides, `addresses`).",
  examples: [false],
});
const TargetUrl = Type.String({
  minLength: 1,
  maxLength: ALERT_LIMITS.maxUrlLength,
  description:
    "`webhook`: an http(s) URL; `slack`: the Slack incoming-webhook URL. Loopback, link-local and " +
    "private addresses are refused unless the server allows them (ALERTS_ALLOW_PRIVATE_TARGETS).",
  examples: ["https://hooks.example.com/sightline"],
});

export const CreateChannelBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, examples: ["On-call"] }),
    type: Type.Enum(CHANNEL_TYPES, { examples: ["webhook"] }),
    addresses: Type.Optional(Addresses),
    all_members: Type.Optional(AllMembers),
    url: Type.Optional(TargetUrl),
  },
  {
    additionalProperties: false,
    examples: [{ name: "On-call", type: "webhook", url: "https://hooks.example.com/sightline" }],
  },
);
export type CreateChannelBody = Static<typeof CreateChannelBodySchema>;

export const UpdateChannelBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ["On-call"] })),
    addresses: Type.Optional(Addresses),
    all_members: Type.Optional(AllMembers),
    url: Type.Optional(TargetUrl),
    rotate_secret: Type.Optional(
      Type.Boolean({
        description: "`webhook` only: replace the signing secret; the answer shows the new one, once.",
        examples: [true],
      }),
    ),
  },
  { additionalProperties: false, examples: [{ name: "Pager" }] },
);
export type UpdateChannelBody = Static<typeof UpdateChannelBodySchema>;

export const ChannelSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["On-call"] }),
    type: Type.Enum(CHANNEL_TYPES, { examples: ["webhook"] }),
    addresses: Type.Array(Type.String(), { description: "`email` only; [] otherwise." }),
    all_members: Type.Boolean(),
    url: Type.Union([Type.String(), Type.Null()], {
      description: "The target; a Slack URL is shown with its secret path masked.",
      examples: ["https://hooks.example.com/sightline"],
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type Channel = Static<typeof ChannelSchema>;

export const ChannelWithSecretSchema = Type.Object(
  {
    ...ChannelSchema.properties,
    secret: Type.Optional(
      Type.String({
        description:
          "`webhook` only, and only when created or rotated: the key of the `X-Sightline-Signature` HMAC.",
        examples: ["whsec_3q2-7wEXAMPLEd9Yx0m1aQk8s5v3N2Zr0pLw6Tt4uHcE"],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ChannelWithSecret = Static<typeof ChannelWithSecretSchema>;
