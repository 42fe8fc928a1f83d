// The contract end to end on SQLite and PostgreSQL: records with payloads go through the real
// ingest route, the inference pass runs (by hand, at a manual clock), and the routes show the
// inferred document (JSON and YAML), its versions and diff; a change of the traffic's shape makes
// a version whose breaking change names exactly the consumers whose calls used the field; a
// declared document is uploaded, validated and compared with traffic (report and classified
// differences with their consumers).
import type {
  ContractChange,
  ContractReport,
  ContractVersion,
  DeclaredDiff,
  DeclaredDocument,
} from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { signWebhook } from "../../src/modules/alerts/index.js";
import { affectedConsumers } from "../../src/stores/events/queries/contract/contract.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { type HttpReceiver, startHttpReceiver } from "../support/http-receiver.js";
import { outboxMessagesFor } from "../support/mail.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { ingest, request } from "../support/query-fixture.js";

interface Fixture {
  readonly ctx: TestContext;
  readonly clock: ManualClock;
  readonly owner: Client;
  readonly headers: { authorization: string };
  readonly key: string;
  close(): Promise<void>;
}

/** Each metadata backend on chDB, and SQLite on the suite's ClickHouse server when there is one. */
function backends(): Array<{ name: string; metadata: MetadataBackend; events: EventsBackend }> {
  const [chdb, ...servers] = eventsBackends() as [EventsBackend, ...EventsBackend[]];
  return [
    ...metadataBackends().map((metadata) => ({ name: `${metadata.name} + chdb`, metadata, events: chdb })),
    ...servers.map((events) => ({
      name: `sqlite + ${events.name}`,
      metadata: { name: "sqlite" } as MetadataBackend,
      events,
    })),
  ];
}

