// Wire shapes of a project's retention (docs/adr/0023): how many days each kind of raw record and
// the analytics rollups are kept, bounded by the server's variables, which are also a new
// project's values.
import { type Static, Type } from "typebox";

/** What a project sets its own retention for: each kind of raw record, and the rollups. */
export const RETENTION_KINDS = ["requests", "logs", "spans", "rollups"] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Bounds of the retention variables; rollups may be kept up to 25 months. */
export const RETENTION_LIMITS = { maxRawDays: 3650, maxRollupDays: 762 } as const;

const Days = (description: string, example: number) =>
  Type.Integer({ minimum: 1, maximum: RETENTION_LIMITS.maxRawDays, description, examples: [example] });
const RollupDays = (description: string, example: number) =>
  Type.Integer({ minimum: 1, maximum: RETENTION_LIMITS.maxRollupDays, description, examples: [example] });

export const ProjectRetentionSchema = Type.Object(
  {
    requests_days: Days("Days a request record (with its payloads) is kept.", 14),
    logs_days: Days("Days a log record is kept.", 14),
    spans_days: Days("Days a span is kept.", 7),
    rollups_days: RollupDays(
      "Days the analytics rollups are kept, and how far back analytics reach. Overview figures, the " +
        "errors breakdown and the endpoint and consumer lists keep working from them after raw " +
        "records have expired.",
      400,
    ),
    max: Type.Object(
      {
        requests_days: Days("The server's maximum (`REQUESTS_RETENTION_DAYS`), a new project's value.", 90),
        logs_days: Days("The server's maximum (`LOGS_RETENTION_DAYS`), a new project's value.", 30),
        spans_days: Days("The server's maximum (`SPANS_RETENTION_DAYS`), a new project's value.", 30),
        rollups_days: RollupDays(
          "The server's maximum (`ROLLUPS_RETENTION_DAYS`), a new project's value.",
          400,
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description:
      "Days kept per kind of record. Each raw record and rollup row keeps the retention in force when " +
      "it was stored: shortening hides older records (and analytics older than the rollup days) at " +
      "once and they are deleted when their own retention ends; lengthening applies to what is " +
      "stored from now on.",
  },
);
export type ProjectRetention = Static<typeof ProjectRetentionSchema>;

const SetDays = (kind: string, maximum: number = RETENTION_LIMITS.maxRawDays, example = 14) =>
  Type.Integer({
    minimum: 1,
    maximum,
    description: `Days to keep ${kind}; at most the server's maximum (\`max\`).`,
    examples: [example],
  });

export const UpdateProjectRetentionBodySchema = Type.Object(
  {
    requests_days: Type.Optional(SetDays("request records")),
    logs_days: Type.Optional(SetDays("log records")),
    spans_days: Type.Optional(SetDays("spans")),
    rollups_days: Type.Optional(SetDays("the analytics rollups", RETENTION_LIMITS.maxRollupDays, 365)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateProjectRetentionBody = Static<typeof UpdateProjectRetentionBodySchema>;

/** What a records page says about the window it was asked for (requests and logs lists). */
export const RawRetentionSchema = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      description: "Days this project keeps these raw records.",
      examples: [14],
    }),
    beyond: Type.Boolean({
      description:
        "True when the window asked for starts before the oldest kept record: older records were " +
        "deleted, so the page cannot list them (analytics still cover that time from rollups).",
    }),
  },
  { additionalProperties: false },
);
export type RawRetention = Static<typeof RawRetentionSchema>;
