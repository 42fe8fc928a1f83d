// The live API contract's "done when", walked on a real server over HTTP: a Fastify app with the
// SDK (bodies captured, consumers named) and an APILens-shaped client send traffic with
// payloads; a pass by the scheduler's own trigger infers the contract; a declared document is
// uploaded and the report shows undocumented, unused and conformance, and the differences from
// the declaration; the app stops returning a field; the next pass makes a breaking change naming
// the consumers that used it, and a signed webhook is delivered to a real receiver.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ContractChange, ContractReport, DeclaredDiff, DeclaredDocument } from "@sightline/contracts";
import fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../../server/src/modules/alerts/index.js";
import { createTestContext, type TestContext } from "../../server/test/support/app.js";
import { type ManualClock, manualClock } from "../../server/test/support/clock.js";
import { createIngestFixture, type IngestFixture } from "../../server/test/ingest/helpers.js";
import { pythonJson, pythonRequestRecord } from "../../server/test/ingest/fixtures/apilens-wire.js";
import { sightlinePlugin } from "../src/adapters/fastify.js";
import { createSightline, setConsumer, type Sightline } from "../src/index.js";
import { eventually } from "./support/sightline.js";

const DECLARED = {
  openapi: "3.1.0",
  info: { title: "Shop", version: "1" },
  paths: {
    "/orders/{orderId}": {
      get: {
        parameters: [{ name: "orderId", in: "path", required: true, schema: { type: "integer" } }],
        responses: {
          "200": {
            description: "An order",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["id", "status", "placed_on"],
                  properties: {
                    id: { type: "integer" },
                    status: { type: "string" },
                    placed_on: { type: "string", format: "date" },
                  },
                },
              },
            },
          },
        },
      },
    },
    "/refunds": { post: { responses: { "201": { description: "Refunded" } } } },
  },
};

