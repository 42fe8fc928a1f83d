// Resolves what a project or app route acts on and checks the caller's role, in that order:
// not a member (or no such thing) answers 404 exactly like a missing resource, a member whose
// role lacks the permission 403. A stored role we do not know counts as no membership at all.
import { type Permission, parseRole, type Role, roleCan } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { AppError } from "../../errors.js";
import type { TokenGrant } from "../../http/bearer-auth.js";
import { type AppRow, createAppsRepo } from "../../stores/metadata/repos/apps.repo.js";
import { createProjectsRepo, type ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import {
  type AppScope,
  forbidden,
  grantAllows,
  mintAppScope,
  mintProjectScope,
  type ProjectScope,
  tokenForbidden,
} from "./scope.js";

/** Who asks: a user, and the personal access token they used (null for a session). */
export interface Principal {
  readonly userId: string;
  readonly grant: TokenGrant | null;
}

export interface ScopeResolver {
  resolveProject(principal: Principal, projectSlug: string, permission: Permission): Promise<ProjectScope>;
  resolveApp(
    principal: Principal,
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

/** Whether a token limited to some projects reaches this one (a session reaches all). */
export function grantReaches(grant: TokenGrant | null, projectId: string): boolean {
  return grant === null || grant.projectIds === null || grant.projectIds.includes(projectId);
}

/**
 * A scope for `role`: 404 when the caller's token does not reach the project (as for a
 * non-member), 403 `forbidden` when the role lacks `permission` or the token's scope does.
 */
export function checked(
  { userId, grant }: Principal,
  role: Role,
  project: ProjectRow,
  permission: Permission,
): ProjectScope {
  if (!grantReaches(grant, project.id)) throw projectNotFound(project.slug);
  if (!roleCan(role, permission)) throw forbidden(role, permission, "this action");
  if (!grantAllows(grant, permission)) throw tokenForbidden(permission, "this action");
  return mintProjectScope(userId, role, project, grant);
}

export function createScopeResolver(db: Kysely<MetadataTables>): ScopeResolver {
  const projects = createProjectsRepo(db);
  const apps = createAppsRepo(db);

  /** The project and the caller's known role in it; 404 for non-members and unknown roles. */
  async function membership(
    { userId, grant }: Principal,
    slug: string,
  ): Promise<{ project: ProjectRow; role: Role }> {
    const found = await projects.findLiveBySlugWithRole(slug, userId);
    // A project the token does not reach answers like one the caller is not in, before the app.
    if (found !== undefined && !grantReaches(grant, found.project.id)) throw projectNotFound(slug);
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
    async resolveProject(principal, projectSlug, permission) {
      const { project, role } = await membership(principal, projectSlug);
      return checked(principal, role, project, permission);
    },

    async resolveApp(principal, appSlug, projectSlug, permission) {
      if (projectSlug !== undefined) {
        const { project, role } = await membership(principal, projectSlug);
        const app = await appIn(project, appSlug);
        return mintAppScope(checked(principal, role, project, permission), app);
      }
      // App slugs are unique per project only: look among every project the caller belongs to
      // (and their token reaches).
      const found = await apps.findLiveBySlugForMember(principal.userId, appSlug);
      const candidates = found.flatMap((candidate) => {
        const role = parseRole(candidate.role);
        return role === undefined || !grantReaches(principal.grant, candidate.project.id)
          ? []
          : [{ ...candidate, role }];
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
      return mintAppScope(checked(principal, only.role, only.project, permission), only.app);
    },
  };
}
