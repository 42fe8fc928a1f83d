// A project's saved views: each person saves, renames, re-filters, shares and deletes their own;
// everyone sees their own and the shared ones. Another member's shared view is theirs to change:
// a caller may read it (and apply it) but changing or deleting it answers 403.
import {
  type CreateSavedViewBody,
  SAVED_VIEW_LIMITS,
  type SavedView,
  type SavedViewsQuery,
  type UpdateSavedViewBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { createSavedViewsRepo, type SavedViewRow } from "../../stores/metadata/repos/saved-views.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type ProjectScope, reauthorize } from "../access/index.js";

export interface SavedViewsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
}

function parseFilters(text: string): Record<string, string> {
  const parsed: unknown = JSON.parse(text);
  const filters: Record<string, string> = {};
  if (parsed !== null && typeof parsed === "object") {
    for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") filters[key] = value;
  }
  return filters;
}

function toSavedView(row: SavedViewRow, userId: string): SavedView {
  return {
    id: row.id,
    page: row.page,
    name: row.name,
    filters: parseFilters(row.filters),
    shared: row.shared === 1,
    owner_id: row.user_id,
    owner_email: row.owner_email,
    mine: row.user_id === userId,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const notFound = (id: string) => new AppError("not_found", `Saved view ${id} not found.`);

export function createSavedViewsService({ db, clock }: SavedViewsServiceDeps) {
  const repo = createSavedViewsRepo(db);

  /** The caller's own view, for a change: 404 when they cannot see it, 403 when it is someone else's. */
  async function ownView(scope: ProjectScope, id: string): Promise<SavedViewRow> {
    const row = await repo.findVisible(scope.project.id, scope.userId, id);
    if (row === undefined) throw notFound(id);
    if (row.user_id !== scope.userId) {
      throw new AppError(
        "forbidden",
        `Saved view ${id} belongs to ${row.owner_email}: only they may change it.`,
      );
    }
    return row;
  }

  async function reread(scope: ProjectScope, id: string): Promise<SavedView> {
    const row = await repo.findVisible(scope.project.id, scope.userId, id);
    if (row === undefined) throw notFound(id);
    return toSavedView(row, scope.userId);
  }

  return {
    async list(scope: ProjectScope, query: SavedViewsQuery): Promise<SavedView[]> {
      const rows = await repo.visible(scope.project.id, scope.userId, query.page);
      return rows.map((row) => toSavedView(row, scope.userId));
    },

    async get(scope: ProjectScope, id: string): Promise<SavedView> {
      return reread(scope, id);
    },

    async create(scope: ProjectScope, body: CreateSavedViewBody): Promise<SavedView> {
      const id = newId();
      await db.transaction().execute(async (trx) => {
        // The project's lock serialises the count and the insert against a concurrent save.
        await reauthorize(trx, scope, "views:write");
        const owned = await createSavedViewsRepo(trx).countOwned(scope.project.id, scope.userId);
        if (owned >= SAVED_VIEW_LIMITS.viewsPerUser) {
          throw new AppError(
            "limit_reached",
            `A person may keep at most ${SAVED_VIEW_LIMITS.viewsPerUser} saved views in a project.`,
          );
        }
        const now = toIsoTimestamp(clock.now());
        await createSavedViewsRepo(trx).insert({
          id,
          project_id: scope.project.id,
          user_id: scope.userId,
          page: body.page,
          name: body.name,
          filters: JSON.stringify(body.filters),
          shared: body.shared === true ? 1 : 0,
          created_at: now,
          updated_at: now,
        });
      });
      return reread(scope, id);
    },

    async update(scope: ProjectScope, id: string, body: UpdateSavedViewBody): Promise<SavedView> {
      await ownView(scope, id);
      await repo.update(id, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.filters === undefined ? {} : { filters: JSON.stringify(body.filters) }),
        ...(body.shared === undefined ? {} : { shared: body.shared ? 1 : 0 }),
        updated_at: toIsoTimestamp(clock.now()),
      });
      return reread(scope, id);
    },

    async delete(scope: ProjectScope, id: string): Promise<{ message: string }> {
      const row = await ownView(scope, id);
      await repo.delete(row.id);
      return { message: `Saved view "${row.name}" deleted.` };
    },
  };
}

export type SavedViewsService = ReturnType<typeof createSavedViewsService>;
