// Wire shapes of uptime checks: an HTTP check Sightline runs on a schedule (URL, method, headers,
// interval, timeout, what a good answer is), its state and uptime percentages, its results, and
// the alert attached to it (after N consecutive failures, to the project's channels).
import { type Static, Type } from "typebox";

const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });
const NullableTimestamp = (description: string) =>
  Type.Union([Timestamp, Type.Null()], { description, examples: [null] });

export const UPTIME_LIMITS = {
  checksPerProject: 100,
  minIntervalSeconds: 30,
  maxIntervalSeconds: 86_400,
  minTimeoutMs: 100,
  maxTimeoutMs: 30_000,
  maxHeaders: 20,
  maxFailureThreshold: 20,
  channelsPerCheck: 20,
  maxBodyTextLength: 1_000,
  /** How much of an answer's body is read when looking for `body_contains`. */
  maxBodyBytes: 64 * 1024,
} as const;

export const UPTIME_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type UptimeMethod = (typeof UPTIME_METHODS)[number];

/** `unknown` until the first result; `down` after `failure_threshold` consecutive failures. */
export const UPTIME_STATES = ["unknown", "up", "down"] as const;
export type UptimeState = (typeof UPTIME_STATES)[number];

const Name = Type.String({ minLength: 1, maxLength: 100, examples: ["Public API health"] });
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    "An absolute http(s) URL. Loopback, link-local and private addresses are refused, when saved and " +
    "again at every check after name resolution, unless ALERTS_ALLOW_PRIVATE_TARGETS is set.",
  examples: ["https://api.example.com/health"],
});
const Headers = Type.Record(
  Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$" }),
  Type.String({ maxLength: 2000 }),
  {
    maxProperties: UPTIME_LIMITS.maxHeaders,
    // A name outside the token pattern is refused here, not at the first run.
    additionalProperties: false,
    description: "Request headers sent with every check (stored as given; visible to the project's members).",
    examples: [{ accept: "application/json" }],
  },
);
const IntervalSeconds = (extra: { default?: number } = {}) =>
  Type.Integer({
    ...extra,
    minimum: UPTIME_LIMITS.minIntervalSeconds,
    maximum: UPTIME_LIMITS.maxIntervalSeconds,
    examples: [60],
  });
const TimeoutMs = (extra: { default?: number } = {}) =>
  Type.Integer({
    ...extra,
    minimum: UPTIME_LIMITS.minTimeoutMs,
    maximum: UPTIME_LIMITS.maxTimeoutMs,
    description: "Deadline of one check, answer included (at most the interval).",
    examples: [10_000],
  });
const ExpectedStatus = (extra: { default?: number } = {}) =>
  Type.Integer({ ...extra, minimum: 100, maximum: 599, examples: [200] });
const BodyContains = Type.Union(
  [Type.String({ minLength: 1, maxLength: UPTIME_LIMITS.maxBodyTextLength }), Type.Null()],
  {
    description: `Text the answer's body must contain (within its first ${UPTIME_LIMITS.maxBodyBytes} bytes); null: any body.`,
    examples: ['"status":"ok"'],
  },
);
const FailureThreshold = (extra: { default?: number } = {}) =>
  Type.Integer({
    ...extra,
    minimum: 1,
    maximum: UPTIME_LIMITS.maxFailureThreshold,
    description: "Consecutive failed checks that mark the check down and fire its alert.",
    examples: [3],
  });
const ChannelIds = Type.Array(Uuid, {
  maxItems: UPTIME_LIMITS.channelsPerCheck,
  uniqueItems: true,
  description: "Notification channels told when the check goes down and when it recovers.",
});

