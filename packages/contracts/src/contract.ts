// Wire shapes of the live API contract: the OpenAPI document inferred from an app's traffic per
// environment, its versions and the classified changes between them with the consumers each
// affects, the declared document a team uploads, and the declared-vs-observed report.
import { type Static, Type } from "typebox";

const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });

export const CONTRACT_LIMITS = {
  /** Largest declared document accepted (JSON or YAML text). */
  declaredDocumentBytes: 1_048_576,
  /** Consumers listed per change (the total is always given). */
  consumersPerChange: 100,
  /** Changes and versions per page. */
  pageSize: 100,
} as const;

/** Every kind of change, in the order of the README's rule table. */
export const CONTRACT_CHANGE_KINDS = [
  "operation_removed",
  "operation_added",
  "path_param_type_changed",
  "query_param_required",
  "query_param_added",
  "query_param_removed",
  "request_body_required",
  "request_field_required",
  "request_field_added",
  "request_field_removed",
  "request_field_type_changed",
  "response_field_removed",
  "response_field_optional",
  "response_field_type_changed",
  "response_field_added",
  "enum_value_removed",
  "enum_value_added",
  "enum_inferred",
  "status_added",
  "status_removed",
  "content_type_added",
  "content_type_removed",
] as const;
export type ContractChangeKind = (typeof CONTRACT_CHANGE_KINDS)[number];

/** An OpenAPI document (3.1 when inferred; 3.0 or 3.1 when declared). */
export const OpenApiDocumentSchema = Type.Object(
  { openapi: Type.String({ examples: ["3.1.0"] }) },
  { additionalProperties: true, description: "An OpenAPI document." },
);

export const ContractScopeQuerySchema = Type.Object(
  {
    app: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "The app's slug.",
      examples: ["checkout"],
    }),
    environment: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "The environment the traffic came from.",
      examples: ["production"],
    }),
  },
  { additionalProperties: false },
);
export type ContractScopeQuery = Static<typeof ContractScopeQuerySchema>;

export const ContractDocumentQuerySchema = Type.Object(
  {
    ...ContractScopeQuerySchema.properties,
    format: Type.Optional(
      Type.Union([Type.Literal("json"), Type.Literal("yaml")], {
        description: "json (default) or yaml (served as application/yaml).",
        examples: ["yaml"],
      }),
    ),
    version: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "A stored version; the latest by default.",
        examples: [3],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ContractDocumentQuery = Static<typeof ContractDocumentQuerySchema>;

export const ContractVersionSchema = Type.Object(
  {
    id: Uuid,
    app: Type.String({ examples: ["checkout"] }),
    environment: Type.String({ examples: ["production"] }),
    version: Type.Integer({ minimum: 1, examples: [3] }),
    created_at: Timestamp,
    operations: Type.Integer({ minimum: 0, examples: [32] }),
    changes: Type.Integer({ minimum: 0, description: "Changes from the previous version.", examples: [2] }),
    breaking_changes: Type.Integer({ minimum: 0, examples: [1] }),
  },
  { additionalProperties: false },
);
export type ContractVersion = Static<typeof ContractVersionSchema>;

export const ContractConsumerSchema = Type.Object(
  {
    consumer_id: Type.String({ description: "Empty for calls without a consumer.", examples: ["acme"] }),
    consumer_name: Type.String({ examples: ["Acme Corp"] }),
    requests: Type.Integer({ minimum: 0, examples: [1204] }),
  },
  { additionalProperties: false },
);

export const ContractChangeFieldsSchema = Type.Object(
  {
    kind: Type.Enum(CONTRACT_CHANGE_KINDS, { examples: ["response_field_removed"] }),
    breaking: Type.Boolean({ examples: [true] }),
    method: Type.String({ examples: ["GET"] }),
    path: Type.String({ examples: ["/v1/orders/{id}"] }),
    location: Type.Enum(["operation", "path", "query", "request", "response"], { examples: ["response"] }),
    status: Type.Union([Type.String(), Type.Null()], {
      description: "Response status, for response changes.",
      examples: ["200"],
    }),
    field: Type.Union([Type.String(), Type.Null()], {
      description: "Parameter name, or the field's place in the body (`*` for any array item).",
      examples: ["/items/*/sku"],
    }),
    detail: Type.String({ examples: ["response field /items/*/sku is no longer returned"] }),
  },
  { additionalProperties: false },
);

export const ContractChangeSchema = Type.Object(
  {
    id: Uuid,
    app: Type.String({ examples: ["checkout"] }),
    environment: Type.String({ examples: ["production"] }),
    version: Type.Integer({ minimum: 1, examples: [3] }),
    created_at: Timestamp,
    ...ContractChangeFieldsSchema.properties,
    consumers: Type.Array(ContractConsumerSchema, {
      description: "Consumers whose calls the change affects in the look-back window, most requests first.",
    }),
    consumers_total: Type.Integer({ minimum: 0, examples: [3] }),
    window_days: Type.Integer({ minimum: 1, examples: [7] }),
  },
  { additionalProperties: false },
);
export type ContractChange = Static<typeof ContractChangeSchema>;

export const ContractChangesQuerySchema = Type.Object(
  {
    app: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ["checkout"] })),
    environment: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ["production"] })),
    breaking: Type.Optional(
      Type.Boolean({ description: "Only breaking (true) or non-breaking (false).", examples: [true] }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: CONTRACT_LIMITS.pageSize, examples: [50] })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, examples: [0] })),
  },
  { additionalProperties: false },
);
export type ContractChangesQuery = Static<typeof ContractChangesQuerySchema>;

