// Wire shapes of saved views: a page's filters under a name, kept per user and optionally shared
// with the project's members, so a person can come back to (or hand over) a filtered page.
import { type Static, Type } from "typebox";

const Uuid = Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] });
const Timestamp = Type.String({ format: "date-time", examples: ["2026-11-21T06:00:00.000Z"] });

export const SAVED_VIEW_LIMITS = {
  /** Views one person may keep in one project (their own, shared or not). */
  viewsPerUser: 100,
  /** Filter keys of one view, and the length of each value. */
  filterKeys: 40,
  filterValueLength: 2000,
} as const;

const Name = Type.String({ minLength: 1, maxLength: 100, examples: ["Slow checkout calls"] });

const Page = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "^[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)*$",
  description: "The dashboard page the view belongs to, as its path under the project (`requests`, `logs`).",
  examples: ["requests"],
});

const Filters = Type.Record(
  Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }),
  Type.String({ maxLength: SAVED_VIEW_LIMITS.filterValueLength }),
  {
    additionalProperties: false,
    maxProperties: SAVED_VIEW_LIMITS.filterKeys,
    description: "The page's URL search parameters, each as text.",
    examples: [{ app: "web", status: "5xx", q: "/checkout" }],
  },
);

export const SavedViewSchema = Type.Object(
  {
    id: Uuid,
    page: Page,
    name: Name,
    filters: Filters,
    shared: Type.Boolean({ description: "Whether the project's members see it too." }),
    owner_id: Uuid,
    owner_email: Type.String({ examples: ["ada@example.com"] }),
    mine: Type.Boolean({ description: "Whether the caller created it (and so may change or delete it)." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type SavedView = Static<typeof SavedViewSchema>;

export const SavedViewsQuerySchema = Type.Object(
  { page: Type.Optional(Page) },
  { additionalProperties: false },
);
export type SavedViewsQuery = Static<typeof SavedViewsQuerySchema>;

export const CreateSavedViewBodySchema = Type.Object(
  {
    page: Page,
    name: Name,
    filters: Filters,
    shared: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type CreateSavedViewBody = Static<typeof CreateSavedViewBodySchema>;

export const UpdateSavedViewBodySchema = Type.Object(
  {
    name: Type.Optional(Name),
    filters: Type.Optional(Filters),
    shared: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSavedViewBody = Static<typeof UpdateSavedViewBodySchema>;