async function createFixture(backend: MetadataBackend, events: EventsBackend): Promise<Fixture> {
  const clock = manualClock(new Date("2026-03-30T12:00:00.000Z"));
  const ctx = await createTestContext({
    metadata: backend,
    clock,
    env: {
      REQUESTS_RETENTION_DAYS: "3650",
      PUBLIC_URL: "https://sightline.example.com",
      ALERTS_ALLOW_PRIVATE_TARGETS: "true",
      ...(events.options.clickhouseUrl === undefined ? {} : { CLICKHOUSE_URL: events.options.clickhouseUrl }),
    },
  });
  const user = await signIn(ctx, "owner@shop.test");
  const owner = clientFor(ctx.app, user.headers);
  const made = async (url: string, body: unknown) => {
    const response = await owner.post(url, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Record<string, unknown>>();
  };
  await made("/api/v1/projects", { name: "Shop", slug: "shop" });
  await made("/api/v1/projects/shop/apps", { name: "Checkout", slug: "checkout" });
  const { key } = await made("/api/v1/projects/shop/api-keys", { name: "ingest" });
  return { ctx, clock, owner, headers: user.headers, key: String(key), close: () => ctx.close() };
}

const CONSUMERS = [
  { id: "acme", name: "Acme", calls: 60 },
  { id: "globex", name: "Globex", calls: 30 },
  { id: "initech", name: "Initech", calls: 15 },
];
const SCOPE = "app=checkout&environment=production";

function order(id: number, withDate: boolean): Record<string, unknown> {
  return {
    id,
    status: ["paid", "pending"][id % 2],
    total: id + 0.5,
    ...(withDate ? { placed_on: "2026-03-01" } : {}),
    items: [{ sku: `sku-${id}`, quantity: 1 }],
  };
}

describe.each(backends())("the API contract on $name", ({ metadata, events }) => {
  let fx: Fixture;
  const base = "/api/v1/projects/shop/api";

  async function calls(
    consumer: { id: string; name: string },
    count: number,
    withDate: boolean,
    secondsAgo: number,
  ): Promise<void> {
    const at = new Date(fx.clock.now().getTime() - secondsAgo * 1000);
    const records = Array.from({ length: count }, (_, index) =>
      request(at, {
        method: "GET",
        path: `/v1/orders/${100 + index}`,
        route: "/v1/orders/:id",
        consumer_id: consumer.id,
        consumer_name: consumer.name,
        response_headers: { "content-type": "application/json; charset=utf-8" },
        response_payload: JSON.stringify(order(100 + index, withDate)),
      }),
    );
    const posts = Array.from({ length: 3 }, (_, index) =>
      request(at, {
        method: "POST",
        path: "/v1/orders",
        route: "/v1/orders",
        status_code: 201,
        consumer_id: consumer.id,
        request_headers: { "content-type": "application/json" },
        request_payload: JSON.stringify({ items: [{ sku: `sku-${index}`, quantity: 2 }], coupon: "SPRING" }),
        response_payload: JSON.stringify(order(index, true)),
      }),
    );
    await ingest(fx.ctx, "requests", [...records, ...posts], fx.key);
  }

  async function pass(): Promise<void> {
    const summary = await fx.ctx.deps.contract.scheduler.tick();
    expect(summary).toBeDefined();
  }

  let receiver: HttpReceiver;
  let hookSecret: string;

  beforeAll(async () => {
    fx = await createFixture(metadata, events);
    receiver = await startHttpReceiver();
    const channel = async (body: Record<string, unknown>) => {
      const response = await fx.owner.post("/api/v1/projects/shop/notification-channels", body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string; secret?: string }>();
    };
    const hook = await channel({ name: "hook", type: "webhook", url: `${receiver.url}/hook` });
    hookSecret = String(hook.secret);
    const slack = await channel({ name: "slack", type: "slack", url: `${receiver.url}/slack` });
    const mail = await channel({ name: "mail", type: "email", addresses: ["ops@shop.test"] });
    const rule = async (body: Record<string, unknown>) => {
      const response = await fx.owner.post(`${base}/alert-rules`, body);
      expect(response.statusCode, response.body).toBe(201);
    };
    await rule({ name: "Breaking in checkout", app: "checkout", channel_ids: [hook.id, slack.id, mail.id] });
    // Never matches: another environment.
    await rule({ name: "Staging", environment: "staging", severity: "all", channel_ids: [hook.id] });
    for (const consumer of CONSUMERS) await calls(consumer, consumer.calls, true, 60);
    await pass();
  });
  afterAll(async () => {
    await fx?.close();
    await receiver?.close();
  });

  it("serves the inferred document as JSON and YAML", async () => {
    const json = await fx.owner.get(`${base}/contract?${SCOPE}`);
    expect(json.statusCode, json.body).toBe(200);
    const document = json.json<{ openapi: string }>();
    expect(document.openapi).toBe("3.1.0");
    const get = ["paths", "/v1/orders/{id}", "get"];
    expect(at(document, ...get, "parameters")).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
    ]);
    const schema = [...get, "responses", "200", "content", "application/json", "schema"];
    expect(at(document, ...schema, "required")).toEqual(["id", "items", "placed_on", "status", "total"]);
    expect(at(document, ...schema, "properties", "placed_on")).toMatchObject({
      type: "string",
      format: "date",
    });
    const body = ["paths", "/v1/orders", "post", "requestBody"];
    expect(at(document, ...body, "required")).toBe(true);
    expect(
      at(document, ...body, "content", "application/json", "schema", "properties", "coupon", "type"),
    ).toBe("string");

    const yaml = await fx.owner.get(`${base}/contract?${SCOPE}&format=yaml`);
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers["content-type"]).toMatch(/^application\/yaml/);
    expect(parseYaml(yaml.body)).toEqual(document);
  });

  it("makes a version with a breaking change naming exactly the consumers that used the field", async () => {
    fx.clock.advance(120_000);
    // The field disappears; only Acme and Globex call afterwards.
    await calls(CONSUMERS[0] as (typeof CONSUMERS)[number], 20, false, 30);
    await calls(CONSUMERS[1] as (typeof CONSUMERS)[number], 15, false, 30);
    await pass();
    const versions = (await fx.owner.get(`${base}/contract/versions?${SCOPE}`)).json<ContractVersion[]>();
    expect(versions.map((version) => [version.version, version.breaking_changes])).toEqual([
      [2, 1],
      [1, 0],
    ]);
    const page = (await fx.owner.get(`${base}/changes?breaking=true`)).json<{
      data: ContractChange[];
      total: number;
    }>();
    expect(page.total).toBe(1);
    const [change] = page.data;
    expect(change).toMatchObject({
      kind: "response_field_removed",
      breaking: true,
      method: "GET",
      path: "/v1/orders/{id}",
      status: "200",
      field: "/placed_on",
      consumers_total: 3,
      version: 2,
    });
    // Calls whose response carried placed_on in the look-back window: the first pass's only.
    expect(change?.consumers).toEqual(
      CONSUMERS.map((consumer) => ({
        consumer_id: consumer.id,
        consumer_name: consumer.name,
        requests: consumer.calls,
      })),
    );
    const one = await fx.owner.get(`${base}/changes/${change?.id}`);
    expect(one.json()).toEqual(change);

    const diff = await fx.owner.get(`${base}/contract/diff?${SCOPE}&from=1&to=2`);
    // Besides the removal, the pass learnt that `status` takes two values (not breaking).
    const kinds = diff.json<{ changes: Array<{ kind: string; breaking: boolean }> }>().changes;
    expect(kinds.filter((item) => item.breaking).map((item) => item.kind)).toEqual([
      "response_field_removed",
    ]);
  });

  it("notified the breaking change through the webhook (signed), Slack and e-mail, with its link", async () => {
    const [change] = (await fx.owner.get(`${base}/changes?breaking=true`)).json<{ data: ContractChange[] }>()
      .data;
    const link = `https://sightline.example.com/projects/shop/api/changes/${change?.id}`;
    const [hook, ...more] = receiver.on("/hook");
    expect(more).toEqual([]);
    expect(hook?.headers["x-sightline-event"]).toBe("contract.change");
    const timestamp = Number(hook?.headers["x-sightline-timestamp"]);
    expect(hook?.headers["x-sightline-signature"]).toBe(signWebhook(hookSecret, timestamp, hook?.body ?? ""));
    const body = JSON.parse(hook?.body ?? "{}") as Record<string, unknown>;
    expect(body).toMatchObject({ type: "contract.change", app: "checkout", version: 2, breaking_changes: 1 });
    expect(at(body, "links", "change")).toBe(link);
    expect(at(body, "changes", "0", "consumers_total")).toBe(3);
    expect(receiver.on("/slack")[0]?.body).toContain(link);
    await fx.ctx.deps.mail.flush();
    const mails = await outboxMessagesFor(fx.ctx.config.paths.outbox, "ops@shop.test");
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain("1 breaking API change in checkout (production)");
  });

  it("makes no version when a pass sees the same contract", async () => {
    fx.clock.advance(120_000);
    await calls(CONSUMERS[2] as (typeof CONSUMERS)[number], 25, false, 30);
    await pass();
    const versions = (await fx.owner.get(`${base}/contract/versions?${SCOPE}`)).json<ContractVersion[]>();
    expect(versions).toHaveLength(2);
    expect(receiver.on("/hook")).toHaveLength(1);
  });

  it("counts exactly the consumers whose request bodies carried a field, nested in arrays too", async () => {
    const at = new Date(fx.clock.now().getTime() - 30_000);
    const post = (consumer: string, body: unknown) =>
      request(at, {
        method: "POST",
        path: "/v1/orders",
        route: "/v1/orders",
        status_code: 201,
        consumer_id: consumer,
        request_payload: JSON.stringify(body),
      });
    await ingest(
      fx.ctx,
      "requests",
      [
        ...Array.from({ length: 4 }, () => post("hooli", { items: [{ quantity: 1 }] })),
        ...Array.from({ length: 2 }, () => post("umbrella", { items: [{ quantity: 1 }, { sku: "x" }] })),
        post("stark", "not json"),
      ],
      fx.key,
    );
    const project = (await fx.owner.get("/api/v1/projects/shop")).json<{ id: string }>();
    const app = (await fx.owner.get("/api/v1/projects/shop/apps/checkout")).json<{ id: string }>();
    const scope = (segments: string[]) => ({
      projectId: project.id,
      appId: app.id,
      environment: "production",
      method: "POST",
      route: "/v1/orders",
      status: null,
      field: { side: "request" as const, segments },
      sinceMs: fx.clock.now().getTime() - 86_400_000,
      untilMs: fx.clock.now().getTime(),
    });
    const counted = await affectedConsumers(fx.ctx.deps.events, scope(["items", "*", "sku"]), 100);
    // calls() posted three orders with items[].sku per call: Acme, Globex and Initech twice each.
    expect(counted).toEqual({
      consumers: [
        { consumerId: "acme", consumerName: "", requests: 6 },
        { consumerId: "globex", consumerName: "", requests: 6 },
        { consumerId: "initech", consumerName: "", requests: 6 },
        { consumerId: "umbrella", consumerName: "", requests: 2 },
      ],
      total: 4,
    });
    const coupon = await affectedConsumers(fx.ctx.deps.events, scope(["coupon"]), 2);
    expect(coupon.consumers.map((consumer) => consumer.consumerId)).toEqual(["acme", "globex"]);
    expect(coupon.total).toBe(3);
  });

  it("takes a declared document and reports undocumented, unused and non-conforming operations", async () => {
    const declared = [
      "openapi: 3.1.0",
      "info: { title: Checkout, version: '1' }",
      "paths:",
      "  /v1/orders/{orderId}:",
      "    get:",
      "      parameters: [{ name: orderId, in: path, required: true, schema: { type: integer } }]",
      "      responses:",
      "        '200':",
      "          description: An order",
      "          content:",
      "            application/json:",
      "              schema: { $ref: '#/components/schemas/Order' }",
      "  /v1/refunds:",
      "    post:",
      "      responses: { '201': { description: Refunded } }",
      "components:",
      "  schemas:",
      "    Order:",
      "      type: object",
      "      required: [id, placed_on]",
      "      properties: { id: { type: integer }, placed_on: { type: string, format: date } }",
    ].join("\n");
    const put = await fx.ctx.app.inject({
      method: "POST",
      url: `${base}/declared?app=checkout`,
      headers: { ...fx.headers, "content-type": "application/yaml" },
      payload: declared,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<DeclaredDocument>()).toMatchObject({ app: "checkout", openapi: "3.1.0", operations: 2 });
    expect((await fx.owner.get(`${base}/declared?app=checkout`)).json<DeclaredDocument>().title).toBe(
      "Checkout",
    );

    const report = (await fx.owner.get(`${base}/report?${SCOPE}`)).json<ContractReport>();
    expect(report.undocumented).toEqual([{ method: "POST", path: "/v1/orders", requests: 6 * 3 + 7 }]);
    expect(report.unused).toEqual([{ method: "POST", path: "/v1/refunds", requests: 0 }]);
    const total = CONSUMERS.reduce((sum, consumer) => sum + consumer.calls, 0) + 20 + 15 + 25;
    expect(report.conformance).toEqual([
      {
        method: "GET",
        path: "/v1/orders/{orderId}",
        sampled_requests: 0,
        failing_requests: 0,
        sampled_responses: total,
        failing_responses: 60,
        failures: [{ part: "200", pointer: "/placed_on", keyword: "required", count: 60 }],
      },
    ]);

    // The latest version read against the declaration, breaking first, then in the document's
    // order: placed_on is promised and no longer returned (to the callers whose responses lacked
    // it), POST /v1/orders is not declared at all, and three fields are returned undeclared.
    const diff = (await fx.owner.get(`${base}/declared/diff?${SCOPE}`)).json<DeclaredDiff>();
    const callers = (acme: number, globex: number, initech: number) => [
      { consumer_id: "acme", consumer_name: "Acme", requests: acme },
      { consumer_id: "globex", consumer_name: "Globex", requests: globex },
      { consumer_id: "initech", consumer_name: "Initech", requests: initech },
    ];
    const added = (field: string) => ({
      kind: "response_field_added",
      breaking: false,
      method: "GET",
      path: "/v1/orders/{id}",
      location: "response",
      status: "200",
      field,
      detail: `response field ${field} is not declared`,
      consumers: callers(80, 45, 40),
      consumers_total: 3,
    });
    expect(diff).toEqual({
      app: "checkout",
      environment: "production",
      version: 2,
      declared_uploaded_at: put.json<DeclaredDocument>().uploaded_at,
      window_days: 7,
      total: 5,
      breaking: 1,
      differences: [
        {
          kind: "response_field_removed",
          breaking: true,
          method: "GET",
          path: "/v1/orders/{id}",
          location: "response",
          status: "200",
          field: "/placed_on",
          detail: "response field /placed_on is declared required but never returned",
          consumers: [
            { consumer_id: "initech", consumer_name: "Initech", requests: 25 },
            { consumer_id: "acme", consumer_name: "Acme", requests: 20 },
            { consumer_id: "globex", consumer_name: "Globex", requests: 15 },
          ],
          consumers_total: 3,
        },
        {
          kind: "operation_added",
          breaking: false,
          method: "POST",
          path: "/v1/orders",
          location: "operation",
          status: null,
          field: null,
          detail: "POST /v1/orders is not declared",
          consumers: [
            { consumer_id: "acme", consumer_name: "", requests: 6 },
            { consumer_id: "globex", consumer_name: "", requests: 6 },
            { consumer_id: "initech", consumer_name: "", requests: 6 },
            { consumer_id: "hooli", consumer_name: "", requests: 4 },
            { consumer_id: "umbrella", consumer_name: "", requests: 2 },
            { consumer_id: "stark", consumer_name: "", requests: 1 },
          ],
          consumers_total: 6,
        },
        added("/items"),
        added("/status"),
        added("/total"),
      ],
    });
    // Version 1 still returned placed_on: only the undeclared fields and operation differ.
    const first = (await fx.owner.get(`${base}/declared/diff?${SCOPE}&version=1`)).json<DeclaredDiff>();
    expect(first.differences.map((difference) => [difference.kind, difference.field])).toEqual([
      ["operation_added", null],
      ["response_field_added", "/items"],
      ["response_field_added", "/status"],
      ["response_field_added", "/total"],
    ]);
    expect((await fx.owner.get(`${base}/declared/diff?${SCOPE}&version=9`)).statusCode).toBe(404);
  });

  it("refuses a document that is not OpenAPI, naming its first problem", async () => {
    const headers = { ...fx.headers, "content-type": "application/json" };
    const bad = await fx.ctx.app.inject({
      method: "POST",
      url: `${base}/declared?app=checkout`,
      headers,
      payload: JSON.stringify({ openapi: "3.1.0", info: { title: "x" }, paths: {} }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers["content-type"]).toMatch(/problem\+json/);
    expect(bad.json<{ errors: Array<{ pointer: string }> }>().errors[0]?.pointer).toBe("/info");
    const notYaml = await fx.ctx.app.inject({
      method: "POST",
      url: `${base}/declared?app=checkout`,
      headers: { ...headers, "content-type": "application/yaml" },
      payload: "openapi: [unclosed",
    });
    expect(notYaml.statusCode).toBe(422);
    const huge = await fx.ctx.app.inject({
      method: "POST",
      url: `${base}/declared?app=checkout`,
      headers,
      payload: `{"openapi":"3.1.0","x":"${"a".repeat(1_100_000)}"}`,
    });
    expect(huge.statusCode).toBe(413);
    expect((await fx.owner.delete(`${base}/declared?app=checkout`)).statusCode).toBe(200);
    expect((await fx.owner.get(`${base}/declared?app=checkout`)).statusCode).toBe(404);
    expect((await fx.owner.get(`${base}/declared/diff?${SCOPE}`)).statusCode).toBe(404);
  });
});

/** The value at `keys` inside parsed JSON, or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
