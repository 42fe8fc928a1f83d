// API keys over HTTP on both metadata dialects: the secret shown once, its format, listing with
// revoked keys, revocation effective for ingest at once, the live-key limit, and app keys.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

describe.each(metadataBackends())("API keys on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let api: Client;

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend });
    api = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    await api.post("/api/v1/projects", { name: "Shop" });
    await api.post("/api/v1/projects/shop/apps", { name: "Checkout" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("shows the whole key once, stores only its SHA-256, and lists it without the secret", async () => {
    const created = await api.post("/api/v1/projects/shop/api-keys", { name: " ingest " });
    expect(created.statusCode).toBe(201);
    const body = created.json<{
      id: string;
      name: string;
      prefix: string;
      key: string;
      created_at: string;
    }>();
    expect(Object.keys(body).sort()).toEqual(["created_at", "id", "key", "name", "prefix"]);
    expect(body.key).toMatch(/^sl_[0-9A-Za-z]{54}$/);
    expect(body.prefix).toBe(body.key.slice(0, 12));
    expect(body.name).toBe("ingest");
    const stored = await ctx.deps.metadata.db.selectFrom("api_keys").selectAll().executeTakeFirstOrThrow();
    expect(stored.key_hash).toBe(createHash("sha256").update(body.key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(body.key);

    const list = (await api.get("/api/v1/projects/shop/api-keys")).json();
    expect(list).toEqual([
      {
        id: body.id,
        name: "ingest",
        prefix: body.prefix,
        is_revoked: false,
        last_used_at: null,
        created_at: body.created_at,
      },
    ]);
  });

  it("lists revoked keys too, newest first, and revocation takes effect for ingest at once", async () => {
    const old = (await api.post("/api/v1/projects/shop/api-keys", { name: "old" })).json<{
      id: string;
      key: string;
    }>();
    const fresh = (await api.post("/api/v1/projects/shop/api-keys", { name: "new" })).json<{ id: string }>();
    const directory = ctx.deps.resources.ingestDirectory;
    expect(await directory.authenticateKey(old.key)).not.toBeNull();
    const revoked = await api.delete(`/api/v1/projects/shop/api-keys/${old.id}`);
    expect(revoked.json()).toEqual({ message: "API key revoked" });
    expect(await directory.authenticateKey(old.key)).toBeNull();
    const list = (await api.get("/api/v1/projects/shop/api-keys")).json<
      { id: string; is_revoked: boolean }[]
    >();
    expect(list.map((key) => [key.id, key.is_revoked])).toEqual([
      [fresh.id, false],
      [old.id, true],
    ]);
    // Revoking twice is harmless.
    expect((await api.delete(`/api/v1/projects/shop/api-keys/${old.id}`)).statusCode).toBe(200);
  });

  it("answers 404 for an unknown key id and 422 for a malformed one", async () => {
    expectProblem(
      await api.delete("/api/v1/projects/shop/api-keys/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"),
      "not_found",
    );
    const malformed = expectProblem(
      await api.delete("/api/v1/projects/shop/api-keys/not-a-uuid"),
      "validation_error",
    );
    expect(malformed.errors).toEqual([
      { pointer: "#/path/key_id", message: expect.stringContaining("uuid") },
    ]);
  });

  it("allows at most 20 live keys per project, counting app keys", async () => {
    for (let i = 0; i < 19; i++) {
      expect((await api.post("/api/v1/projects/shop/api-keys", { name: `k${i}` })).statusCode).toBe(201);
    }
    const appKey = (await api.post("/api/v1/apps/checkout/api-keys", { name: "app" })).json<{ id: string }>();
    expectProblem(
      await api.post("/api/v1/projects/shop/api-keys", { name: "one too many" }),
      "limit_reached",
    );
    expectProblem(
      await api.post("/api/v1/apps/checkout/api-keys", { name: "one too many" }),
      "limit_reached",
    );
    await api.delete(`/api/v1/apps/checkout/api-keys/${appKey.id}`);
    expect((await api.post("/api/v1/projects/shop/api-keys", { name: "room again" })).statusCode).toBe(201);
  });

  it("scopes app keys to their app and lists them under the app only", async () => {
    const appKey = (await api.post("/api/v1/apps/checkout/api-keys", { name: "app" })).json<{
      id: string;
      key: string;
    }>();
    const project = (await api.get("/api/v1/projects/shop")).json<{ id: string }>();
    const app = (await api.get("/api/v1/apps/checkout")).json<{ id: string }>();
    expect(await ctx.deps.resources.ingestDirectory.authenticateKey(appKey.key)).toEqual({
      keyId: appKey.id,
      // A new project follows the server's retention days (null: none of its own).
      project: {
        id: project.id,
        slug: "shop",
        retention: { requests: null, logs: null, spans: null, rollups: null },
      },
      app: { id: app.id, slug: "checkout" },
    });
    expect(
      (await api.get("/api/v1/apps/checkout/api-keys")).json<{ id: string }[]>().map((k) => k.id),
    ).toEqual([appKey.id]);
    expect((await api.get("/api/v1/projects/shop/api-keys")).json()).toEqual([]);
    // The project route does not reach app keys, and vice versa.
    expectProblem(await api.delete(`/api/v1/projects/shop/api-keys/${appKey.id}`), "not_found");
    expect((await api.delete(`/api/v1/apps/checkout/api-keys/${appKey.id}`)).statusCode).toBe(200);
    expect(await ctx.deps.resources.ingestDirectory.authenticateKey(appKey.key)).toBeNull();
  });

  it("revokes an app's keys when the app is deleted, leaving project keys working", async () => {
    const appKey = (await api.post("/api/v1/apps/checkout/api-keys", { name: "app" })).json<{
      key: string;
    }>();
    const projectKey = (await api.post("/api/v1/projects/shop/api-keys", { name: "p" })).json<{
      key: string;
    }>();
    const directory = ctx.deps.resources.ingestDirectory;
    expect(await directory.authenticateKey(appKey.key)).not.toBeNull();
    await api.delete("/api/v1/apps/checkout");
    expect(await directory.authenticateKey(appKey.key)).toBeNull();
    expect(await directory.authenticateKey(projectKey.key)).not.toBeNull();
    expect(
      await directory.listLiveApps((await api.get("/api/v1/projects/shop")).json<{ id: string }>().id),
    ).toEqual([]);
  });

  it("records last use at most once a minute, off the request path", async () => {
    const key = (await api.post("/api/v1/projects/shop/api-keys", { name: "p" })).json<{ key: string }>();
    const directory = ctx.deps.resources.ingestDirectory;
    for (let i = 0; i < 5; i++) await directory.authenticateKey(key.key);
    const [listed] = (await api.get("/api/v1/projects/shop/api-keys")).json<
      { last_used_at: string | null }[]
    >();
    expect(listed?.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await directory.authenticateKey("sl_garbage")).toBeNull();
    expect(await directory.authenticateKey(`sl_${"x".repeat(54)}`)).toBeNull();
  });
});
