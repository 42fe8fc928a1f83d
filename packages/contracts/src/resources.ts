// Wire shapes of the resource model: projects, apps, API keys, environments and endpoints
// (spec 2.1–2.4 and 4.4–4.5), with the limits and enumerations the server enforces.
import { type Static, Type } from "typebox";
import { roleSchema } from "./roles.js";

const Timestamp = (description?: string) =>
  Type.String({
    format: "date-time",
    examples: ["2026-11-21T06:00:00.000Z"],
    ...(description ? { description } : {}),
  });
/** How heartbeats are kept and read. */
export const HEARTBEAT_LIMITS = {
  /** An app is alive while its newest heartbeat is at most this old (three missed beats). */
  aliveWithinMs: 3 * 60_000,
  /** Instances remembered per app: the newest beats are kept, older instances forgotten. */
  instancesPerApp: 50,
} as const;

const NullableTimestamp = (description: string) =>
  Type.Union([Type.String({ format: "date-time" }), Type.Null()], { description, examples: [null] });
const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });

export const SLUG_PATTERN = "^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$";
export const SlugSchema = Type.String({
  pattern: SLUG_PATTERN,
  minLength: 1,
  maxLength: 64,
  description: "Lower-case letters, digits and inner hyphens; 1–64 characters.",
  examples: ["checkout-api"],
});

const Name = Type.String({ minLength: 1, maxLength: 100, examples: ["Checkout API"] });
const Description = Type.String({ maxLength: 2000, examples: ["Public REST API of the shop"] });

/** Frameworks an app can declare; `other` for anything else. */
export const FRAMEWORKS = [
  "express",
  "fastify",
  "hono",
  "koa",
  "nestjs",
  "nextjs",
  "django",
  "fastapi",
  "flask",
  "starlette",
  "rails",
  "laravel",
  "spring",
  "go",
  "other",
] as const;
export type Framework = (typeof FRAMEWORKS)[number];
// Unsafe<Framework>: a union built from an array infers `never`; this keeps the same schema
// and gives clients the literal union.
const FrameworkSchema = Type.Unsafe<Framework>(
  Type.Union(
    FRAMEWORKS.map((name) => Type.Literal(name)),
    { description: `One of: ${FRAMEWORKS.join(", ")}.`, examples: ["fastify"] },
  ),
);
const Icon = Type.String({ maxLength: 32, description: "An emoji or icon name.", examples: ["🛒"] });

// ---- projects ----

export const ProjectSchema = Type.Object(
  {
    id: Uuid,
    name: Name,
    slug: SlugSchema,
    description: Type.String({ examples: ["Public REST API of the shop"] }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type Project = Static<typeof ProjectSchema>;

export const ProjectListItemSchema = Type.Object(
  {
    id: Uuid,
    name: Name,
    slug: SlugSchema,
    description: Type.String(),
    app_count: Type.Integer({ minimum: 0, description: "Live apps of the project.", examples: [3] }),
    role: roleSchema("The caller's role in the project."),
    created_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type ProjectListItem = Static<typeof ProjectListItemSchema>;

export const CreateProjectBodySchema = Type.Object(
  {
    name: Name,
    slug: Type.Optional(SlugSchema),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
export type CreateProjectBody = Static<typeof CreateProjectBodySchema>;

export const UpdateProjectBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(SlugSchema),
    description: Type.Optional(Description),
  },
  { additionalProperties: false, description: "Renaming never changes the slug; send `slug` to change it." },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBodySchema>;

// ---- apps ----

/** Fields every form of an app carries (spec 2.3, the list-item form). */
const appListFields = {
  id: Uuid,
  name: Name,
  slug: SlugSchema,
  description: Type.String(),
  framework: Type.String({ examples: ["fastify"] }),
  icon: Type.String({ examples: ["🛒"] }),
  created_at: Timestamp(),
  last_heartbeat_at: NullableTimestamp(
    "When an instance of the app last sent a heartbeat (`@sightline/node` sends one a minute); null if none ever did.",
  ),
  alive: Type.Boolean({
    description: `True while a heartbeat is at most ${HEARTBEAT_LIMITS.aliveWithinMs / 60_000} minutes old.`,
  }),
};

export const AppSchema = Type.Object(
  { ...appListFields, project_id: Uuid, updated_at: Timestamp() },
  { additionalProperties: false },
);
export type App = Static<typeof AppSchema>;

export const AppListItemSchema = Type.Object(appListFields, { additionalProperties: false });
export type AppListItem = Static<typeof AppListItemSchema>;

export const AccessibleAppSchema = Type.Object(
  { ...appListFields, project_slug: SlugSchema },
  { additionalProperties: false },
);
export type AccessibleApp = Static<typeof AccessibleAppSchema>;

const AppFields = {
  name: Name,
  slug: Type.Optional(SlugSchema),
  description: Type.Optional(Description),
  framework: Type.Optional(FrameworkSchema),
  icon: Type.Optional(Icon),
};

export const CreateAppBodySchema = Type.Object(AppFields, { additionalProperties: false });
export type CreateAppBody = Static<typeof CreateAppBodySchema>;

export const CreateAppInProjectBodySchema = Type.Object(
  { project_slug: SlugSchema, ...AppFields },
  { additionalProperties: false },
);
export type CreateAppInProjectBody = Static<typeof CreateAppInProjectBodySchema>;

export const UpdateAppBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    slug: Type.Optional(SlugSchema),
    description: Type.Optional(Description),
    framework: Type.Optional(FrameworkSchema),
    icon: Type.Optional(Icon),
  },
  { additionalProperties: false, description: "Renaming never changes the slug; send `slug` to change it." },
);
export type UpdateAppBody = Static<typeof UpdateAppBodySchema>;

// ---- API keys ----

export const CreateApiKeyBodySchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, examples: ["production ingest"] }) },
  { additionalProperties: false },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBodySchema>;

export const CreatedApiKeySchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["production ingest"] }),
    prefix: Type.String({ examples: ["sl_4fG7kQ2xZ"] }),
    key: Type.String({
      description: "The whole secret. Shown only in this response; store it now.",
      examples: ["sl_4fG7kQ2xZpW8nB3vT6yL1mR9cD5hJ0sA2eU7iO4qK8wX3zN6gF1bV5tY9uH2jM7rP0"],
    }),
    created_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type CreatedApiKey = Static<typeof CreatedApiKeySchema>;