export const CreateUptimeCheckBodySchema = Type.Object(
  {
    name: Name,
    url: Url,
    method: Type.Optional(Type.Enum(UPTIME_METHODS, { default: "GET", examples: ["GET"] })),
    headers: Type.Optional(Headers),
    interval_seconds: Type.Optional(IntervalSeconds({ default: 60 })),
    timeout_ms: Type.Optional(TimeoutMs({ default: 10_000 })),
    expected_status: Type.Optional(ExpectedStatus({ default: 200 })),
    body_contains: Type.Optional(BodyContains),
    failure_threshold: Type.Optional(FailureThreshold({ default: 3 })),
    channel_ids: Type.Optional(ChannelIds),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateUptimeCheckBody = Static<typeof CreateUptimeCheckBodySchema>;

export const UpdateUptimeCheckBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(Url),
    method: Type.Optional(Type.Enum(UPTIME_METHODS)),
    headers: Type.Optional(Headers),
    interval_seconds: Type.Optional(IntervalSeconds()),
    timeout_ms: Type.Optional(TimeoutMs()),
    expected_status: Type.Optional(ExpectedStatus()),
    body_contains: Type.Optional(BodyContains),
    failure_threshold: Type.Optional(FailureThreshold()),
    channel_ids: Type.Optional(ChannelIds),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateUptimeCheckBody = Static<typeof UpdateUptimeCheckBodySchema>;

const Percent = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
  description: "Share of successful checks in the window, in percent; null without any result.",
  examples: [99.93],
});

export const UptimePercentagesSchema = Type.Object(
  { last_24h: Percent, last_7d: Percent, last_30d: Percent },
  { additionalProperties: false },
);
export type UptimePercentages = Static<typeof UptimePercentagesSchema>;

export const UptimeCheckSchema = Type.Object(
  {
    id: Uuid,
    name: Name,
    url: Type.String({ examples: ["https://api.example.com/health"] }),
    method: Type.Enum(UPTIME_METHODS, { examples: ["GET"] }),
    headers: Headers,
    interval_seconds: Type.Integer({ examples: [60] }),
    timeout_ms: Type.Integer({ examples: [10_000] }),
    expected_status: Type.Integer({ examples: [200] }),
    body_contains: Type.Union([Type.String(), Type.Null()], { examples: [null] }),
    failure_threshold: Type.Integer({ examples: [3] }),
    channel_ids: Type.Array(Uuid),
    enabled: Type.Boolean(),
    state: Type.Enum(UPTIME_STATES, { examples: ["up"] }),
    state_since: NullableTimestamp("When the check entered its state (null while unknown)."),
    consecutive_failures: Type.Integer({ minimum: 0, examples: [0] }),
    last_checked_at: NullableTimestamp("When the last check ran."),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: "Why the last check failed; null when it succeeded.",
      examples: [null],
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type UptimeCheck = Static<typeof UptimeCheckSchema>;

export const UptimeCheckWithUptimeSchema = Type.Object(
  { check: UptimeCheckSchema, uptime: UptimePercentagesSchema },
  { additionalProperties: false },
);
export type UptimeCheckWithUptime = Static<typeof UptimeCheckWithUptimeSchema>;

export const UptimeResultSchema = Type.Object(
  {
    timestamp: Timestamp,
    ok: Type.Boolean(),
    status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: "The answer's status; null when no answer came.",
      examples: [200],
    }),
    latency_ms: Type.Number({ minimum: 0, examples: [84.2] }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: "Why the check failed (no answer, wrong status, body text missing, timeout).",
      examples: [null],
    }),
  },
  { additionalProperties: false },
);
export type UptimeResult = Static<typeof UptimeResultSchema>;

export const UptimeResultsQuerySchema = Type.Object(
  {
    since: Type.Optional(Timestamp),
    until: Type.Optional(Timestamp),
    failures_only: Type.Optional(Type.Boolean({ default: false })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 200 })),
  },
  { additionalProperties: false },
);
export type UptimeResultsQuery = Static<typeof UptimeResultsQuerySchema>;

export const UptimeResultsSchema = Type.Object(
  {
    items: Type.Array(UptimeResultSchema, { description: "Newest first." }),
  },
  { additionalProperties: false },
);
export type UptimeResults = Static<typeof UptimeResultsSchema>;
