// Authorization at the moment of a write: the route's preHandler checked the caller's role
// before the handler ran, but a concurrent demotion or removal may commit in between. Sensitive
// writes call `reauthorize` first in their transaction: it takes the project's lock (the one
// membership changes take) and re-reads the caller's membership, so the write and any change of
// the caller's role happen in some serial order and the write sees the role that order gives.
import type { Permission } from "@sightline/contracts";
import type { Kysely } from "kysely";
import { createMembersRepo } from "../../stores/metadata/repos/members.repo.js";
import { createProjectsRepo } from "../../stores/metadata/repos/projects.repo.js";
import type { MetadataTables } from "../../stores/metadata/schema.js";
import { isAppScope, mintAppScope, type ProjectScope } from "./scope.js";
import { checked, knownRole, projectNotFound } from "./scope-resolver.js";

/**
 * Locks the scope's project within `trx` and re-checks the caller's current role for
 * `permission`: 404 `not_found` when they are no longer a member (or the project is gone), 403
 * `forbidden` when their role (or their token's scope) does not hold it, exactly as the
 * preHandler answers. Returns the
 * scope with the current role, for the write's target-dependent checks (`assertCan`).
 */
export async function reauthorize<S extends ProjectScope>(
  trx: Kysely<MetadataTables>,
  scope: S,
  permission: Permission,
): Promise<S> {
  await createMembersRepo(trx).lockProject(scope.project.id);
  const found = await createProjectsRepo(trx).findLiveWithRole(scope.project.id, scope.userId);
  const role = knownRole(found);
  if (found === undefined || role === undefined) throw projectNotFound(scope.project.slug);
  // The token's cap goes with the scope, so the re-check applies it exactly as the first did.
  const current = checked({ userId: scope.userId, grant: scope.grant }, role, found.project, permission);
  return (isAppScope(scope) ? mintAppScope(current, scope.app) : current) as S;
}