export const ApiKeyListItemSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ["production ingest"] }),
    prefix: Type.String({ examples: ["sl_4fG7kQ2xZ"] }),
    is_revoked: Type.Boolean(),
    last_used_at: NullableTimestamp("Updated at most once a minute; null when never used."),
    created_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type ApiKeyListItem = Static<typeof ApiKeyListItemSchema>;

// ---- environments ----

export const COLOR_PATTERN = "^#[0-9a-fA-F]{6}$";
const Color = Type.String({ pattern: COLOR_PATTERN, description: "`#rrggbb`.", examples: ["#22c55e"] });
const EnvironmentName = Type.String({ minLength: 1, maxLength: 64, examples: ["production"] });

export const EnvironmentSchema = Type.Object(
  {
    id: Uuid,
    name: EnvironmentName,
    slug: SlugSchema,
    color: Type.String({ examples: ["#22c55e"] }),
    order: Type.Integer({ minimum: 0, examples: [0] }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type Environment = Static<typeof EnvironmentSchema>;

export const CreateEnvironmentBodySchema = Type.Object(
  {
    name: EnvironmentName,
    slug: Type.Optional(SlugSchema),
    color: Type.Optional(Color),
    order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type CreateEnvironmentBody = Static<typeof CreateEnvironmentBodySchema>;

export const UpdateEnvironmentBodySchema = Type.Object(
  {
    name: Type.Optional(EnvironmentName),
    slug: Type.Optional(SlugSchema),
    color: Type.Optional(Color),
    order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type UpdateEnvironmentBody = Static<typeof UpdateEnvironmentBodySchema>;

// ---- endpoints ----

const Method = Type.String({
  pattern: "^[A-Za-z]{1,16}$",
  description: "HTTP method; stored upper-case.",
  examples: ["GET"],
});
const RoutePath = Type.String({
  pattern: "^/",
  maxLength: 2048,
  description: "Route template, starting with `/`; at most 2048 characters and 2048 bytes of UTF-8.",
  examples: ["/users/{id}"],
});

export const EndpointSchema = Type.Object(
  {
    id: Uuid,
    method: Type.String({ examples: ["GET"] }),
    path: Type.String({ examples: ["/users/{id}"] }),
    description: Type.String(),
    is_active: Type.Boolean({ description: "False while switched off by a user." }),
    last_seen_at: NullableTimestamp("Newest record seen for this endpoint; null when never seen."),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { additionalProperties: false },
);
export type Endpoint = Static<typeof EndpointSchema>;

export const CreateEndpointBodySchema = Type.Object(
  { method: Method, path: RoutePath, description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBodySchema>;

export const UpdateEndpointBodySchema = Type.Object(
  {
    method: Type.Optional(Method),
    path: Type.Optional(RoutePath),
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateEndpointBody = Static<typeof UpdateEndpointBodySchema>;

// ---- limits ----

export const RESOURCE_LIMITS = {
  liveKeysPerProject: 20,
  environmentsPerApp: 20,
  /** UTF-8 bytes of an endpoint's route template (besides its 2048 characters): the catalogue's
   *  unique index cannot hold much more, on PostgreSQL about 2.7 kB per entry. */
  routeTemplateBytes: 2048,
} as const;
