// Environments and endpoints of an app over HTTP on both metadata dialects, and their
// discovery from traffic (ensureEnvironments / ensureEndpoints): batched, cached, idempotent.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEndpointsService } from "../../src/modules/endpoints/endpoints.service.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

describe.each(metadataBackends())("environments and endpoints on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let api: Client;
  let appId: string;
  const queries: string[] = [];

  beforeEach(async () => {
    queries.length = 0;
    ctx = await createTestContext({ metadata: backend, onMetadataQuery: (sql) => queries.push(sql) });
    api = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    await api.post("/api/v1/projects", { name: "Shop" });
    appId = (await api.post("/api/v1/projects/shop/apps", { name: "Checkout" })).json<{ id: string }>().id;
  });
  afterEach(async () => {
    await ctx.close();
  });

  describe("environments", () => {
    it("creates environments named like ingest names them, in order", async () => {
      const created = await api.post("/api/v1/apps/checkout/environments", { name: "  Production EU " });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({
        id: expect.any(String),
        name: "production eu",
        slug: "production-eu",
        color: "#6b7280",
        order: 0,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      await api.post("/api/v1/apps/checkout/environments", { name: "staging", color: "#F59E0B" });
      const list = (await api.get("/api/v1/apps/checkout/environments")).json<
        { slug: string; color: string }[]
      >();
      expect(list.map((env) => [env.slug, env.color])).toEqual([
        ["production-eu", "#6b7280"],
        ["staging", "#f59e0b"],
      ]);
    });

    it("validates colour, refuses duplicates and more than 20 per app", async () => {
      const color = expectProblem(
        await api.post("/api/v1/apps/checkout/environments", { name: "x", color: "red" }),
        "validation_error",
      );
      expect(color.errors?.[0]?.pointer).toBe("/color");
      await api.post("/api/v1/apps/checkout/environments", { name: "prod" });
      expectProblem(await api.post("/api/v1/apps/checkout/environments", { name: "PROD" }), "conflict");
      for (let i = 1; i < 20; i++) await api.post("/api/v1/apps/checkout/environments", { name: `env ${i}` });
      expectProblem(
        await api.post("/api/v1/apps/checkout/environments", { name: "twenty-one" }),
        "limit_reached",
      );
    });

    it("updates and deletes an environment by slug", async () => {
      await api.post("/api/v1/apps/checkout/environments", { name: "staging" });
      const updated = await api.patch("/api/v1/apps/checkout/environments/staging", {
        color: "#22c55e",
        order: 4,
      });
      expect(updated.json()).toMatchObject({ name: "staging", color: "#22c55e", order: 4 });
      expectProblem(
        await api.patch("/api/v1/apps/checkout/environments/nope", { color: "#22c55e" }),
        "not_found",
      );
      expect((await api.delete("/api/v1/apps/checkout/environments/staging")).json()).toEqual({
        message: "Environment deleted",
      });
      expect((await api.get("/api/v1/apps/checkout/environments")).json()).toEqual([]);
    });

    it("discovers environments from traffic once, without duplicates or repeated writes", async () => {
      await api.post("/api/v1/apps/checkout/environments", { name: "production", color: "#ef4444" });
      const directory = ctx.deps.resources.ingestDirectory;
      await directory.ensureEnvironments(appId, ["production", "staging", " Staging ", "dev"]);
      const names = (await api.get("/api/v1/apps/checkout/environments")).json<
        { name: string; color: string }[]
      >();
      expect(names.map((env) => env.name)).toEqual(["production", "staging", "dev"]);
      expect(names[0]?.color).toBe("#ef4444");
      queries.length = 0;
      await directory.ensureEnvironments(appId, ["staging", "production", "dev"]);
      expect(queries).toEqual([]);
    });
  });

  describe("endpoints", () => {
    it("declares endpoints, refusing duplicate (method, path)", async () => {
      const created = await api.post("/api/v1/apps/checkout/endpoints", {
        method: "get",
        path: "/orders/{id}",
        description: "One order",
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toEqual({
        id: expect.any(String),
        method: "GET",
        path: "/orders/{id}",
        description: "One order",
        is_active: true,
        last_seen_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expectProblem(
        await api.post("/api/v1/apps/checkout/endpoints", { method: "GET", path: "/orders/{id}" }),
        "conflict",
      );
      expect(
        (await api.post("/api/v1/apps/checkout/endpoints", { method: "DELETE", path: "/orders/{id}" }))
          .statusCode,
      ).toBe(201);
      const bad = expectProblem(
        await api.post("/api/v1/apps/checkout/endpoints", { method: "GET", path: "orders" }),
        "validation_error",
      );
      expect(bad.errors?.[0]?.pointer).toBe("/path");
    });

    it("gets, updates and deletes an endpoint; malformed ids are 422, unknown ones 404", async () => {
      const { id } = (await api.post("/api/v1/apps/checkout/endpoints", { method: "GET", path: "/a" })).json<{
        id: string;
      }>();
      expect((await api.get(`/api/v1/apps/checkout/endpoints/${id}`)).json()).toMatchObject({ path: "/a" });
      const off = await api.patch(`/api/v1/apps/checkout/endpoints/${id}`, {
        is_active: false,
        description: "retired",
      });
      expect(off.json()).toMatchObject({ is_active: false, description: "retired" });
      expect(
        (await api.patch(`/api/v1/apps/checkout/endpoints/${id}`, { is_active: true })).json(),
      ).toMatchObject({
        is_active: true,
      });
      await api.post("/api/v1/apps/checkout/endpoints", { method: "GET", path: "/b" });
      expectProblem(await api.patch(`/api/v1/apps/checkout/endpoints/${id}`, { path: "/b" }), "conflict");
      expectProblem(await api.get("/api/v1/apps/checkout/endpoints/123"), "validation_error");
      expectProblem(
        await api.get("/api/v1/apps/checkout/endpoints/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"),
        "not_found",
      );
      expect((await api.delete(`/api/v1/apps/checkout/endpoints/${id}`)).json()).toEqual({
        message: "Endpoint deleted",
      });
      expectProblem(await api.get(`/api/v1/apps/checkout/endpoints/${id}`), "not_found");
    });

    it("discovers endpoints in one batch and only moves last_seen_at forward", async () => {
      const directory = ctx.deps.resources.ingestDirectory;
      await directory.ensureEndpoints(appId, [
        { method: "GET", path: "/users/{id}", seenAt: "2026-11-21T06:00:00.000Z" },
        { method: "GET", path: "/users/{id}", seenAt: "2026-11-21T06:00:05.000Z" },
        { method: "POST", path: "/users", seenAt: "2026-11-21T06:00:01.000Z" },
      ]);
      const list = () =>
        api.get("/api/v1/apps/checkout/endpoints").then((r) => r.json<Record<string, unknown>[]>());
      expect((await list()).map((e) => [e.method, e.path, e.last_seen_at])).toEqual([
        ["POST", "/users", "2026-11-21T06:00:01.000Z"],
        ["GET", "/users/{id}", "2026-11-21T06:00:05.000Z"],
      ]);
      queries.length = 0;
      // Within a minute of what was written: nothing to write.
      await directory.ensureEndpoints(appId, [
        { method: "GET", path: "/users/{id}", seenAt: "2026-11-21T06:00:30.000Z" },
      ]);
      expect(queries).toEqual([]);
      // A minute later it is written again.
      await directory.ensureEndpoints(appId, [
        { method: "GET", path: "/users/{id}", seenAt: "2026-11-21T06:01:10.000Z" },
      ]);
      expect((await list()).find((e) => e.method === "GET")?.last_seen_at).toBe("2026-11-21T06:01:10.000Z");
      // Another instance (cold cache) reporting older traffic never moves it back.
      const otherInstance = createEndpointsService({ db: ctx.deps.metadata.db, clock: ctx.deps.clock });
      await otherInstance.ensure(appId, [
        { method: "GET", path: "/users/{id}", seenAt: "2026-11-21T05:00:00.000Z" },
      ]);
      expect((await list()).find((e) => e.method === "GET")?.last_seen_at).toBe("2026-11-21T06:01:10.000Z");
      expect(await list()).toHaveLength(2);
    });
  });
});
