// Personal access tokens: what a user creates in their account to call the API from scripts,
// and what a token's scope lets it do on top of its owner's role in each project.
import { type Static, Type } from "typebox";
import { type Permission } from "./roles.js";

/** The token text starts with this, so logs scanners and the server can tell it apart. */
export const PERSONAL_TOKEN_PREFIX = "sl_pat_";
export const TOKEN_MAX_EXPIRY_DAYS = 365;

export const TOKEN_SCOPES = ["read", "read-write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * The permissions a read-only token keeps of its owner's role. Listed, not derived: a permission
 * added later is denied to read-only tokens until someone decides it is a read.
 */
export const READ_ONLY_PERMISSIONS: readonly Permission[] = [
  "project:read",
  "data:read",
  "alerts:read",
  "audit:read",
  "contract:read",
];

/** Whether a token of `scope` may use `permission` (its owner's role decides the rest). */
export function tokenScopeAllows(scope: TokenScope, permission: string): boolean {
  return scope === "read-write" || (READ_ONLY_PERMISSIONS as readonly string[]).includes(permission);
}

const Timestamp = (description?: string) =>
  Type.String({
    format: "date-time",
    examples: ["2026-01-15T09:30:00.000Z"],
    ...(description === undefined ? {} : { description }),
  });
const NullableTimestamp = (description: string) => Type.Union([Timestamp(), Type.Null()], { description });
const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });

const TokenName = Type.String({ minLength: 1, maxLength: 100, examples: ["nightly report script"] });
const TokenScopeSchema = Type.Enum(TOKEN_SCOPES, {
  description:
    "`read`: only the reads of your role (project, data, alerts, audit log); every write is refused. " +
    "`read-write`: everything your role may do.",
  examples: ["read"],
});

export const CreatePersonalTokenBodySchema = Type.Object(
  {
    name: TokenName,
    scope: TokenScopeSchema,
    expires_in_days: Type.Union([Type.Integer({ minimum: 1, maximum: TOKEN_MAX_EXPIRY_DAYS }), Type.Null()], {
      description: `Days until the token expires (1–${TOKEN_MAX_EXPIRY_DAYS}); null: never.`,
      examples: [90],
    }),
    project_slugs: Type.Optional(
      Type.Union([Type.Array(Type.String({ maxLength: 200 }), { minItems: 1, maxItems: 100 }), Type.Null()], {
        description:
          "Limit the token to these projects (you must belong to each); omitted or null: every project you belong to.",
        examples: [["shop"]],
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreatePersonalTokenBody = Static<typeof CreatePersonalTokenBodySchema>;

const TokenFields = {
  id: Uuid,
  name: TokenName,
  prefix: Type.String({ description: "The first characters of the token.", examples: ["sl_pat_4fG7kQ2x"] }),
  scope: TokenScopeSchema,
  projects: Type.Union(
    [
      Type.Array(
        Type.Object(
          { id: Uuid, slug: Type.String({ examples: ["shop"] }), name: Type.String({ examples: ["Shop"] }) },
          { additionalProperties: false },
        ),
      ),
      Type.Null(),
    ],
    { description: "The projects the token is limited to (live ones); null: every project of yours." },
  ),
  created_at: Timestamp(),
  expires_at: NullableTimestamp("Null: never expires."),
  last_used_at: NullableTimestamp("Updated at most once a minute; null when never used."),
};

export const PersonalTokenSchema = Type.Object(
  {
    ...TokenFields,
    is_expired: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PersonalToken = Static<typeof PersonalTokenSchema>;

export const CreatedPersonalTokenSchema = Type.Object(
  {
    ...TokenFields,
    token: Type.String({
      description: "The whole secret. Shown only in this response; store it now.",
      examples: ["sl_pat_4fG7kQ2xZpW8nB3vT6yL1mR9cD5hJ0sA2eU7iO4qK8wX3zN6gF1bV5tY9uH2jM7rP"],
    }),
  },
  { additionalProperties: false },
);
export type CreatedPersonalToken = Static<typeof CreatedPersonalTokenSchema>;

export const PersonalTokenListSchema = Type.Object(
  { tokens: Type.Array(PersonalTokenSchema) },
  { additionalProperties: false },
);
export type PersonalTokenList = Static<typeof PersonalTokenListSchema>;