describe("the API contract from traffic to a delivered breaking-change alert", () => {
  let ctx: TestContext;
  let clock: ManualClock;
  let fx: IngestFixture;
  let url: string;
  let app: FastifyInstance;
  let appUrl: string;
  let sdk: Sightline;
  let dropped = false;
  const hooks: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
  const receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      hooks.push({ headers: request.headers, body });
      response.writeHead(200).end("ok");
    });
  });
  let secret = "";
  const base = () => `/api/v1/projects/${fx.project.slug}/api`;
  const scope = () => `app=${fx.checkout.slug}&environment=production`;

  async function get<T>(path: string): Promise<T> {
    const reply = await fx.api.get(path);
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<T>();
  }

  /** Calls through the instrumented app, as `consumer`; waits until Sightline stored them. */
  async function callApp(consumer: string, count: number): Promise<void> {
    for (let index = 0; index < count; index++) {
      const reply = await fetch(`${appUrl}/orders/${index + 1}`, { headers: { "x-consumer": consumer } });
      await reply.arrayBuffer();
    }
  }

  /** One pass by the scheduler's trigger, once every call so far is old enough to be read. */
  async function pass(stored: number): Promise<void> {
    sdk.flush();
    await eventually(
      () => countStored(),
      (count) => count >= stored,
    );
    clock.advance(Math.max(0, Date.now() - clock.now().getTime()) + ctx.deps.contract.timing.latenessMs + 1);
    expect(await ctx.deps.contract.scheduler.tick()).toBeDefined();
  }

  async function countStored(): Promise<number> {
    const reply = await fx.api.get(
      `/api/v1/projects/${fx.project.slug}/data/requests?app_slugs=${fx.checkout.slug}&page_size=500`,
    );
    return reply.json<{ items: unknown[] }>().items.length;
  }

  beforeAll(async () => {
    clock = manualClock(new Date());
    ctx = await createTestContext({ clock, env: { ALERTS_ALLOW_PRIVATE_TARGETS: "true" } });
    fx = await createIngestFixture(ctx);
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hook = (
      await fx.api.post(`/api/v1/projects/${fx.project.slug}/notification-channels`, {
        name: "hook",
        type: "webhook",
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      })
    ).json<{ id: string; secret: string }>();
    secret = hook.secret;
    const rule = await fx.api.post(`${base()}/alert-rules`, { name: "Breaking", channel_ids: [hook.id] });
    expect(rule.statusCode, rule.body).toBe(201);

    sdk = createSightline({
      apiKey: fx.projectKey,
      app: fx.checkout.slug,
      url,
      environment: "production",
      flushIntervalMs: 50,
      captureBodies: true,
    });
    app = fastify();
    await app.register(sightlinePlugin(sdk));
    app.addHook("onRequest", async (request) => {
      const consumer = String(request.headers["x-consumer"] ?? "");
      setConsumer(request, { id: consumer, name: consumer.toUpperCase() });
    });
    app.get<{ Params: { id: string } }>("/orders/:id", async (request) => ({
      id: Number(request.params.id),
      status: "paid",
      ...(dropped ? {} : { placed_on: "2026-03-01" }),
    }));
    appUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await sdk?.close();
    await app?.close();
    await ctx?.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("infers the contract from the SDK's and an APILens client's payloads", async () => {
    await callApp("acme", 60);
    await callApp("globex", 50);
    // An APILens (Python) client's records, posted over HTTP as that SDK serialises them.
    const at = new Date(Date.now() - 1_000);
    const python = Array.from({ length: 25 }, (_, index) => ({
      ...pythonRequestRecord({
        at,
        micros: index,
        appId: fx.checkout.slug,
        method: "post",
        path: `/invoices/${1000 + index}/pay`,
        statusCode: 200,
        responseTimeMs: 12,
        requestHeaders: { "Content-Type": "application/json" },
        responseHeaders: { "Content-Type": "application/json" },
        consumer: { id: "initech", name: "Initech", group: "" },
      }),
      request_payload: pythonJson({ amount: 12.5 + index, currency: "EUR" }),
      response_payload: pythonJson({ id: 1000 + index, paid: true }),
    }));
    const posted = await fetch(`${url}/api/v1/ingest/requests`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": fx.projectKey },
      body: `{"requests":${pythonJson(python)}}`,
    });
    expect(posted.status).toBe(200);
    await pass(135);

    const document = await get<{ paths: Record<string, Record<string, unknown>> }>(
      `${base()}/contract?${scope()}`,
    );
    expect(Object.keys(document.paths).sort()).toEqual(["/invoices/{id}/pay", "/orders/{id}"]);
    expect(JSON.stringify(document.paths["/orders/{id}"])).toContain(
      '"placed_on":{"type":"string","format":"date"',
    );
    expect(JSON.stringify(document.paths["/invoices/{id}/pay"])).toContain('"currency":{"type":"string"');
  });

  it("compares the declared document with traffic", async () => {
    const put = await fx.api.post(`${base()}/declared?app=${fx.checkout.slug}`, DECLARED);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<DeclaredDocument>().operations).toBe(2);
    const report = await get<ContractReport>(`${base()}/report?${scope()}`);
    expect(report.undocumented).toEqual([{ method: "POST", path: "/invoices/{id}/pay", requests: 25 }]);
    expect(report.unused).toEqual([{ method: "POST", path: "/refunds", requests: 0 }]);
    expect(report.conformance).toMatchObject([
      {
        method: "GET",
        path: "/orders/{orderId}",
        sampled_responses: 110,
        failing_responses: 0,
        failures: [],
      },
    ]);
    const diff = await get<DeclaredDiff>(`${base()}/declared/diff?${scope()}`);
    expect(diff.differences.map((item) => [item.kind, item.method, item.path, item.consumers])).toEqual([
      [
        "operation_added",
        "POST",
        "/invoices/{id}/pay",
        [{ consumer_id: "initech", consumer_name: "Initech", requests: 25 }],
      ],
    ]);
  });

  it("turns a field gone from traffic into a breaking change naming its consumers, and alerts", async () => {
    dropped = true;
    await callApp("acme", 20);
    await callApp("globex", 10);
    await pass(165);

    const changes = await get<{ data: ContractChange[] }>(`${base()}/changes?breaking=true`);
    expect(changes.data.map((change) => [change.kind, change.path, change.field, change.consumers])).toEqual([
      [
        "response_field_removed",
        "/orders/{id}",
        "/placed_on",
        [
          { consumer_id: "acme", consumer_name: "ACME", requests: 60 },
          { consumer_id: "globex", consumer_name: "GLOBEX", requests: 50 },
        ],
      ],
    ]);
    // The pass delivered the notification before it ended.
    expect(hooks).toHaveLength(1);
    const [hook] = hooks;
    const timestamp = Number(hook?.headers["x-sightline-timestamp"]);
    expect(hook?.headers["x-sightline-signature"]).toBe(signWebhook(secret, timestamp, hook?.body ?? ""));
    const body = JSON.parse(hook?.body ?? "{}") as { links: { change: string }; changes: unknown[] };
    expect(body.links.change).toMatch(new RegExp(`/api/changes/${changes.data[0]?.id}$`));
    // Against the declaration the field is promised and now missing, for the calls that lacked it.
    const diff = await get<DeclaredDiff>(`${base()}/declared/diff?${scope()}`);
    expect(diff.differences[0]).toMatchObject({
      kind: "response_field_removed",
      breaking: true,
      field: "/placed_on",
      consumers: [
        { consumer_id: "acme", consumer_name: "ACME", requests: 20 },
        { consumer_id: "globex", consumer_name: "GLOBEX", requests: 10 },
      ],
    });
  });
});
