// Registration refuses an API route whose access declaration is missing or cannot work, so a
// forgotten check fails start-up instead of leaving a route open; good declarations land in the
// route table (HEAD twins of GET routes excepted).
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { ProblemSchema } from "@sightline/contracts";
import Fastify from "fastify";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { bearerAuthPlugin } from "../../src/http/bearer-auth.js";
import type { App } from "../../src/http/types.js";
import {
  accessPlugin,
  AppParams,
  AppScopeQuery,
  type RouteAccessEntry,
  type ScopeResolver,
} from "../../src/modules/access/index.js";

// Registration never resolves a scope or verifies a token; reaching either is a test failure.
const unreachable = (): never => {
  throw new Error("registration must not resolve scopes or verify tokens");
};
const resolver: ScopeResolver = { resolveProject: unreachable, resolveApp: unreachable };

async function register(define: (app: App) => void): Promise<RouteAccessEntry[]> {
  const app: App = Fastify().withTypeProvider<TypeBoxTypeProvider>();
  const table: RouteAccessEntry[] = [];
  // Declared routes document their 401/403/404 answers with the shared Problem schema.
  app.addSchema(ProblemSchema);
  await app.register(bearerAuthPlugin, {
    verifier: { verifyAccessToken: unreachable },
    personalTokens: { verifyPersonalToken: unreachable },
  });
  await app.register(async (api: App) => {
    await api.register(accessPlugin, { resolver, table });
    define(api);
  });
  try {
    await app.ready();
    return table;
  } finally {
    await app.close();
  }
}

describe("route access declarations", () => {
  it("refuses a route without a declaration at start-up", async () => {
    await expect(
      register((app) => app.get("/projects/:project_slug/secrets", async () => "open")),
    ).rejects.toThrow(
      "Route GET /projects/:project_slug/secrets cannot be registered: it has no config.access declaration.",
    );
  });

  it.each([
    ["an unknown scope", { scope: "team" }, "/things", 'unknown scope "team"'],
    [
      "an unknown permission",
      { scope: "project", permission: "keys:steal" },
      "/projects/:project_slug/x",
      "needs a known permission",
    ],
    [
      "a permission on a user route",
      { scope: "user", permission: "data:read" },
      "/users/x",
      'scope "user" takes no permission',
    ],
    [
      "a session flag off the user scope",
      { scope: "public", session: true },
      "/things",
      '"session" is true or absent, on scope "user" only',
    ],
    [
      "a reads flag off the user scope",
      { scope: "public", reads: true },
      "/things",
      '"reads" is true or absent, on scope "user" without "session" only',
    ],
    [
      "a reads flag on a session route",
      { scope: "user", session: true, reads: true },
      "/things",
      '"reads" is true or absent, on scope "user" without "session" only',
    ],
    [
      "a project scope without the slug",
      { scope: "project", permission: "data:read" },
      "/reports",
      "needs a :project_slug path parameter",
    ],
    [
      "an app scope without the slug",
      { scope: "app", permission: "data:read" },
      "/reports/:id",
      "needs an :app_slug path parameter",
    ],
  ])("refuses %s", async (_name, declared, url, message) => {
    await expect(
      register((app) => app.get(url, { config: { access: declared as never } }, async () => "x")),
    ).rejects.toThrow(message);
  });

  it("refuses an app scope that cannot name the project, and a body scope without the field", async () => {
    await expect(
      register((app) =>
        app.get(
          "/apps/:app_slug/x",
          { config: { access: { scope: "app", permission: "data:read" } }, schema: { params: AppParams } },
          async () => "x",
        ),
      ),
    ).rejects.toThrow("needs a :project_slug path parameter or the ?project= query parameter");
    await expect(
      register((app) =>
        app.post(
          "/things",
          {
            config: { access: { scope: "project", permission: "apps:write", projectIn: "body" } },
            schema: { body: Type.Object({ project_slug: Type.Optional(Type.String()) }) },
          },
          async () => "x",
        ),
      ),
    ).rejects.toThrow('projectIn "body" needs a required body field project_slug');
  });

  it("records good declarations in the route table, once per route", async () => {
    const table = await register((app) => {
      app.get("/health", { config: { access: { scope: "public" } } }, async () => "ok");
      app.get(
        "/apps/:app_slug/x",
        {
          config: { access: { scope: "app", permission: "data:read" } },
          schema: { params: AppParams, querystring: AppScopeQuery },
        },
        async () => "x",
      );
    });
    expect(table).toEqual([
      { method: "GET", url: "/health", access: { scope: "public" } },
      { method: "GET", url: "/apps/:app_slug/x", access: { scope: "app", permission: "data:read" } },
    ]);
  });
});