export const ContractChangesPageSchema = Type.Object(
  {
    data: Type.Array(ContractChangeSchema),
    total: Type.Integer({ minimum: 0, examples: [12] }),
  },
  { additionalProperties: false },
);

export const ContractDiffQuerySchema = Type.Object(
  {
    ...ContractScopeQuerySchema.properties,
    from: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: "The earlier version.",
      examples: [2],
    }),
    to: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "The later version; the latest by default.",
        examples: [3],
      }),
    ),
  },
  { additionalProperties: false },
);
export type ContractDiffQuery = Static<typeof ContractDiffQuerySchema>;

export const ContractDiffSchema = Type.Object(
  {
    from: Type.Integer({ examples: [2] }),
    to: Type.Integer({ examples: [3] }),
    changes: Type.Array(ContractChangeFieldsSchema),
  },
  { additionalProperties: false },
);

export const DeclaredDocumentQuerySchema = Type.Object(
  { app: Type.String({ minLength: 1, maxLength: 100, examples: ["checkout"] }) },
  { additionalProperties: false },
);

export const DeclaredDocumentSchema = Type.Object(
  {
    app: Type.String({ examples: ["checkout"] }),
    openapi: Type.String({ examples: ["3.1.0"] }),
    title: Type.String({ examples: ["Checkout API"] }),
    operations: Type.Integer({ minimum: 0, examples: [30] }),
    size_bytes: Type.Integer({ minimum: 0, examples: [48213] }),
    uploaded_at: Timestamp,
    document: OpenApiDocumentSchema,
  },
  { additionalProperties: false },
);
export type DeclaredDocument = Static<typeof DeclaredDocumentSchema>;

