// Apps of a project: creation with slug rules, listing, renaming without moving the slug, and
// soft deletion (which revokes the app's own keys). Every call acts on an authorized scope;
// only the listing across projects takes the caller's id, and it lists their memberships only.
import {
  HEARTBEAT_LIMITS,
  type AccessibleApp,
  type App,
  type AppListItem,
  type CreateAppBody,
  parseRole,
  type UpdateAppBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { firstFreeSlug, RESERVED_APP_SLUGS, slugify } from "../../lib/slugs.js";
import { createApiKeysRepo } from "../../stores/metadata/repos/api-keys.repo.js";
import { createAppHeartbeatsRepo } from "../../stores/metadata/repos/app-heartbeats.repo.js";
import { type AppRow, createAppsRepo } from "../../stores/metadata/repos/apps.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AppScope, ProjectScope } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";
import type { AppRef } from "../ingest/index.js";

/** Caches other modules keep about an app, dropped when it goes. */
export interface AppInvalidation {
  appDeleted(appId: string, revokedKeyHashes: readonly string[]): void;
}

export interface AppsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
  readonly invalidation: AppInvalidation;
}

/** Whether an app is alive, from its newest heartbeat. */
type Liveness = Pick<App, "last_heartbeat_at" | "alive">;

function liveness(last: string | undefined, nowMs: number): Liveness {
  if (last === undefined) return { last_heartbeat_at: null, alive: false };
  return { last_heartbeat_at: last, alive: nowMs - Date.parse(last) <= HEARTBEAT_LIMITS.aliveWithinMs };
}

const SILENT: Liveness = { last_heartbeat_at: null, alive: false };

export function toApp(row: AppRow, live: Liveness = SILENT): App {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    framework: row.framework,
    icon: row.icon,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...live,
  };
}

function toListItem(row: AppRow, live: Liveness): AppListItem {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    framework: row.framework,
    icon: row.icon,
    created_at: row.created_at,
    ...live,
  };
}

/** Bounds how long another instance may resolve an app this one deleted or re-slugged. */
const APP_REFS_TTL_MS = 5_000;

