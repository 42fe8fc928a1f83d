// OpenTelemetry in, end to end: an HTTP service instrumented with the OpenTelemetry JS SDK
// exports spans and logs over real HTTP to a real Sightline (port 0), configured only with the
// documented OTEL_* variables, once with the protobuf exporters (gzip) and once with the JSON
// ones; its traces, requests, route analytics and logs then show through the query routes.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { createIngestFixture, type IngestFixture } from "../ingest/helpers.js";
import { type InstrumentedApp, startInstrumentedApp } from "./instrumented-app.js";

interface RequestItem {
  method: string;
  path: string;
  route: string;
  status_code: number;
  environment: string;
  response_time_ms: number;
  request_size: number;
  response_size: number;
  ip_address: string;
  user_agent: string;
  consumer_id: string;
  trace_id: string;
  span_id: string;
}

interface LogItem {
  level: string;
  message: string;
  logger_name: string;
  environment: string;
  attributes: Record<string, string>;
  trace_id: string;
  span_id: string;
}

describe("an app instrumented with the OpenTelemetry JS SDK", () => {
  let ctx: TestContext;
  let fx: IngestFixture;
  let sightline: string;
  const apps: InstrumentedApp[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    fx = await createIngestFixture(ctx);
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    sightline = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await ctx.close();
  });

  const requestsOf = async (appSlug: string) =>
    (
      await fx.api.get(`/api/v1/projects/${fx.project.slug}/data/requests?app_slugs=${appSlug}&page_size=100`)
    ).json<{
      items: RequestItem[];
      total_count: number;
    }>();
  const traceOf = async (traceId: string) =>
    (await fx.api.get(`/api/v1/projects/${fx.project.slug}/data/traces/${traceId}`)).json<{
      spans: Array<Record<string, unknown>>;
      requests: Array<Record<string, unknown>>;
      logs: Array<Record<string, unknown>>;
    }>();
  const logsOf = async (appSlug: string) =>
    (await fx.api.get(`/api/v1/projects/${fx.project.slug}/data/logs?app_slugs=${appSlug}`)).json<{
      items: LogItem[];
    }>();

  it("exporting protobuf (gzip) shows its requests, analytics by http.route, consumers and logs", async () => {
    const app = await startInstrumentedApp({
      protocol: "protobuf",
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${sightline}/api/v1/otlp`,
        OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${fx.projectKey}`,
        OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
      },
      resource: { "service.name": "checkout", "deployment.environment.name": "Staging" },
      conventions: "current",
    });
    apps.push(app);

    const headers = { "user-agent": "shop-mobile/2.1", "x-customer": "customer-42" };
    expect((await fetch(`${app.url}/users/42?expand=orders`, { headers })).status).toBe(200);
    expect((await fetch(`${app.url}/users/7`, { headers })).status).toBe(200);
    expect(
      (await fetch(`${app.url}/orders`, { method: "POST", body: '{"sku":"A-1"}', headers })).status,
    ).toBe(201);
    expect((await fetch(`${app.url}/nowhere`)).status).toBe(404);
    await app.flush();

    const { items, total_count } = await requestsOf("checkout");
    expect(total_count).toBe(4);
    const user42 = items.find((item) => item.path.startsWith("/users/42"));
    const span42 = app.spans.get("GET /users/42?expand=orders");
    expect(user42).toMatchObject({
      method: "GET",
      route: "/users/{id}",
      status_code: 200,
      environment: "staging",
      ip_address: "127.0.0.1",
      user_agent: "shop-mobile/2.1",
      consumer_id: "customer-42",
      trace_id: span42?.traceId,
      span_id: span42?.spanId,
    });
    expect(user42?.response_time_ms).toBeGreaterThanOrEqual(0);
    const order = items.find((item) => item.method === "POST");
    expect(order).toMatchObject({ path: "/orders", route: "/orders", status_code: 201, request_size: 13 });
    expect(order?.response_size).toBe(Buffer.byteLength('{"ok":true}'));
    // A SERVER span without http.route still is a request: its template is derived from the path.
    expect(items.map((item) => `${item.method} ${item.route} ${item.status_code}`).sort()).toEqual([
      "GET /nowhere 404",
      "GET /users/{id} 200",
      "GET /users/{id} 200",
      "POST /orders 201",
    ]);

    const stats = (await fx.api.get(`/api/v1/apps/checkout/endpoint-stats`)).json<{
      items: Array<{ method: string; path: string; total_requests: number }>;
    }>();
    expect(stats.items.map(({ method, path, total_requests }) => ({ method, path, total_requests }))).toEqual(
      expect.arrayContaining([
        { method: "GET", path: "/users/{id}", total_requests: 2 },
        { method: "POST", path: "/orders", total_requests: 1 },
      ]),
    );
    const consumers = (await fx.api.get(`/api/v1/apps/checkout/consumers`)).json<
      Array<{ consumer_id: string; total_requests: number }>
    >();
    expect(consumers).toEqual(
      expect.arrayContaining([expect.objectContaining({ consumer_id: "customer-42", total_requests: 3 })]),
    );

    // Every span is kept: the trace route shows the INTERNAL child under its SERVER parent, with
    // the request record the SERVER span became.
    const trace = await traceOf(span42?.traceId ?? "");
    expect(trace.spans).toEqual([
      expect.objectContaining({
        span_id: span42?.spanId,
        parent_span_id: "",
        depth: 0,
        name: "GET /users/:id",
        kind: "server",
        service_name: "checkout",
        environment: "staging",
        status: "ok",
        status_code: 200,
        attributes: expect.objectContaining({ "http.route": "/users/:id", "url.query": "expand=orders" }),
      }),
      expect.objectContaining({
        parent_span_id: span42?.spanId,
        depth: 1,
        name: "load user",
        kind: "internal",
        status_code: 0,
      }),
    ]);
    expect(trace.requests).toEqual([
      expect.objectContaining({ span_id: span42?.spanId, route: "/users/{id}" }),
    ]);
    const recent = (
      await fx.api.get(`/api/v1/projects/${fx.project.slug}/data/traces?app_slugs=checkout`)
    ).json<{
      items: Array<{ trace_id: string; span_count: number; root: { name: string; service_name: string } }>;
    }>().items;
    expect(recent.find((item) => item.trace_id === span42?.traceId)).toMatchObject({
      span_count: 2,
      root: { name: "GET /users/:id", service_name: "checkout" },
    });

    const logs = (await logsOf("checkout")).items;
    const orderSpan = app.spans.get("POST /orders");
    expect((await traceOf(orderSpan?.traceId ?? "")).logs).toEqual([
      expect.objectContaining({ message: "order took the slow path", span_id: orderSpan?.spanId }),
    ]);
    expect(logs).toEqual([
      expect.objectContaining({
        level: "WARNING",
        message: "order took the slow path",
        logger_name: "shop.orders",
        environment: "staging",
        trace_id: orderSpan?.traceId,
        span_id: orderSpan?.spanId,
        attributes: expect.objectContaining({ "order.items": "3", "order.express": "true" }),
      }),
    ]);
  });

  it("exporting OTLP/JSON with the older HTTP attribute names shows its requests and logs", async () => {
    const app = await startInstrumentedApp({
      protocol: "json",
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `${sightline}/api/v1/otlp`,
        OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${fx.projectKey}`,
      },
      resource: { "service.name": "Billing", "deployment.environment": "qa" },
      conventions: "legacy",
    });
    apps.push(app);

    expect(
      (await fetch(`${app.url}/users/abc-123`, { headers: { "user-agent": "legacy-client/1" } })).status,
    ).toBe(200);
    expect((await fetch(`${app.url}/orders`, { method: "POST", body: "{}" })).status).toBe(201);
    await app.flush();

    const { items } = await requestsOf("billing");
    expect(items).toHaveLength(2);
    const span = app.spans.get("GET /users/abc-123");
    expect(items.find((item) => item.method === "GET")).toMatchObject({
      path: "/users/abc-123",
      route: "/users/{id}",
      status_code: 200,
      environment: "qa",
      ip_address: "127.0.0.1",
      user_agent: "legacy-client/1",
      trace_id: span?.traceId,
      span_id: span?.spanId,
    });
    expect(items.find((item) => item.method === "POST")).toMatchObject({ route: "/orders", request_size: 2 });
    expect((await traceOf(span?.traceId ?? "")).spans).toEqual([
      expect.objectContaining({ kind: "server", service_name: "Billing", environment: "qa", depth: 0 }),
      expect.objectContaining({ kind: "internal", name: "load user", depth: 1 }),
    ]);
    const logs = (await logsOf("billing")).items;
    expect(logs).toEqual([
      expect.objectContaining({ level: "WARNING", message: "order took the slow path", environment: "qa" }),
    ]);
  });
});
