// Apps over HTTP on both metadata dialects: the project-scoped and the /apps routes, exact
// response shapes, slug rules, framework/icon validation, and ambiguous app slugs.
import { FRAMEWORKS } from "@sightline/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

describe.each(metadataBackends())("apps on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let api: Client;

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend });
    api = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    await api.post("/api/v1/projects", { name: "Shop" });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("creates an app in a project and returns the single-app form", async () => {
    const response = await api.post("/api/v1/projects/shop/apps", {
      name: "Checkout API",
      description: "Payments",
      framework: "fastify",
      icon: "🛒",
    });
    expect(response.statusCode).toBe(201);
    const project = (await api.get("/api/v1/projects/shop")).json();
    expect(response.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      project_id: project.id,
      name: "Checkout API",
      slug: "checkout-api",
      description: "Payments",
      framework: "fastify",
      icon: "🛒",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_heartbeat_at: null,
      alive: false,
    });
  });

  it("lists apps in the list-item form: no project_id, no updated_at", async () => {
    await api.post("/api/v1/projects/shop/apps", { name: "One" });
    await api.post("/api/v1/projects/shop/apps", { name: "Two", framework: "django" });
    const items = (await api.get("/api/v1/projects/shop/apps")).json<Record<string, unknown>[]>();
    expect(items.map((item) => item.slug)).toEqual(["two", "one"]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([
        "alive",
        "created_at",
        "description",
        "framework",
        "icon",
        "id",
        "last_heartbeat_at",
        "name",
        "slug",
      ]);
    }
    expect(items[0]).toMatchObject({ framework: "django", icon: "" });
    expect(items[1]).toMatchObject({ framework: "other" });
  });

  it("validates framework against the documented list and icon by length", async () => {
    for (const framework of FRAMEWORKS) {
      const created = await api.post("/api/v1/projects/shop/apps", { name: `App ${framework}`, framework });
      expect(created.statusCode).toBe(201);
    }
    const framework = expectProblem(
      await api.post("/api/v1/projects/shop/apps", { name: "x", framework: "rocket" }),
      "validation_error",
    );
    expect(framework.errors?.map((e) => e.pointer)).toContain("/framework");
    const icon = expectProblem(
      await api.post("/api/v1/projects/shop/apps", { name: "x", icon: "i".repeat(33) }),
      "validation_error",
    );
    expect(icon.errors?.map((e) => e.pointer)).toContain("/icon");
  });

  it("applies slug rules within the project", async () => {
    expect((await api.post("/api/v1/projects/shop/apps", { name: "API" })).json().slug).toBe("api");
    expect((await api.post("/api/v1/projects/shop/apps", { name: "API" })).json().slug).toBe("api-2");
    expect((await api.post("/api/v1/projects/shop/apps", { name: "Settings" })).json().slug).toBe(
      "settings-2",
    );
    expectProblem(await api.post("/api/v1/projects/shop/apps", { name: "x", slug: "api" }), "conflict");
    expectProblem(
      await api.post("/api/v1/projects/shop/apps", { name: "x", slug: "endpoints" }),
      "validation_error",
    );
    // Another project may use the same app slug.
    await api.post("/api/v1/projects", { name: "Blog" });
    expect((await api.post("/api/v1/projects/blog/apps", { name: "x", slug: "api" })).statusCode).toBe(201);
  });

  it("gets, renames (keeping the slug), re-slugs and deletes an app of a project", async () => {
    await api.post("/api/v1/projects/shop/apps", { name: "Checkout" });
    expect((await api.get("/api/v1/projects/shop/apps/checkout")).json()).toMatchObject({ name: "Checkout" });
    const renamed = await api.patch("/api/v1/projects/shop/apps/checkout", {
      name: "Checkout v2",
      framework: "koa",
    });
    expect(renamed.json()).toMatchObject({ name: "Checkout v2", slug: "checkout", framework: "koa" });
    const moved = await api.patch("/api/v1/projects/shop/apps/checkout", { slug: "pay" });
    expect(moved.json()).toMatchObject({ slug: "pay" });
    expect((await api.delete("/api/v1/projects/shop/apps/pay")).json()).toEqual({ message: "App deleted" });
    expectProblem(await api.get("/api/v1/projects/shop/apps/pay"), "not_found");
    // A deleted app releases its slug.
    expect((await api.post("/api/v1/projects/shop/apps", { name: "x", slug: "pay" })).statusCode).toBe(201);
  });

  it("serves /apps across the caller's projects, with project_slug", async () => {
    const created = await api.post("/api/v1/apps", { project_slug: "shop", name: "Search" });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ slug: "search", project_id: expect.any(String) });
    await api.post("/api/v1/projects", { name: "Blog" });
    await api.post("/api/v1/apps/", { project_slug: "blog", name: "Comments" });
    const list = (await api.get("/api/v1/apps/")).json<Record<string, unknown>[]>();
    expect(list.map((item) => [item.slug, item.project_slug])).toEqual([
      ["comments", "blog"],
      ["search", "shop"],
    ]);
    expect((await api.get("/api/v1/apps/search")).json()).toMatchObject({ name: "Search" });
    expect((await api.patch("/api/v1/apps/search", { description: "Full text" })).json()).toMatchObject({
      description: "Full text",
    });
    expect((await api.delete("/api/v1/apps/search")).json()).toEqual({ message: "App deleted" });
    expectProblem(await api.get("/api/v1/apps/search"), "not_found");
    expectProblem(await api.post("/api/v1/apps", { project_slug: "nope", name: "x" }), "not_found");
  });

  it("answers 409 naming the projects when an app slug is ambiguous, and ?project= resolves it", async () => {
    await api.post("/api/v1/projects", { name: "Blog" });
    await api.post("/api/v1/projects/shop/apps", { name: "API" });
    await api.post("/api/v1/projects/blog/apps", { name: "API" });
    const ambiguous = expectProblem(await api.get("/api/v1/apps/api"), "conflict");
    expect(ambiguous.detail).toContain("blog");
    expect(ambiguous.detail).toContain("shop");
    expect(ambiguous.projects).toEqual(["blog", "shop"]);
    const picked = await api.get("/api/v1/apps/api?project=blog");
    expect(picked.statusCode).toBe(200);
    expect(picked.json().project_id).toBe((await api.get("/api/v1/projects/blog")).json().id);
    expectProblem(await api.get("/api/v1/apps/api?project=nope"), "not_found");
    expectProblem(await api.get("/api/v1/apps/api/environments"), "conflict");
    expect((await api.get("/api/v1/apps/api/environments?project=shop")).statusCode).toBe(200);
  });
});