export function createAppsService({ db, clock, audit, invalidation }: AppsServiceDeps) {
  const apps = createAppsRepo(db);
  const heartbeats = createAppHeartbeatsRepo(db);
  const refsByProject = new Map<string, { refs: AppRef[]; expiresAt: number }>();

  async function assertSlugAvailable(projectId: string, slug: string): Promise<void> {
    if (RESERVED_APP_SLUGS.has(slug)) {
      throw new AppError("validation_error", `"${slug}" is reserved; choose another slug.`, {
        errors: [{ pointer: "/slug", message: "is a reserved name" }],
      });
    }
    if (await apps.isSlugTaken(projectId, slug)) {
      throw new AppError("conflict", `An app with slug "${slug}" already exists in this project.`);
    }
  }

  function changed(projectId: string): void {
    refsByProject.delete(projectId);
  }

  /** Liveness of each app, from one query over their newest heartbeats. */
  async function livenessOf(ids: readonly string[]): Promise<(id: string) => Liveness> {
    const latest = await heartbeats.latestByApp(ids);
    const now = clock.now().getTime();
    return (id) => liveness(latest.get(id), now);
  }

  return {
    async listInProject(scope: ProjectScope): Promise<AppListItem[]> {
      const rows = await apps.listLive(scope.project.id);
      const live = await livenessOf(rows.map((row) => row.id));
      return rows.map((row) => toListItem(row, live(row.id)));
    },

    async create(scope: ProjectScope, body: CreateAppBody): Promise<App> {
      const { project } = scope;
      const name = body.name.trim();
      if (name === "") throw blankName();
      let slug: string;
      if (body.slug === undefined) {
        slug = await firstFreeSlug(slugify(name, "app"), RESERVED_APP_SLUGS, (candidate) =>
          apps.isSlugTaken(project.id, candidate),
        );
      } else {
        slug = body.slug;
        await assertSlugAvailable(project.id, slug);
      }
      const now = toIsoTimestamp(clock.now());
      try {
        const row = await db.transaction().execute(async (trx) => {
          const inserted = await createAppsRepo(trx).insert({
            id: newId(),
            project_id: project.id,
            name,
            slug,
            description: body.description?.trim() ?? "",
            framework: body.framework ?? "other",
            icon: body.icon?.trim() ?? "",
            created_at: now,
            updated_at: now,
            deleted_at: null,
          });
          await audit.record(trx, {
            projectId: project.id,
            actorId: scope.userId,
            action: "app.created",
            target: { type: "app", id: inserted.id, label: inserted.name },
            details: { slug },
          });
          return inserted;
        });
        changed(project.id);
        return toApp(row);
      } catch (error) {
        if (await apps.isSlugTaken(project.id, slug)) {
          throw new AppError("conflict", `An app with slug "${slug}" already exists in this project.`);
        }
        throw error;
      }
    },

    async get(scope: AppScope): Promise<App> {
      const live = await livenessOf([scope.app.id]);
      return toApp(scope.app, live(scope.app.id));
    },

    async update({ app, project }: AppScope, body: UpdateAppBody): Promise<App> {
      const name = body.name?.trim();
      if (name === "") throw blankName();
      if (body.slug !== undefined && body.slug !== app.slug) await assertSlugAvailable(project.id, body.slug);
      const row = await apps.update(app.id, {
        ...(name === undefined ? {} : { name }),
        ...(body.slug === undefined ? {} : { slug: body.slug }),
        ...(body.description === undefined ? {} : { description: body.description.trim() }),
        ...(body.framework === undefined ? {} : { framework: body.framework }),
        ...(body.icon === undefined ? {} : { icon: body.icon.trim() }),
        updated_at: toIsoTimestamp(clock.now()),
      });
      changed(project.id);
      return toApp(row, (await livenessOf([row.id]))(row.id));
    },

    async remove(scope: AppScope): Promise<void> {
      const { app, project } = scope;
      const at = toIsoTimestamp(clock.now());
      const revoked = await db.transaction().execute(async (trx) => {
        await createAppsRepo(trx).softDelete(app.id, at);
        const hashes = await createApiKeysRepo(trx).revokeAll({ appId: app.id }, at);
        await audit.record(trx, {
          projectId: project.id,
          actorId: scope.userId,
          action: "app.deleted",
          target: { type: "app", id: app.id, label: app.name },
          details: { slug: app.slug, revoked_keys: hashes.length },
        });
        return hashes;
      });
      invalidation.appDeleted(app.id, revoked);
      changed(project.id);
    },

    /** Every live app in the projects the user belongs to (and `onlyIds` lists), for `GET /apps`. */
    async listAccessible(userId: string, onlyIds: readonly string[] | null = null): Promise<AccessibleApp[]> {
      const rows = (await apps.listLiveForMember(userId))
        .filter((row) => parseRole(row.role) !== undefined)
        .filter((row) => onlyIds === null || onlyIds.includes(row.project_id));
      const live = await livenessOf(rows.map((row) => row.id));
      return rows.map((row) => ({ ...toListItem(row, live(row.id)), project_slug: row.project_slug }));
    },

    /** Live apps of a project as ingest resolves them (by id or slug); cached briefly. */
    async listLiveRefs(projectId: string): Promise<AppRef[]> {
      const now = clock.now().getTime();
      const cached = refsByProject.get(projectId);
      if (cached !== undefined && cached.expiresAt > now) return cached.refs;
      const refs = (await apps.listLive(projectId)).map((row) => ({ id: row.id, slug: row.slug }));
      refsByProject.set(projectId, { refs, expiresAt: now + APP_REFS_TTL_MS });
      return refs;
    },

    /** Drops what is cached about a project's apps (the project was deleted). */
    forgetProject(projectId: string): void {
      refsByProject.delete(projectId);
    },
  };
}

function blankName(): AppError {
  return new AppError("validation_error", "The name must not be blank.", {
    errors: [{ pointer: "/name", message: "must not be blank" }],
  });
}

export type AppsService = ReturnType<typeof createAppsService>;