export const DeclaredDiffQuerySchema = Type.Object(
  {
    ...ContractScopeQuerySchema.properties,
    version: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "The inferred version to compare; the latest by default.",
        examples: [3],
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeclaredDiffQuery = Static<typeof DeclaredDiffQuerySchema>;

export const DeclaredDifferenceSchema = Type.Object(
  {
    ...ContractChangeFieldsSchema.properties,
    consumers: Type.Array(ContractConsumerSchema, {
      description:
        "Consumers whose calls the difference affects in the look-back window, most requests first: the " +
        "operation's callers; for a status, those answered with it; for a field, those whose body carried " +
        "it — or, for a declared field the traffic leaves out, those whose body lacked it.",
    }),
    consumers_total: Type.Integer({ minimum: 0, examples: [3] }),
  },
  { additionalProperties: false },
);
export type DeclaredDifference = Static<typeof DeclaredDifferenceSchema>;

export const DeclaredDiffSchema = Type.Object(
  {
    app: Type.String({ examples: ["checkout"] }),
    environment: Type.String({ examples: ["production"] }),
    version: Type.Integer({ minimum: 1, description: "The inferred version compared.", examples: [3] }),
    declared_uploaded_at: Timestamp,
    window_days: Type.Integer({ minimum: 1, examples: [7] }),
    total: Type.Integer({ minimum: 0, description: "Differences found.", examples: [4] }),
    breaking: Type.Integer({ minimum: 0, description: "Breaking differences found.", examples: [2] }),
    differences: Type.Array(DeclaredDifferenceSchema, {
      description: `Breaking first; at most ${CONTRACT_LIMITS.pageSize} listed (\`total\` counts all).`,
    }),
  },
  { additionalProperties: false },
);
export type DeclaredDiff = Static<typeof DeclaredDiffSchema>;

const OperationRefSchema = Type.Object(
  {
    method: Type.String({ examples: ["GET"] }),
    path: Type.String({ examples: ["/v1/orders/{id}"] }),
    requests: Type.Integer({ minimum: 0, description: "Calls in the look-back window.", examples: [4210] }),
  },
  { additionalProperties: false },
);

export const ConformanceSchema = Type.Object(
  {
    method: Type.String({ examples: ["POST"] }),
    path: Type.String({ examples: ["/v1/orders"] }),
    sampled_requests: Type.Integer({ minimum: 0, examples: [200] }),
    failing_requests: Type.Integer({ minimum: 0, examples: [3] }),
    sampled_responses: Type.Integer({ minimum: 0, examples: [200] }),
    failing_responses: Type.Integer({ minimum: 0, examples: [0] }),
    failures: Type.Array(
      Type.Object(
        {
          part: Type.String({ description: "`request` or the response status.", examples: ["request"] }),
          pointer: Type.String({
            description: "JSON pointer of the failing place (never its value).",
            examples: ["/items/0/quantity"],
          }),
          keyword: Type.String({ examples: ["type"] }),
          count: Type.Integer({ minimum: 1, examples: [3] }),
        },
        { additionalProperties: false },
      ),
      { description: "The worst failing places, most frequent first." },
    ),
  },
  { additionalProperties: false },
);

export const ContractReportQuerySchema = Type.Object(
  {
    ...ContractScopeQuerySchema.properties,
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 90, description: "Look-back window (default 7).", examples: [7] }),
    ),
  },
  { additionalProperties: false },
);
export type ContractReportQuery = Static<typeof ContractReportQuerySchema>;

export const ContractReportSchema = Type.Object(
  {
    app: Type.String({ examples: ["checkout"] }),
    environment: Type.String({ examples: ["production"] }),
    window_days: Type.Integer({ examples: [7] }),
    undocumented: Type.Array(OperationRefSchema, { description: "Seen in traffic, not declared (shadow)." }),
    unused: Type.Array(OperationRefSchema, { description: "Declared, not seen in the window (zombie)." }),
    conformance: Type.Array(ConformanceSchema),
  },
  { additionalProperties: false },
);
export type ContractReport = Static<typeof ContractReportSchema>;

export const CONTRACT_ALERT_SEVERITIES = ["breaking", "all"] as const;
export type ContractAlertSeverity = (typeof CONTRACT_ALERT_SEVERITIES)[number];

export const CONTRACT_ALERT_LIMITS = { rulesPerProject: 50, channelsPerRule: 20 } as const;

export const ContractAlertRuleSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["Breaking API changes"] }),
    app: Type.Union([Type.String(), Type.Null()], {
      description: "Null: every app.",
      examples: ["checkout"],
    }),
    environment: Type.Union([Type.String(), Type.Null()], {
      description: "Null: every environment.",
      examples: ["production"],
    }),
    severity: Type.Enum(CONTRACT_ALERT_SEVERITIES, {
      description:
        "`breaking`: only versions with a breaking change notify; `all`: every new version with changes.",
      examples: ["breaking"],
    }),
    channel_ids: Type.Array(Uuid),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type ContractAlertRule = Static<typeof ContractAlertRuleSchema>;

export const CreateContractAlertRuleBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, examples: ["Breaking API changes"] }),
    app: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ["checkout"] })),
    environment: Type.Optional(Type.String({ minLength: 1, maxLength: 100, examples: ["production"] })),
    severity: Type.Optional(Type.Enum(CONTRACT_ALERT_SEVERITIES, { examples: ["breaking"] })),
    channel_ids: Type.Array(Uuid, { minItems: 1, maxItems: CONTRACT_ALERT_LIMITS.channelsPerRule }),
  },
  { additionalProperties: false },
);
export type CreateContractAlertRuleBody = Static<typeof CreateContractAlertRuleBodySchema>;
