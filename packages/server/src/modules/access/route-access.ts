// What every route declares: what it acts on (its scope) and, for project and app routes, the
// permission it needs. The declaration lives in the route's `config.access`; the access plugin
// refuses to register a route without one, so none can be forgotten.
import { type Permission, PERMISSIONS } from "@sightline/contracts";

export type RouteAccess =
  /** Anyone, no credentials: health, sign-in, public pictures. */
  | { readonly scope: "public" }
  /** An application with an `X-API-Key`; the route's own hook authenticates the key. */
  | { readonly scope: "api-key" }
  /**
   * Any signed-in user, acting on their own account or collections (`GET /projects`). With
   * `session: true`, only a signed-in session: personal access tokens are refused (403), for
   * routes that manage the sign-in itself (sessions, password, tokens, the account). With
   * `reads: true`, a route that only reads whatever its method (the MCP endpoint, whose POST
   * carries calls that each authorize their project): read-only tokens may call it.
   */
  | { readonly scope: "user"; readonly session?: true; readonly reads?: true }
  /**
   * A member of the project named by the `project_slug` path parameter (or body field, with
   * `projectIn: "body"`) whose role holds `permission`.
   */
  | { readonly scope: "project"; readonly permission: Permission; readonly projectIn?: "params" | "body" }
  /**
   * A member of the project of the app named by `app_slug` (with `?project=` to choose among
   * projects) whose role holds `permission`.
   */
  | { readonly scope: "app"; readonly permission: Permission };

export type AccessScopeKind = RouteAccess["scope"];

/** Declarations, for `config: { access: … }`. */
export const access = {
  public: { scope: "public" } as const satisfies RouteAccess,
  apiKey: { scope: "api-key" } as const satisfies RouteAccess,
  user: { scope: "user" } as const satisfies RouteAccess,
  session: { scope: "user", session: true } as const satisfies RouteAccess,
  /** A signed-in user's route that never writes, whatever its method (read-only tokens pass). */
  userReads: { scope: "user", reads: true } as const satisfies RouteAccess,
  project: (permission: Permission, options: { projectIn?: "params" | "body" } = {}): RouteAccess => ({
    scope: "project",
    permission,
    ...(options.projectIn === undefined ? {} : { projectIn: options.projectIn }),
  }),
  app: (permission: Permission): RouteAccess => ({ scope: "app", permission }),
};

declare module "fastify" {
  interface FastifyContextConfig {
    /** What the route acts on and the permission it needs; required on every API route. */
    access?: RouteAccess;
  }
}

/** Whether the caller must be signed in (bearer token or browser session). */
export function requiresUser(declared: RouteAccess): boolean {
  return declared.scope === "user" || declared.scope === "project" || declared.scope === "app";
}

/** The declaration when it is one, else a sentence saying what is wrong with it. */
export function checkDeclaration(value: unknown): RouteAccess | string {
  if (typeof value !== "object" || value === null) return "it has no config.access declaration";
  const { scope, permission } = value as { scope?: unknown; permission?: unknown };
  switch (scope) {
    case "public":
    case "api-key":
    case "user": {
      if (permission !== undefined) return `scope "${scope}" takes no permission`;
      const { session, reads } = value as { session?: unknown; reads?: unknown };
      if (!(session === undefined || (scope === "user" && session === true)))
        return `"session" is true or absent, on scope "user" only`;
      if (!(reads === undefined || (scope === "user" && reads === true && session === undefined)))
        return `"reads" is true or absent, on scope "user" without "session" only`;
      return value as RouteAccess;
    }
    case "project":
    case "app":
      return typeof permission === "string" && permission in PERMISSIONS
        ? (value as RouteAccess)
        : `scope "${scope}" needs a known permission (got ${JSON.stringify(permission)})`;
    default:
      return `unknown scope ${JSON.stringify(scope)}`;
  }
}
