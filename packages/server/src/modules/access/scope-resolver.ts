// Resolves what a project or app route acts on and checks the caller's role, in that order:
// not a member (or no such thing) answers 404 exactly like a missing resource, a member whose
// role lacks the permission 403. A stored role we do not know counts as no membership at all.
import { type Permission, parseRole, type Role, roleCan } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { AppError } from "../../errors.js";
import { type AppRow, createAppsRepo } from "../../stores/metadata/repos/apps.repo.js";
import { createProjectsRepo, type ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { type AppScope, forbidden, mintAppScope, mintProjectScope, type ProjectScope } from "./scope.js";

export interface ScopeResolver {
  resolveProject(userId: string, projectSlug: string, permission: Permission): Promise<ProjectScope>;
  resolveApp(
    userId: string,
    appSlug: string,
    projectSlug: string | undefined,
    permission: Permission,
  ): Promise<AppScope>;
}

export const projectNotFound = (slug: string) => new AppError("not_found", `Project "${slug}" not found.`);
const appNotFound = (slug: string) => new AppError("not_found", `App "${slug}" not found.`);

/** The known role of a membership lookup; undefined for none, or a role this version does not know. */
export function knownRole(found: { role: string | null } | undefined): Role | undefined {
  return found === undefined || found.role === null ? undefined : parseRole(found.role);
}

/** A scope for `role`, or 403 `forbidden` when it lacks `permission`. */
export function checked(
  userId: string,
  role: Role,
  project: ProjectRow,
  permission: Permission,
): ProjectScope {
  if (!roleCan(role, permission)) throw forbidden(role, permission, "this action");
  return mintProjectScope(userId, role, project);
}

export function createScopeResolver(db: Kysely<MetadataTables>): ScopeResolver {
  const projects = createProjectsRepo(db);
  const apps = createAppsRepo(db);

  /** The project and the caller's known role in it; 404 for non-members and unknown roles. */
  async function membership(userId: string, slug: string): Promise<{ project: ProjectRow; role: Role }> {
    const found = await projects.findLiveBySlugWithRole(slug, userId);
    const role = knownRole(found);
    if (found === undefined || role === undefined) throw projectNotFound(slug);
    return { project: found.project, role };
  }

  async function appIn(project: ProjectRow, appSlug: string): Promise<AppRow> {
    const app = await apps.findLiveBySlug(project.id, appSlug);
    if (app === undefined) throw appNotFound(appSlug);
    return app;
  }

  return {
    async resolveProject(userId, projectSlug, permission) {
      const { project, role } = await membership(userId, projectSlug);
      return checked(userId, role, project, permission);
    },

    async resolveApp(userId, appSlug, projectSlug, permission) {
      if (projectSlug !== undefined) {
        const { project, role } = await membership(userId, projectSlug);
        const app = await appIn(project, appSlug);
        return mintAppScope(checked(userId, role, project, permission), app);
      }
      // App slugs are unique per project only: look among every project the caller belongs to.
      const candidates = (await apps.findLiveBySlugForMember(userId, appSlug)).flatMap((found) => {
        const role = parseRole(found.role);
        return role === undefined ? [] : [{ ...found, role }];
      });
      const [only, ...others] = candidates;
      if (only === undefined) throw appNotFound(appSlug);
      if (others.length > 0) {
        const names = candidates.map(({ project }) => project.slug);
        throw new AppError(
          "conflict",
          `App slug "${appSlug}" exists in several projects (${names.join(", ")}); add ?project=<slug>.`,
          { extensions: { projects: names } },
        );
      }
      return mintAppScope(checked(userId, only.role, only.project, permission), only.app);
    },
  };
}
