// The one home of authorization. On registration (onRoute) every API route must carry a valid
// `config.access` declaration — registration fails otherwise — and the declaration is written
// into the route's OpenAPI entry. On each request, onRequest signs the caller in when the scope
// needs a user, and preHandler resolves the project or app and checks the permission before the
// handler runs, leaving an authorized scope that handlers read with projectScopeOf/appScopeOf.
// A personal access token's cap applies at both steps: on user routes here, on scopes in the
// resolver; its successful writes are reported to `tokenUse` for the project's audit log.
import { PERMISSIONS } from "@sightline/contracts";
import type { FastifyRequest, FastifySchema, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../../errors.js";
import type { TokenGrant } from "../../http/bearer-auth.js";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { checkDeclaration, requiresUser, type RouteAccess } from "./route-access.js";
import { type AppScope, isAppScope, type ProjectScope } from "./scope.js";
import type { ScopeResolver } from "./scope-resolver.js";

/** One registered route and what it declared. */
export interface RouteAccessEntry {
  readonly method: string;
  readonly url: string;
  readonly access: RouteAccess;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The authorized project or app of a project/app route; null elsewhere. */
    accessScope: ProjectScope | null;
  }
}

/** A write a personal access token made in a project, as the audit log records it. */
export interface TokenWrite {
  readonly scope: ProjectScope;
  readonly grant: TokenGrant;
  readonly method: string;
  readonly route: string;
  readonly status: number;
}

export interface AccessPluginOptions {
  readonly resolver: ScopeResolver;
  /** Called before the response of every successful token write on a project or app route. */
  readonly tokenUse?: (write: TokenWrite) => Promise<void>;
  /** Filled with every route registered after the plugin, in registration order. */
  readonly table: RouteAccessEntry[];
}

export const accessPlugin = fp(
  async (app: App, { resolver, table, tokenUse }: AccessPluginOptions) => {
    app.decorateRequest("accessScope", null);

    app.addHook("onRoute", (route) => {
      const declared = checkDeclaration(route.config?.access);
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const where = `${methods.join(",")} ${route.url}`;
      if (typeof declared === "string") throw new Error(`Route ${where} cannot be registered: ${declared}.`);
      const misfit = scopeMisfit(route, declared);
      if (misfit !== null) throw new Error(`Route ${where} cannot be registered: ${misfit}.`);
      document(route, declared);
      // Fastify adds a HEAD twin to every GET; it shares the GET's declaration.
      for (const method of methods)
        if (method !== "HEAD") table.push({ method, url: route.url, access: declared });
    });

    app.addHook("onRequest", async (request) => {
      const declared = request.routeOptions.config.access;
      if (declared === undefined || !requiresUser(declared)) return;
      await app.authenticate(request);
      const grant = request.auth?.token;
      if (grant !== undefined && declared.scope === "user") refuseToken(declared, grant, request.method);
    });

    app.addHook("preHandler", async (request) => {
      const declared = request.routeOptions.config.access;
      if (declared === undefined || (declared.scope !== "project" && declared.scope !== "app")) return;
      const caller = request.auth as { userId: string; token?: TokenGrant };
      const principal = { userId: caller.userId, grant: caller.token ?? null };
      if (declared.scope === "project") {
        const source = declared.projectIn === "body" ? request.body : request.params;
        const slug = (source as { project_slug: string }).project_slug;
        request.accessScope = await resolver.resolveProject(principal, slug, declared.permission);
      } else {
        // Below /projects/{project_slug} the path names the project; under /apps, `?project=` may.
        const { app_slug, project_slug } = request.params as { app_slug: string; project_slug?: string };
        const project = project_slug ?? (request.query as { project?: string }).project;
        request.accessScope = await resolver.resolveApp(principal, app_slug, project, declared.permission);
      }
    });

    // Before the response goes, so a client that reads the audit log next finds the entry.
    app.addHook("onSend", async (request, reply) => {
      const scope = request.accessScope;
      if (tokenUse === undefined || scope === null || scope.grant === null) return;
      if (SAFE_METHODS.has(request.method) || reply.statusCode >= 400) return;
      // The write has committed: a failed audit entry is logged, not turned into a failed answer.
      try {
        await tokenUse({
          scope,
          grant: scope.grant,
          method: request.method,
          route: request.routeOptions.url ?? request.url,
          status: reply.statusCode,
        });
      } catch (error) {
        request.log.error(
          { err: error, token_prefix: scope.grant.prefix },
          "could not audit a token's write",
        );
      }
    });
  },
  { name: "sightline-access", dependencies: ["sightline-bearer-auth"] },
);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * On user routes a token may not manage the sign-in (`session` routes), and a read-only token
 * may only read: fail closed on any method that is not safe.
 */
