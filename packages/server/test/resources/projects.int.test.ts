// Projects over HTTP on both metadata dialects: creation and slug rules, listing without N+1,
// renaming, and the soft-delete cascade that revokes keys for ingest at once.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

describe.each(metadataBackends())("projects on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let api: Client;
  const queries: string[] = [];

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend, onMetadataQuery: (sql) => queries.push(sql) });
    api = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("creates a project with a slug generated from its name", async () => {
    const response = await api.post("/api/v1/projects", { name: "  Shop Backend ", description: "Orders" });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Shop Backend",
      slug: "shop-backend",
      description: "Orders",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.any(String),
    });
  });

  it("adds a numeric suffix when a generated slug is taken or reserved", async () => {
    expect((await api.post("/api/v1/projects", { name: "Shop" })).json().slug).toBe("shop");
    expect((await api.post("/api/v1/projects", { name: "Shop" })).json().slug).toBe("shop-2");
    expect((await api.post("/api/v1/projects", { name: "Settings" })).json().slug).toBe("settings-2");
  });

  it("refuses a given slug that is taken (409), reserved or malformed (422)", async () => {
    await api.post("/api/v1/projects", { name: "One", slug: "acme" });
    expectProblem(await api.post("/api/v1/projects", { name: "Two", slug: "acme" }), "conflict");
    const reserved = expectProblem(
      await api.post("/api/v1/projects", { name: "Two", slug: "settings" }),
      "validation_error",
    );
    expect(reserved.errors).toEqual([{ pointer: "/slug", message: "is a reserved name" }]);
    for (const slug of ["Acme", "-acme", "acme-", "a_b", "x".repeat(65), ""]) {
      const bad = expectProblem(
        await api.post("/api/v1/projects", { name: "Two", slug }),
        "validation_error",
      );
      expect(bad.errors?.[0]?.pointer).toBe("/slug");
    }
  });

  it("refuses a blank name and unknown fields", async () => {
    const blank = expectProblem(await api.post("/api/v1/projects", { name: "   " }), "validation_error");
    expect(blank.errors).toEqual([{ pointer: "/name", message: "must not be blank" }]);
    const unknown = expectProblem(
      await api.post("/api/v1/projects", { name: "x", owner_id: "me" }),
      "validation_error",
    );
    expect(unknown.errors).toEqual([{ pointer: "/owner_id", message: "is not a known field" }]);
  });

  it("lists the projects the caller belongs to, newest first, with role and live app counts, in one query", async () => {
    const first = (await api.post("/api/v1/projects", { name: "First" })).json();
    const second = (await api.post("/api/v1/projects", { name: "Second" })).json();
    await api.post("/api/v1/projects/first/apps", { name: "A" });
    await api.post("/api/v1/projects/first/apps", { name: "B" });
    await api.post("/api/v1/projects/first/apps", { name: "C" });
    await api.delete("/api/v1/projects/first/apps/c");
    queries.length = 0;
    const response = await api.get("/api/v1/projects");
    expect(response.statusCode).toBe(200);
    expect(response.json<unknown[]>()).toEqual([
      {
        id: second.id,
        name: "Second",
        slug: "second",
        description: "",
        app_count: 0,
        role: "owner",
        created_at: second.created_at,
      },
      {
        id: first.id,
        name: "First",
        slug: "first",
        description: "",
        app_count: 2,
        role: "owner",
        created_at: first.created_at,
      },
    ]);
    expect(queries.filter((sql) => /from "projects"|from "apps"/i.test(sql))).toHaveLength(1);
  });

  it("renames without moving the slug, and moves it only when asked", async () => {
    await api.post("/api/v1/projects", { name: "Shop" });
    const renamed = await api.patch("/api/v1/projects/shop", {
      name: "Shop Platform",
      description: "All of it",
    });
    expect(renamed.json()).toMatchObject({ name: "Shop Platform", slug: "shop", description: "All of it" });
    const moved = await api.patch("/api/v1/projects/shop", { slug: "platform" });
    expect(moved.json()).toMatchObject({ slug: "platform" });
    expectProblem(await api.get("/api/v1/projects/shop"), "not_found");
    expect((await api.get("/api/v1/projects/platform")).statusCode).toBe(200);
    await api.post("/api/v1/projects", { name: "Other" });
    expectProblem(await api.patch("/api/v1/projects/other", { slug: "platform" }), "conflict");
  });

  it("soft-deletes a project with its apps and keys, refusing its keys at once", async () => {
    await api.post("/api/v1/projects", { name: "Shop" });
    const app = (await api.post("/api/v1/projects/shop/apps", { name: "Checkout" })).json();
    const projectKey = (await api.post("/api/v1/projects/shop/api-keys", { name: "ingest" })).json<{
      key: string;
    }>();
    const appKey = (await api.post("/api/v1/apps/checkout/api-keys", { name: "app ingest" })).json<{
      key: string;
    }>();
    const directory = ctx.deps.resources.ingestDirectory;
    // Warm the key cache: deletion must not leave a cached principal behind.
    expect(await directory.authenticateKey(projectKey.key)).toMatchObject({
      project: { slug: "shop" },
      app: null,
    });
    expect(await directory.authenticateKey(appKey.key)).toMatchObject({
      app: { id: app.id, slug: "checkout" },
    });

    const deleted = await api.delete("/api/v1/projects/shop");
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: "Project deleted" });

    expect(await directory.authenticateKey(projectKey.key)).toBeNull();
    expect(await directory.authenticateKey(appKey.key)).toBeNull();
    expectProblem(await api.get("/api/v1/projects/shop"), "not_found");
    expectProblem(await api.get("/api/v1/projects/shop/apps/checkout"), "not_found");
    expectProblem(await api.get("/api/v1/apps/checkout"), "not_found");
    expect((await api.get("/api/v1/projects")).json()).toEqual([]);
    const keys = await ctx.deps.metadata.db.selectFrom("api_keys").select(["revoked_at"]).execute();
    expect(keys.every((key) => key.revoked_at !== null)).toBe(true);

    // The slug is free again.
    const again = await api.post("/api/v1/projects", { name: "Shop" });
    expect(again.json()).toMatchObject({ slug: "shop" });
  });

  it("soft-deletes the projects of a deleted account and refuses their keys at once", async () => {
    await api.post("/api/v1/projects", { name: "Shop" });
    await api.post("/api/v1/projects", { name: "Blog" });
    const key = (await api.post("/api/v1/projects/shop/api-keys", { name: "ingest" })).json<{
      key: string;
    }>();
    const directory = ctx.deps.resources.ingestDirectory;
    expect(await directory.authenticateKey(key.key)).not.toBeNull();
    const other = clientFor(ctx.app, (await signIn(ctx, "other@example.com")).headers);
    await other.post("/api/v1/projects", { name: "Theirs" });

    expect((await api.delete("/api/v1/users/me")).statusCode).toBe(200);

    expect(await directory.authenticateKey(key.key)).toBeNull();
    const live = await ctx.deps.metadata.db
      .selectFrom("projects")
      .select("slug")
      .where("deleted_at", "is", null)
      .execute();
    expect(live.map((row) => row.slug)).toEqual(["theirs"]);
    // The slugs are free for others.
    expect((await other.post("/api/v1/projects", { name: "Shop" })).json()).toMatchObject({ slug: "shop" });
  });

  it("answers 401 without a valid bearer token", async () => {
    const anonymous = clientFor(ctx.app);
    expectProblem(await anonymous.get("/api/v1/projects"), "authentication_error");
    const forged = clientFor(ctx.app, { authorization: "Bearer not.a.token" });
    expectProblem(await forged.post("/api/v1/projects", { name: "x" }), "authentication_error");
  });
});
