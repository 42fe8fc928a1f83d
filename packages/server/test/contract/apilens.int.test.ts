// Records in the APILens SDKs' wire format feed the live API contract: the Python SDK's records
// (headers as JSON text, payloads as strings, microsecond timestamps) and the TypeScript SDK's
// (Express route patterns sent as the path), posted to the real ingest route, then one pass.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { ingest } from "../support/query-fixture.js";
import { pythonJson, pythonRequestRecord, typescriptSdkRecord } from "../ingest/fixtures/apilens-wire.js";
import { createIngestFixture, type IngestFixture } from "../ingest/helpers.js";

describe("payloads sent by the APILens SDKs", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await createIngestFixture(ctx);
    const at = new Date(Date.now() - 30_000);
    const python = Array.from({ length: 25 }, (_, index) => ({
      ...pythonRequestRecord({
        at,
        micros: index,
        appId: fx.checkout.slug,
        method: "post",
        path: `/invoices/${1000 + index}/pay?dry_run=true`,
        statusCode: 200,
        responseTimeMs: 12,
        requestHeaders: { "Content-Type": "application/json", Authorization: "Bearer secret" },
        responseHeaders: { "Content-Type": "application/json" },
        consumer: { id: "acme", name: "Acme", group: "" },
      }),
      request_payload: pythonJson({ amount: 12.5 + index, currency: "EUR", card: "4242 4242 4242 4242" }),
      response_payload: pythonJson({ id: 1000 + index, paid: true, paid_at: "2026-03-01T10:00:00Z" }),
    }));
    const typescript = Array.from({ length: 25 }, (_, index) => ({
      ...typescriptSdkRecord(new Date(at.getTime() + index), fx.checkout.slug, fx.project.slug),
      path: "/users/:id",
      response_payload: JSON.stringify({ id: String(index), ok: true }),
    }));
    // The Python SDK's body as it serialises it (floats with a fraction, ASCII escapes).
    const posted = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/requests",
      headers: { "content-type": "application/json", "x-api-key": fx.projectKey },
      payload: `{"requests":${pythonJson(python)}}`,
    });
    expect(posted.json<{ accepted: number }>().accepted, posted.body).toBe(python.length);
    await ingest(ctx, "requests", typescript, fx.projectKey);
    await ctx.deps.contract.job.run(new Date(Date.now() + 60_000));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("infers both SDKs' operations and bodies, keeping no card number", async () => {
    const reply = await fx.api.get(
      `/api/v1/projects/${fx.project.slug}/api/contract?app=${fx.checkout.slug}&environment=production`,
    );
    expect(reply.statusCode, reply.body).toBe(200);
    const document = reply.json<{ paths: Record<string, Record<string, Record<string, unknown>>> }>();
    expect(Object.keys(document.paths).sort()).toEqual(["/invoices/{id}/pay", "/users/{id}"]);
    const pay = document.paths["/invoices/{id}/pay"]?.post;
    expect(pay?.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
      { name: "dry_run", in: "query", required: true, schema: { type: "boolean" } },
    ]);
    expect(JSON.stringify(pay?.requestBody)).toContain('"currency":{"type":"string"');
    expect(JSON.stringify(pay?.responses)).toContain('"paid_at":{"type":"string","format":"date-time"');
    expect(JSON.stringify(document.paths["/users/{id}"]?.get)).toContain('"ok":{"type":"boolean"');
    expect(reply.body).not.toContain("4242");
    expect(reply.body).not.toContain("secret");
  });
});
