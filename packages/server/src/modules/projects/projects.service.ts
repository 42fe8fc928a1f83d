// Projects: creation (the creator becomes the first owner) with slug rules, listing with the
// caller's role and app counts, renaming without moving the slug, and soft deletion that takes
// the project's apps and keys with it in one transaction.
import {
  type CreateProjectBody,
  parseRole,
  type Project,
  type ProjectListItem,
  type UpdateProjectBody,
} from "@sightline/contracts";
import type { Kysely } from "kysely";
import { type Clock, toIsoTimestamp } from "../../clock.js";
import { AppError } from "../../errors.js";
import { newId } from "../../lib/ids.js";
import { firstFreeSlug, RESERVED_PROJECT_SLUGS, slugify } from "../../lib/slugs.js";
import { createApiKeysRepo } from "../../stores/metadata/repos/api-keys.repo.js";
import { createAppsRepo } from "../../stores/metadata/repos/apps.repo.js";
import { createMembersRepo } from "../../stores/metadata/repos/members.repo.js";
import { createProjectsRepo, type ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type ProjectScope, reauthorize } from "../access/index.js";
import type { AuditTrail } from "../audit/index.js";

/** Caches other modules keep about a project, dropped when it goes. */
export interface ProjectInvalidation {
  projectDeleted(projectId: string, revokedKeyHashes: readonly string[]): void;
}

export interface ProjectsServiceDeps {
  readonly db: Kysely<MetadataTables>;
  readonly clock: Clock;
  readonly audit: AuditTrail;
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

export function createProjectsService({ db, clock, audit, invalidation }: ProjectsServiceDeps) {
  const projects = createProjectsRepo(db);

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

  /**
   * Soft-deletes a project, its apps and its keys inside the caller's transaction; returns a
   * function that drops caches once that transaction has committed.
   */
  async function deleteWithin(trx: Kysely<MetadataTables>, projectId: string): Promise<() => void> {
    const at = toIsoTimestamp(clock.now());
    await createProjectsRepo(trx).softDelete(projectId, at);
    await createAppsRepo(trx).softDeleteAllOfProject(projectId, at);
    const revoked = await createApiKeysRepo(trx).revokeAll({ projectId }, at);
    return () => invalidation.projectDeleted(projectId, revoked);
  }

  return {
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
        const row = await db.transaction().execute(async (trx) => {
          const created = await createProjectsRepo(trx).insert({
            id: newId(),
            owner_id: userId,
            name,
            slug,
            description: body.description?.trim() ?? "",
            created_at: now,
            updated_at: now,
            deleted_at: null,
          });
          await createMembersRepo(trx).insert({
            project_id: created.id,
            user_id: userId,
            role: "owner",
            joined_at: now,
          });
          await audit.record(trx, {
            projectId: created.id,
            actorId: userId,
            action: "project.created",
            target: { type: "project", id: created.id, label: created.name },
            details: { slug },
          });
          return created;
        });
        return toProject(row);
      } catch (error) {
        // Another request took the slug between our check and the insert.
        if (await projects.isSlugTaken(slug))
          throw new AppError("conflict", `The project slug "${slug}" is already taken.`);
        throw error;
      }
    },

    /**
     * Every live project the user belongs to, with their role; unknown roles are left out, and so
     * are projects outside `onlyIds` (a personal access token's projects) when it is given.
     */
    async listProjects(userId: string, onlyIds: readonly string[] | null = null): Promise<ProjectListItem[]> {
      return (await projects.listLiveForMember(userId)).flatMap((row) => {
        const role = parseRole(row.role);
        return role === undefined || (onlyIds !== null && !onlyIds.includes(row.id))
          ? []
          : [{ ...row, role }];
      });
    },

    getProject(scope: ProjectScope): Project {
      return toProject(scope.project);
    },

    async updateProject(scope: ProjectScope, body: UpdateProjectBody): Promise<Project> {
      const { project } = scope;
      const name = body.name?.trim();
      if (name === "") throw blankName();
      if (body.slug !== undefined && body.slug !== project.slug) await assertSlugAvailable(body.slug);
      const description = body.description?.trim();
      const changes: Record<string, { from: string; to: string }> = {};
      if (name !== undefined && name !== project.name) changes.name = { from: project.name, to: name };
      if (body.slug !== undefined && body.slug !== project.slug)
        changes.slug = { from: project.slug, to: body.slug };
      if (description !== undefined && description !== project.description)
        changes.description = { from: project.description, to: description };
      const row = await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "project:write");
        const updated = await createProjectsRepo(trx).update(project.id, {
          ...(name === undefined ? {} : { name }),
          ...(description === undefined ? {} : { description }),
          ...(body.slug === undefined ? {} : { slug: body.slug }),
          updated_at: toIsoTimestamp(clock.now()),
        });
        if (Object.keys(changes).length > 0) {
          await audit.record(trx, {
            projectId: project.id,
            actorId: scope.userId,
            action: "project.updated",
            target: { type: "project", id: project.id, label: updated.name },
            details: changes,
          });
        }
        return updated;
      });
      return toProject(row);
    },

    async deleteProject(scope: ProjectScope): Promise<void> {
      const drop = await db.transaction().execute(async (trx) => {
        await reauthorize(trx, scope, "project:delete");
        return deleteWithin(trx, scope.project.id);
      });
      drop();
    },

    deleteWithin,
  };
}

function blankName(): AppError {
  return new AppError("validation_error", "The name must not be blank.", {
    errors: [{ pointer: "/name", message: "must not be blank" }],
  });
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