function refuseToken(declared: RouteAccess, grant: TokenGrant, method: string): void {
  if (declared.scope === "user" && declared.session === true) {
    throw new AppError(
      "forbidden",
      "This route needs a signed-in session: personal access tokens cannot manage sessions, passwords, " +
        "tokens or the account.",
    );
  }
  const readsOnly = declared.scope === "user" && declared.reads === true;
  if (grant.scope !== "read-write" && !SAFE_METHODS.has(method) && !readsOnly) {
    throw new AppError("forbidden", "This personal access token is read-only: it cannot change anything.");
  }
}

/** Why a declaration cannot work on this route (the slug it needs is not there), or null. */
function scopeMisfit(route: RouteOptions, declared: RouteAccess): string | null {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
  const has = (part: unknown, name: string) =>
    typeof part === "object" &&
    part !== null &&
    name in ((part as { properties?: Record<string, unknown> }).properties ?? {});
  if (declared.scope === "project") {
    if (declared.projectIn === "body") {
      const required = (schema.body as { required?: string[] } | undefined)?.required ?? [];
      return required.includes("project_slug")
        ? null
        : 'projectIn "body" needs a required body field project_slug';
    }
    return route.url.includes(":project_slug") ? null : "project scope needs a :project_slug path parameter";
  }
  if (declared.scope === "app") {
    if (!route.url.includes(":app_slug")) return "app scope needs an :app_slug path parameter";
    return route.url.includes(":project_slug") || has(schema.querystring, "project")
      ? null
      : "app scope needs a :project_slug path parameter or the ?project= query parameter";
  }
  return null;
}

const ACCESS_NOTES: Record<RouteAccess["scope"], string> = {
  public: "No credentials needed.",
  "api-key": "Authenticated by `X-API-Key`.",
  user: "Any signed-in user (a read-only personal access token: safe methods only).",
  project: "",
  app: "",
};

/** Writes the declaration into the route's OpenAPI entry: who may call it and what it answers. */
function document(route: RouteOptions, declared: RouteAccess): void {
  const schema = (route.schema ?? {}) as FastifySchema & {
    description?: string;
    response?: Record<string, unknown>;
  };
  let note = ACCESS_NOTES[declared.scope];
  const response = { ...(schema.response ?? {}) };
  const addProblems = (...statuses: Array<401 | 403 | 404 | 409>) => {
    for (const [status, problem] of Object.entries(problemResponses(...statuses)))
      if (!(status in response)) response[status] = problem;
  };
  if (declared.scope === "project" || declared.scope === "app") {
    const roles = PERMISSIONS[declared.permission].roles.join(", ");
    note =
      `Requires \`${declared.permission}\` (${roles}) in the ${declared.scope === "app" ? "app's " : ""}` +
      "project. Non-members get 404, as for a missing resource; members whose role lacks it get 403. " +
      "A personal access token acts with its owner's role, capped by its scope (read-only: 403 on " +
      "anything but reads) and projects (others: 404).";
    addProblems(401, 403, 404);
    if (declared.scope === "app") addProblems(409);
  } else if (declared.scope === "user") {
    if (declared.session === true) note = "A signed-in session; personal access tokens get 403.";
    if (declared.reads === true)
      note = "Any signed-in user; the route only reads, so read-only personal access tokens may call it.";
    addProblems(401, 403);
  }
  route.schema = {
    ...schema,
    ...(requiresUser(declared) && schema.security === undefined ? { security: bearerSecurity } : {}),
    ...(Object.keys(response).length === 0 ? {} : { response }),
    description:
      schema.description === undefined ? `Access: ${note}` : `${schema.description}\n\nAccess: ${note}`,
  };
}

function scopeOf(request: FastifyRequest, kind: "project" | "app"): ProjectScope {
  const scope = request.accessScope;
  if (scope === null || request.routeOptions.config.access?.scope !== kind) {
    throw new Error(`route ${request.routeOptions.url} does not declare scope "${kind}"`);
  }
  return scope;
}

/** The authorized project of a route declared with `access.project(...)`. */
export function projectScopeOf(request: FastifyRequest): ProjectScope {
  return scopeOf(request, "project");
}

/** The authorized app of a route declared with `access.app(...)`. */
export function appScopeOf(request: FastifyRequest): AppScope {
  const scope = scopeOf(request, "app");
  if (!isAppScope(scope)) throw new Error("an app route resolved to a project scope");
  return scope;
}
