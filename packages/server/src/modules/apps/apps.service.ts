// Apps of a project: creation with slug rules, listing, renaming without moving the slug, and
// soft deletion (which revokes the app's own keys). Also resolves `/apps/{app_slug}` among
// every app the caller can access, since app slugs are unique only within a project.
import type { AccessibleApp, App, AppListItem, CreateAppBody, UpdateAppBody } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { firstFreeSlug, RESERVED_APP_SLUGS, slugify } from "../../lib/slugs.js";
import { createApiKeysRepo } from "../../stores/metadata/repos/api-keys.repo.js";
import { type AppRow, createAppsRepo } from "../../stores/metadata/repos/apps.repo.js";
import type { ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import type { AppRef } from "../ingest/directory.js";
import { assertCanAccess, type ProjectAction } from "../projects/access.js";
import type { ProjectsService } from "../projects/projects.service.js";

/** Caches other modules keep about an app, dropped when it goes. */
export interface AppInvalidation {
  appDeleted(appId: string, revokedKeyHashes: readonly string[]): void;
}

export interface AppsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly projects: ProjectsService;
  readonly invalidation: AppInvalidation;
}

/** An app together with the project it belongs to, as the routes below a project need. */
export interface ResolvedApp {
  readonly app: AppRow;
  readonly project: ProjectRow;
}

export function toApp(row: AppRow): App {
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
  };
}

function toListItem(row: AppRow): AppListItem {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    framework: row.framework,
    icon: row.icon,
    created_at: row.created_at,
  };
}

/** Bounds how long another instance may resolve an app this one deleted or re-slugged. */
const APP_REFS_TTL_MS = 5_000;

export function createAppsService({ db, clock, projects, invalidation }: AppsServiceDeps) {
  const apps = createAppsRepo(db);
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

  async function findInProject(project: ProjectRow, appSlug: string): Promise<ResolvedApp> {
    const app = await apps.findLiveBySlug(project.id, appSlug);
    if (app === undefined) throw new AppError("not_found", `App "${appSlug}" not found.`);
    return { app, project };
  }

  async function createIn(project: ProjectRow, body: CreateAppBody): Promise<App> {
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
      const row = await apps.insert({
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
      changed(project.id);
      return toApp(row);
    } catch (error) {
      if (await apps.isSlugTaken(project.id, slug)) {
        throw new AppError("conflict", `An app with slug "${slug}" already exists in this project.`);
      }
      throw error;
    }
  }

  async function update({ app, project }: ResolvedApp, body: UpdateAppBody): Promise<App> {
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
    return toApp(row);
  }

  function changed(projectId: string): void {
    refsByProject.delete(projectId);
  }

  async function remove({ app, project }: ResolvedApp): Promise<void> {
    const at = toIsoTimestamp(clock.now());
    const revoked = await db.transaction().execute(async (trx) => {
      await createAppsRepo(trx).softDelete(app.id, at);
      return createApiKeysRepo(trx).revokeAll({ appId: app.id }, at);
    });
    invalidation.appDeleted(app.id, revoked);
    changed(project.id);
  }

  return {
    // ---- below a project: /projects/{project_slug}/apps ----
    async listInProject(userId: string, projectSlug: string): Promise<AppListItem[]> {
      const project = await projects.resolve(userId, projectSlug, "read");
      return (await apps.listLive(project.id)).map(toListItem);
    },
    async createInProject(userId: string, projectSlug: string, body: CreateAppBody): Promise<App> {
      return createIn(await projects.resolve(userId, projectSlug, "write"), body);
    },
    async resolveInProject(
      userId: string,
      projectSlug: string,
      appSlug: string,
      action: ProjectAction,
    ): Promise<ResolvedApp> {
      return findInProject(await projects.resolve(userId, projectSlug, action), appSlug);
    },

    // ---- across the caller's projects: /apps/{app_slug} ----
    async listAccessible(userId: string): Promise<AccessibleApp[]> {
      const rows = await apps.listLiveForOwner(userId);
      return rows.map((row) => ({ ...toListItem(row), project_slug: row.project_slug }));
    },
    async createViaProjectSlug(userId: string, projectSlug: string, body: CreateAppBody): Promise<App> {
      return createIn(await projects.resolve(userId, projectSlug, "write"), body);
    },
    /**
     * Finds the caller's app with this slug. `projectSlug` picks among projects; without it a
     * slug found in several projects is ambiguous (409 naming them).
     */
    async resolveAccessible(
      userId: string,
      appSlug: string,
      projectSlug: string | undefined,
      action: ProjectAction,
    ): Promise<ResolvedApp> {
      if (projectSlug !== undefined)
        return findInProject(await projects.resolve(userId, projectSlug, action), appSlug);
      // The caller's accessible projects are the ones they own (see projects/access.ts).
      const candidates = await apps.findLiveBySlugForOwner(userId, appSlug);
      if (candidates.length === 0) throw new AppError("not_found", `App "${appSlug}" not found.`);
      if (candidates.length > 1) {
        const names = candidates.map(({ project }) => project.slug);
        throw new AppError(
          "conflict",
          `App slug "${appSlug}" exists in several projects (${names.join(", ")}); add ?project=<slug>.`,
          { extensions: { projects: names } },
        );
      }
      const [only] = candidates as [ResolvedApp];
      assertCanAccess(userId, only.project, action, only.project.slug);
      return only;
    },

    update,
    remove,

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
