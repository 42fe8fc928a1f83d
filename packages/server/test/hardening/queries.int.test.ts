// Inputs that used to reach a store and fail there (500): numbers the engine cannot bind, time
// zones Intl accepts but the engine cannot load, v7 ids whose time no record can have, and unique
// keys taken by a concurrent request — now 422, 404 and 409, on every metadata backend.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids.js";
import { MetadataConflictError } from "../../src/stores/metadata/index.js";
import { createEndpointsRepo } from "../../src/stores/metadata/repos/endpoints.repo.js";
import { createEnvironmentsRepo } from "../../src/stores/metadata/repos/environments.repo.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";

interface Parameter {
  in: string;
  name: string;
  schema?: { type?: string; maximum?: number; items?: { type?: string } };
}
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[]; security?: unknown[] }>> };

describe.each(metadataBackends())("store-bound inputs on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let owner: Client;
  let doc: Document;
  const project = { slug: "shop" };
  const app = { id: "", slug: "checkout" };

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    owner = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    expect((await owner.post("/api/v1/projects", { name: "Shop" })).statusCode).toBe(201);
    const created = await owner.post("/api/v1/projects/shop/apps", { name: "Checkout" });
    app.id = created.json<{ id: string }>().id;
    doc = (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json<Document>();
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Every numeric query parameter of every bearer GET, as [path with ids filled, name]. */
  function numericQueryParameters(): Array<[string, Parameter]> {
    const found: Array<[string, Parameter]> = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      const get = operations.get;
      if (get === undefined) continue;
      const path = template
        .replace("{project_slug}", project.slug)
        .replace("{app_slug}", app.slug)
        .replace(/\{[^}]+\}/g, newId());
      for (const parameter of get.parameters ?? []) {
        const type = parameter.schema?.type ?? parameter.schema?.items?.type;
        if (parameter.in === "query" && (type === "number" || type === "integer"))
          found.push([path, parameter]);
      }
    }
    return found;
  }

  it("gives every numeric query parameter a maximum and refuses what lies beyond it with 422", async () => {
    const parameters = numericQueryParameters();
    expect(parameters.map(([, parameter]) => parameter.name)).toEqual(
      expect.arrayContaining(["min_response_time", "max_response_time", "page", "page_size", "limit"]),
    );
    for (const [path, parameter] of parameters) {
      expect(parameter.schema?.maximum, `${path} ${parameter.name}`).toEqual(expect.any(Number));
      for (const value of ["1e16", String(2 ** 53 + 1), "Infinity", "-Infinity", "NaN", "1e400"]) {
        const response = await owner.get(`${path}?${parameter.name}=${value}`);
        const label = `${path}?${parameter.name}=${value}: ${response.body}`;
        expect(response.statusCode, label).toBeLessThan(500);
        if (response.statusCode !== 404) expect(response.statusCode, label).toBe(422);
      }
    }
  });

  it("answers windows that start at the Unix epoch (bound as '0', which the engine did not read)", async () => {
    for (const url of [
      `/api/v1/projects/${project.slug}/data/requests?since=1970-01-01`,
      `/api/v1/projects/${project.slug}/data/logs?since=1970-01-01T00:00:00Z`,
      `/api/v1/projects/${project.slug}/analytics/summary?since=1970-01-01&until=1970-01-02`,
    ]) {
      const response = await owner.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
  });

  describe("time zones", () => {
    it("accepts only zones both Intl and the engine know, in profiles and timeseries", async () => {
      // Intl accepts SystemV/AST4; the engine cannot load it.
      expect(new Intl.DateTimeFormat("en-US", { timeZone: "SystemV/AST4" }).resolvedOptions().timeZone).toBe(
        "SystemV/AST4",
      );
      const refused = expectProblem(
        await owner.patch("/api/v1/users/me", { timezone: "SystemV/AST4" }),
        "validation_error",
      );
      expect(refused.errors).toEqual([{ pointer: "/timezone", message: expect.any(String) }]);
      for (const url of [
        `/api/v1/apps/${app.slug}/analytics/timeseries`,
        `/api/v1/projects/${project.slug}/analytics/timeseries`,
        `/api/v1/apps/${app.slug}/analytics/endpoint-timeseries?method=GET&path=/x&`,
      ]) {
        const joiner = url.endsWith("&") ? "" : "?";
        expectProblem(await owner.get(`${url}${joiner}timezone=SystemV/AST4`), "validation_error");
        expect((await owner.get(`${url}${joiner}timezone=europe/paris`)).statusCode).toBe(200);
      }
      const saved = await owner.patch("/api/v1/users/me", { timezone: "asia/kolkata" });
      expect(saved.statusCode, saved.body).toBe(200);
      expect((await owner.get(`/api/v1/apps/${app.slug}/analytics/timeseries`)).statusCode).toBe(200);
    });

    it("accepts nearly every zone Intl lists", async () => {
      const zones = await ctx.deps.users.timeZones();
      const listed = Intl.supportedValuesOf("timeZone");
      const accepted = listed.filter((zone) => zones.canonical(zone) !== null);
      expect(accepted.length).toBeGreaterThan(listed.length * 0.95);
    });
  });

  describe("request ids outside the retention window", () => {
    const v7At = (ms: number) => {
      const hex = Math.max(0, ms).toString(16).padStart(12, "0").slice(-12);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
    };
    it.each([
      ["time 0", 0],
      ["before retention", Date.now() - 91 * 86_400_000],
      ["two hours ahead", Date.now() + 2 * 3_600_000],
      ["the largest v7 time", 2 ** 48 - 1],
    ])("answers 404 for a v7 id at %s", async (_name, ms) => {
      expectProblem(
        await owner.get(`/api/v1/projects/${project.slug}/data/requests/${v7At(ms)}`),
        "not_found",
      );
    });
  });

  describe("NUL characters, which PostgreSQL text cannot hold", () => {
    it("stores a name with NUL as U+FFFD and answers 404 for a slug with %00", async () => {
      const created = await owner.post("/api/v1/projects", {
        name: "Null\u0000Byte",
        description: "a\u0000b",
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ name: "Null\ufffdByte", description: "a\ufffdb" });
      for (const url of [
        "/api/v1/projects/a%00b",
        "/api/v1/apps/%00",
        `/api/v1/apps/${app.slug}?project=%00`,
      ]) {
        expectProblem(await owner.get(url), "not_found");
      }
      const renamed = await owner.patch("/api/v1/users/me", { first_name: "Ada\u0000" });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toMatchObject({ first_name: "Ada\ufffd" });
    });
  });

  describe("route templates the catalogue's index cannot hold", () => {
    // 2048 characters, but three bytes each and incompressible: over PostgreSQL's index entry limit.
    const wide = (length: number) =>
      Array.from({ length }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_000))).join("");

    it("refuses them with 422, from the endpoints routes and from ingest", async () => {
      const path = `/${wide(2047)}`;
      const created = await owner.post(`/api/v1/apps/${app.slug}/endpoints`, { method: "GET", path });
      expect(expectProblem(created, "validation_error").errors).toEqual([
        { pointer: "/path", message: "must be at most 2048 bytes of UTF-8" },
      ]);
      const key = (await owner.post(`/api/v1/projects/${project.slug}/api-keys`, { name: "wide" })).json<{
        key: string;
      }>().key;
      const record = {
        app_id: app.slug,
        timestamp: new Date().toISOString(),
        environment: "production",
        method: "GET",
        path,
        status_code: 200,
        response_time_ms: 1,
      };
      const ingested = await ctx.app.inject({
        method: "POST",
        url: "/api/v1/ingest/requests",
        headers: { "x-api-key": key },
        payload: { requests: [record, { ...record, path: "/short", route: path }] },
      });
      expect(expectProblem(ingested, "validation_error").errors).toEqual([
        {
          index: 0,
          pointer: "/requests/0/path",
          message: "its route template must be at most 2048 bytes of UTF-8",
        },
        {
          index: 1,
          pointer: "/requests/1/route",
          message: "its route template must be at most 2048 bytes of UTF-8",
        },
      ]);
    });
  });

  describe("unique keys", () => {
    it("answers one create 201 and every concurrent duplicate 409, for environments and endpoints", async () => {
      const creates: Array<[string, Record<string, unknown>]> = [
        [`/api/v1/apps/${app.slug}/environments`, { name: "racing" }],
        [`/api/v1/apps/${app.slug}/endpoints`, { method: "GET", path: "/racing/{id}" }],
        ["/api/v1/projects", { name: "Racing", slug: "racing" }],
        [`/api/v1/projects/${project.slug}/apps`, { name: "Racing", slug: "racing" }],
      ];
      for (const [url, body] of creates) {
        const answers = await Promise.all(Array.from({ length: 8 }, () => owner.post(url, body)));
        const statuses = answers.map((answer) => answer.statusCode).sort();
        expect(statuses, `${url}: ${answers.map((a) => a.body).join("\n")}`).toEqual([
          201, 409, 409, 409, 409, 409, 409, 409,
        ]);
        for (const answer of answers.filter((a) => a.statusCode === 409)) expectProblem(answer, "conflict");
      }
    });

    it("turns any repository's unique violation into MetadataConflictError", async () => {
      const db = ctx.deps.metadata.db;
      const now = new Date().toISOString();
      const environment = {
        app_id: app.id,
        name: "twice",
        slug: "twice",
        color: "#000000",
        position: 0,
        created_at: now,
        updated_at: now,
      };
      await createEnvironmentsRepo(db).insert({ id: newId(), ...environment });
      const second = createEnvironmentsRepo(db).insert({ id: newId(), ...environment, slug: "twice-2" });
      await expect(second).rejects.toBeInstanceOf(MetadataConflictError);
      await expect(second).rejects.toMatchObject({ columns: expect.arrayContaining(["name"]) });

      const endpoint = {
        app_id: app.id,
        method: "GET",
        path: "/twice",
        deactivated_at: null,
        last_seen_at: null,
        created_at: now,
        updated_at: now,
      };
      await createEndpointsRepo(db).insert({ id: newId(), ...endpoint });
      await expect(createEndpointsRepo(db).insert({ id: newId(), ...endpoint })).rejects.toBeInstanceOf(
        MetadataConflictError,
      );
      // Inside a transaction too, and the transaction rolls back.
      const inTransaction = db.transaction().execute(async (trx) => {
        await createEndpointsRepo(trx).insert({ id: newId(), ...endpoint, path: "/once" });
        await createEndpointsRepo(trx).insert({ id: newId(), ...endpoint });
      });
      await expect(inTransaction).rejects.toBeInstanceOf(MetadataConflictError);
      expect(await createEndpointsRepo(db).findByRoute(app.id, "GET", "/once")).toBeUndefined();
    });
  });
});
