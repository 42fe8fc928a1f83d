// Authorized scopes: what a project or app route's handler receives once the access plugin has
// resolved the project (or app) and checked the caller's role. The brand is a module-private
// symbol, so no code outside this module can make one: holding a scope is the proof of the check.
import { type Permission, type Role, roleCan, tokenScopeAllows } from "@sightline/contracts";
import { AppError } from "../../errors.js";
import type { TokenGrant } from "../../http/bearer-auth.js";
import type { AppRow } from "../../stores/metadata/repos/apps.repo.js";
import type { ProjectRow } from "../../stores/metadata/repos/projects.repo.js";

const AUTHORIZED: unique symbol = Symbol("authorized");

/** A project the caller belongs to, with their role, checked for the route's permission. */
export interface ProjectScope {
  readonly [AUTHORIZED]: true;
  readonly userId: string;
  readonly role: Role;
  readonly project: ProjectRow;
  /** The personal access token the caller used, which caps their role; null for a session. */
  readonly grant: TokenGrant | null;
}

/** An app of a project the caller belongs to, checked for the route's permission. */
export interface AppScope extends ProjectScope {
  readonly app: AppRow;
}

/** Mints a scope; only the scope resolver calls it, after the membership check. */
export function mintProjectScope(
  userId: string,
  role: Role,
  project: ProjectRow,
  grant: TokenGrant | null,
): ProjectScope {
  return Object.freeze({ [AUTHORIZED]: true as const, userId, role, project, grant });
}

export function mintAppScope(scope: ProjectScope, app: AppRow): AppScope {
  return Object.freeze({ ...scope, app });
}

export function isAppScope(scope: ProjectScope): scope is AppScope {
  return "app" in scope;
}

/** Whether the caller's role in the scope holds `permission`, and their token (if any) allows it. */
export function can(scope: ProjectScope, permission: Permission): boolean {
  return roleCan(scope.role, permission) && grantAllows(scope.grant, permission);
}

export function grantAllows(grant: TokenGrant | null, permission: Permission): boolean {
  return grant === null || tokenScopeAllows(grant.scope, permission);
}

/**
 * For rules that depend on the target as well as the route (removing someone else, touching an
 * owner): 403 `forbidden` unless the caller's role holds `permission`.
 */
export function assertCan(scope: ProjectScope, permission: Permission, what: string): void {
  if (!roleCan(scope.role, permission)) throw forbidden(scope.role, permission, what);
  if (!grantAllows(scope.grant, permission)) throw tokenForbidden(permission, what);
}

/** 403 for a read-only personal access token asked to do more than read. */
export function tokenForbidden(permission: Permission, what: string): AppError {
  return new AppError(
    "forbidden",
    `This personal access token is read-only: it does not allow ${what} (needs ${permission}).`,
    { extensions: { permission } },
  );
}

export function forbidden(role: string, permission: Permission, what: string): AppError {
  return new AppError(
    "forbidden",
    `Your role in this project (${role}) does not allow ${what} (needs ${permission}).`,
    { extensions: { permission } },
  );
}
