// The SDK's payload capture feeds the live API contract: a Fastify app instrumented with the
// plugin (bodies captured, secrets masked) answers calls, the records reach a real Sightline,
// one inference pass runs, and the inferred document describes the route templates, parameters
// and the request and response bodies — with the masked values never kept as examples.
import fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sightlinePlugin } from "../src/adapters/fastify.js";
import { createSightline } from "../src/index.js";
import { eventually, type RealSightline, startSightline } from "./support/sightline.js";

describe("payloads captured by the SDK", () => {
  let sightline: RealSightline;
  let document: Record<string, unknown>;

  beforeAll(async () => {
    sightline = await startSightline();
    const sdk = createSightline({
      apiKey: sightline.key,
      app: sightline.app,
      url: sightline.url,
      environment: "production",
      flushIntervalMs: 50,
      captureBodies: true,
    });
    const app = fastify();
    await app.register(sightlinePlugin(sdk));
    app.get<{ Params: { id: string } }>("/orders/:id", async (request) => ({
      id: Number(request.params.id),
      status: "paid",
      placed_at: "2026-03-01T10:00:00Z",
      items: [{ sku: "A-1", quantity: 2 }],
    }));
    app.post("/orders", async (_request, reply) => reply.code(201).send({ id: 7, status: "pending" }));
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    for (let index = 0; index < 30; index++) {
      await fetch(`${url}/orders/${index + 1}?expand=items`).then((response) => response.arrayBuffer());
      await fetch(`${url}/orders`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sku: "A-1", quantity: index + 1, password: "hunter2" }),
      }).then((response) => response.arrayBuffer());
    }
    await sdk.close();
    await app.close();
    await eventually(
      () => sightline.requests(),
      (items) => items.length >= 60,
    );
    await sightline.ctx.deps.contract.job.run(new Date(Date.now() + 60_000));
    const project = sightline.fixture.project.slug;
    const reply = await sightline.fixture.api.get(
      `/api/v1/projects/${project}/api/contract?app=${sightline.app}&environment=production`,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    document = reply.json<Record<string, unknown>>();
  });
  afterAll(async () => {
    await sightline?.close();
  });

  it("infers the operations, parameters and bodies", () => {
    const get = at(document, "paths", "/orders/{id}", "get");
    expect(at(get, "parameters")).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
      { name: "expand", in: "query", required: true, schema: { type: "string" } },
    ]);
    const response = at(get, "responses", "200", "content", "application/json", "schema");
    expect(at(response, "required")).toEqual(["id", "items", "placed_at", "status"]);
    expect(at(response, "properties", "placed_at", "format")).toBe("date-time");
    expect(at(response, "properties", "items", "items", "required")).toEqual(["quantity", "sku"]);
    const body = at(
      document,
      "paths",
      "/orders",
      "post",
      "requestBody",
      "content",
      "application/json",
      "schema",
    );
    expect(at(body, "required")).toEqual(["password", "quantity", "sku"]);
    expect(at(body, "properties", "quantity", "type")).toBe("integer");
    expect(at(body, "properties", "password", "type")).toBe("string");
  });

  it("keeps no masked or secret value", () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain("hunter2");
    expect(text).not.toMatch(/REDACTED|\*\*\*/);
  });
});

function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
