// Projects: creation with slug rules, listing with app counts, renaming without moving the
// slug, and soft deletion that takes the project's apps and keys with it in one transaction.
import type { CreateProjectBody, Project, ProjectListItem, UpdateProjectBody } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { firstFreeSlug, RESERVED_PROJECT_SLUGS, slugify } from "../../lib/slugs.js";
import { createApiKeysRepo } from "../../stores/metadata/repos/api-keys.repo.js";
import { createAppsRepo } from "../../stores/metadata/repos/apps.repo.js";
import { createProjectsRepo, type ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { assertCanAccess, type ProjectAction } from "./access.js";

/** Caches other modules keep about a project, dropped when it goes. */
export interface ProjectInvalidation {
  projectDeleted(projectId: string, revokedKeyHashes: readonly string[]): void;
}

export interface ProjectsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly invalidation: ProjectInvalidation;
}

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createProjectsService({ db, clock, invalidation }: ProjectsServiceDeps) {
  const projects = createProjectsRepo(db);

  async function resolve(userId: string, slug: string, action: ProjectAction): Promise<ProjectRow> {
    const project = await projects.findLiveBySlug(slug);
    assertCanAccess(userId, project, action, slug);
    return project;
  }

  async function assertSlugAvailable(slug: string): Promise<void> {
    if (RESERVED_PROJECT_SLUGS.has(slug)) {
      throw new AppError("validation_error", `"${slug}" is reserved; choose another slug.`, {
        errors: [{ pointer: "/slug", message: "is a reserved name" }],
      });
    }
    if (await projects.isSlugTaken(slug)) {
      throw new AppError("conflict", `The project slug "${slug}" is already taken.`);
    }
  }

  /** Soft-deletes a project, its apps and its keys in the caller's transaction. */
  async function softDeleteWithin(
    trx: Kysely<MetadataTables>,
    projectId: string,
    at: string,
  ): Promise<string[]> {
    await createProjectsRepo(trx).softDelete(projectId, at);
    await createAppsRepo(trx).softDeleteAllOfProject(projectId, at);
    return createApiKeysRepo(trx).revokeAll({ projectId }, at);
  }

  return {
    resolve,

    async createProject(userId: string, body: CreateProjectBody): Promise<Project> {
      const name = body.name.trim();
      if (name === "") throw blankName();
      let slug: string;
      if (body.slug === undefined) {
        slug = await firstFreeSlug(slugify(name, "project"), RESERVED_PROJECT_SLUGS, projects.isSlugTaken);
      } else {
        slug = body.slug;
        await assertSlugAvailable(slug);
      }
      const now = toIsoTimestamp(clock.now());
      try {
        const row = await projects.insert({
          id: newId(),
          owner_id: userId,
          name,
          slug,
          description: body.description?.trim() ?? "",
          created_at: now,
          updated_at: now,
          deleted_at: null,
        });
        return toProject(row);
      } catch (error) {
        // Another request took the slug between our check and the insert.
        if (await projects.isSlugTaken(slug))
          throw new AppError("conflict", `The project slug "${slug}" is already taken.`);
        throw error;
      }
    },

    async listProjects(userId: string): Promise<ProjectListItem[]> {
      return projects.listLiveForOwner(userId);
    },

    async getProject(userId: string, slug: string): Promise<Project> {
      return toProject(await resolve(userId, slug, "read"));
    },

    async updateProject(userId: string, slug: string, body: UpdateProjectBody): Promise<Project> {
      const project = await resolve(userId, slug, "admin");
      const name = body.name?.trim();
      if (name === "") throw blankName();
      if (body.slug !== undefined && body.slug !== project.slug) await assertSlugAvailable(body.slug);
      const row = await projects.update(project.id, {
        ...(name === undefined ? {} : { name }),
        ...(body.description === undefined ? {} : { description: body.description.trim() }),
        ...(body.slug === undefined ? {} : { slug: body.slug }),
        updated_at: toIsoTimestamp(clock.now()),
      });
      return toProject(row);
    },

    async deleteProject(userId: string, slug: string): Promise<void> {
      const project = await resolve(userId, slug, "delete");
      const at = toIsoTimestamp(clock.now());
      const revoked = await db.transaction().execute((trx) => softDeleteWithin(trx, project.id, at));
      invalidation.projectDeleted(project.id, revoked);
    },

    /**
     * For account deletion: soft-deletes every live project the user owns, inside the caller's
     * transaction; returns a function that drops caches once that transaction has committed.
     */
    async deleteProjectsOwnedBy(trx: Kysely<MetadataTables>, userId: string): Promise<() => void> {
      const at = toIsoTimestamp(clock.now());
      const deleted: Array<[string, string[]]> = [];
      for (const projectId of await createProjectsRepo(trx).listLiveIdsForOwner(userId)) {
        deleted.push([projectId, await softDeleteWithin(trx, projectId, at)]);
      }
      return () => {
        for (const [projectId, hashes] of deleted) invalidation.projectDeleted(projectId, hashes);
      };
    },
  };
}

function blankName(): AppError {
  return new AppError("validation_error", "The name must not be blank.", {
    errors: [{ pointer: "/name", message: "must not be blank" }],
  });
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
