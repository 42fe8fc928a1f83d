// Tenant isolation: a second user gets 404 — exactly as for a missing resource — on every
// route of the first user's project, apps, keys, environments and endpoints, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

describe.each(metadataBackends())("tenant isolation on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let owner: Client;
  let stranger: Client;
  let keyId: string;
  let appKeyId: string;
  let endpointId: string;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    owner = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    stranger = clientFor(ctx.app, (await signIn(ctx, "stranger@example.com")).headers);
    await owner.post("/api/v1/projects", { name: "Secret" });
    await owner.post("/api/v1/projects/secret/apps", { name: "Vault" });
    keyId = (await owner.post("/api/v1/projects/secret/api-keys", { name: "k" })).json<{ id: string }>().id;
    appKeyId = (await owner.post("/api/v1/apps/vault/api-keys", { name: "k" })).json<{ id: string }>().id;
    await owner.post("/api/v1/apps/vault/environments", { name: "production" });
    endpointId = (await owner.post("/api/v1/apps/vault/endpoints", { method: "GET", path: "/x" })).json<{
      id: string;
    }>().id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  const routes = (): Array<[string, string, unknown?]> => [
    ["GET", "/api/v1/projects/secret"],
    ["PATCH", "/api/v1/projects/secret", { name: "Mine now" }],
    ["DELETE", "/api/v1/projects/secret"],
    ["GET", "/api/v1/projects/secret/apps"],
    ["POST", "/api/v1/projects/secret/apps", { name: "Intruder" }],
    ["GET", "/api/v1/projects/secret/apps/vault"],
    ["PATCH", "/api/v1/projects/secret/apps/vault", { name: "x" }],
    ["DELETE", "/api/v1/projects/secret/apps/vault"],
    ["GET", "/api/v1/projects/secret/api-keys"],
    ["POST", "/api/v1/projects/secret/api-keys", { name: "mine" }],
    ["DELETE", `/api/v1/projects/secret/api-keys/${keyId}`],
    ["POST", "/api/v1/apps", { project_slug: "secret", name: "Intruder" }],
    ["GET", "/api/v1/apps/vault"],
    ["GET", "/api/v1/apps/vault?project=secret"],
    ["PATCH", "/api/v1/apps/vault", { name: "x" }],
    ["DELETE", "/api/v1/apps/vault"],
    ["GET", "/api/v1/apps/vault/api-keys"],
    ["POST", "/api/v1/apps/vault/api-keys", { name: "mine" }],
    ["DELETE", `/api/v1/apps/vault/api-keys/${appKeyId}`],
    ["GET", "/api/v1/apps/vault/environments"],
    ["POST", "/api/v1/apps/vault/environments", { name: "mine" }],
    ["PATCH", "/api/v1/apps/vault/environments/production", { color: "#000000" }],
    ["DELETE", "/api/v1/apps/vault/environments/production"],
    ["GET", "/api/v1/apps/vault/endpoints"],
    ["POST", "/api/v1/apps/vault/endpoints", { method: "GET", path: "/mine" }],
    ["GET", `/api/v1/apps/vault/endpoints/${endpointId}`],
    ["PATCH", `/api/v1/apps/vault/endpoints/${endpointId}`, { description: "x" }],
    ["DELETE", `/api/v1/apps/vault/endpoints/${endpointId}`],
  ];

  it("answers 404 on every route of another user's resources", async () => {
    for (const [method, url, body] of routes()) {
      const send = { GET: stranger.get, POST: stranger.post, PATCH: stranger.patch, DELETE: stranger.delete }[
        method
      ];
      const response = await (send as (url: string, body?: unknown) => ReturnType<Client["get"]>)(url, body);
      expect({ route: `${method} ${url}`, status: response.statusCode }).toEqual({
        route: `${method} ${url}`,
        status: 404,
      });
      expectProblem(response, "not_found");
    }
  });

  it("answers for another user's project exactly as for a missing one", async () => {
    const other = await stranger.get("/api/v1/projects/secret");
    const missing = await stranger.get("/api/v1/projects/nothing-here");
    const strip = (body: string) => {
      const {
        request_id: _id,
        instance: _instance,
        detail: _detail,
        ...rest
      } = JSON.parse(body) as Record<string, unknown>;
      return rest;
    };
    expect(strip(other.body)).toEqual(strip(missing.body));
    expect(JSON.parse(other.body).detail).toBe('Project "secret" not found.');
  });

  it("left the owner's resources untouched and shows the stranger nothing", async () => {
    expect((await stranger.get("/api/v1/projects")).json()).toEqual([]);
    expect((await stranger.get("/api/v1/apps")).json()).toEqual([]);
    expect((await owner.get("/api/v1/projects/secret")).json()).toMatchObject({ name: "Secret" });
    expect((await owner.get("/api/v1/projects/secret/apps")).json()).toHaveLength(1);
    expect((await owner.get("/api/v1/projects/secret/api-keys")).json()).toMatchObject([
      { is_revoked: false },
    ]);
    expect((await owner.get("/api/v1/apps/vault/api-keys")).json()).toMatchObject([{ is_revoked: false }]);
    expect((await owner.get("/api/v1/apps/vault/environments")).json()).toMatchObject([{ color: "#6b7280" }]);
    expect((await owner.get("/api/v1/apps/vault/endpoints")).json()).toMatchObject([
      { path: "/x", description: "" },
    ]);
  });
});
