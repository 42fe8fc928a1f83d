// The original APILens clients against a real listening Sightline: the exact bodies their SDKs
// put on the wire (fixtures/apilens-wire.ts, built from their source) posted over HTTP with the
// headers they send, to the paths they derive from base URL `<sightline>/api/v1/ingest`. Every
// record must be stored and readable through the data and trace routes.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import {
  originalLogRecord,
  pythonJson,
  pythonRequestRecord,
  pythonSpanRecord,
  typescriptSdkRecord,
} from "./fixtures/apilens-wire.js";
import { createIngestFixture, type IngestFixture } from "./helpers.js";

describe("the original APILens clients", () => {
  let ctx: TestContext;
  let fx: IngestFixture;
  /** What a user configures as the SDK's base URL. */
  let base: string;
  let origin: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await createIngestFixture(ctx);
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    base = `${origin}/api/v1/ingest`;
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** ApiLensClient._post_json: urljoin(base_url + "/", path.lstrip("/")), compact JSON, its headers. */
  const pythonPost = (path: "/requests" | "/traces", body: string) =>
    fetch(new URL(path.slice(1), `${base}/`), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-API-Key": fx.projectKey,
        "User-Agent": "apilenss/0.4.0",
      },
      body,
    });
  const read = async <T>(path: string): Promise<T> => {
    const response = await fx.api.get(`/api/v1/projects/${fx.project.slug}${path}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };

  it("stores every request record of the Python SDK: header text, base_url, query, µs timestamps", async () => {
    const at = new Date(Date.now() - 120_000);
    const traceId = "5b8efff798038103d269b633813fc60c";
    const records = [
      pythonRequestRecord({
        at,
        micros: 417,
        appId: fx.checkout.slug,
        method: "get",
        path: "/orders/42?expand=items&page=2",
        statusCode: 200,
        responseTimeMs: 12,
        requestHeaders: { Accept: "application/json", Authorization: "Bearer s3cret", "X-Tenant": "acme" },
        responseHeaders: { "Content-Type": "application/json" },
        baseUrl: "https://shop.example.com",
        traceId,
        spanId: "eee19b7ec3c1b174",
        consumer: { id: "u-17", name: "Ada", group: "gold" },
      }),
      // microsecond 0: isoformat() writes no fraction; no headers captured: "".
      pythonRequestRecord({
        at: new Date(Math.floor(at.getTime() / 1000) * 1000),
        appId: fx.checkout.id,
        method: "POST",
        path: "/orders",
        statusCode: 201,
        responseTimeMs: 3.5,
      }),
      pythonRequestRecord({
        at,
        appId: fx.checkout.slug,
        method: "GET",
        path: "/orders/43?expand=items",
        statusCode: 404,
        responseTimeMs: 1.25,
      }),
    ];
    const body = pythonJson({ requests: records });
    expect(body).toContain('"response_time_ms":12.0');
    expect(body).toContain('"request_headers":""');
    const response = await pythonPost("/requests", body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 3, rejected: 0, errors: [] });

    const page = await read<{ items: Array<Record<string, unknown>> }>("/data/requests?page_size=10");
    expect(page.items).toHaveLength(3);
    const first = page.items.find((item) => item.query === "expand=items&page=2");
    expect(first).toMatchObject({
      path: "/orders/42",
      route: "/orders/{id}",
      method: "GET",
      timestamp: new Date(at.getTime()).toISOString(),
      trace_id: traceId,
      consumer_name: "Ada",
    });
    const detail = await read<Record<string, unknown>>(`/data/requests/${String(first?.id)}`);
    expect(detail).toMatchObject({
      base_url: "https://shop.example.com",
      query: "expand=items&page=2",
      request_headers: { accept: "application/json", authorization: "[REDACTED]", "x-tenant": "acme" },
      response_headers: { "content-type": "application/json" },
    });

    // The query string makes no endpoint of its own: one per route template.
    const endpoints = await fx.api.get(`/api/v1/apps/${fx.checkout.slug}/endpoints`);
    const paths = endpoints
      .json<Array<{ method: string; path: string }>>()
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(paths.sort()).toEqual(["GET /orders/{id}", "POST /orders"]);
  });

  it("stores the Python SDK's spans at {base}/traces", async () => {
    const start = new Date(Date.now() - 60_000);
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const spans = [
      pythonSpanRecord({
        start,
        micros: 120,
        appId: fx.checkout.slug,
        traceId,
        spanId: "b7ad6b7169203331",
        parentSpanId: "",
        name: "GET /orders/{id}",
        kind: "server",
        durationMs: 18.75,
        statusCode: 200,
      }),
      pythonSpanRecord({
        start: new Date(start.getTime() + 2),
        appId: fx.checkout.slug,
        traceId,
        spanId: "00f067aa0ba902b7",
        parentSpanId: "b7ad6b7169203331",
        name: "charge card",
        kind: "db",
        durationMs: 9,
        status: "error",
        attributes: { "db.system": "postgresql" },
      }),
    ];
    const response = await pythonPost("/traces", pythonJson({ spans }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 2, rejected: 0, errors: [] });
    const rows = await ctx.deps.events.query<{ span_id: string; status: string; duration_ms: number }>(
      `SELECT span_id, status, duration_ms FROM ${ctx.deps.events.database}.api_spans ` +
        "WHERE trace_id = {trace:String} ORDER BY timestamp",
      { trace: traceId },
    );
    expect(rows).toEqual([
      { span_id: "b7ad6b7169203331", status: "ok", duration_ms: 18.75 },
      { span_id: "00f067aa0ba902b7", status: "error", duration_ms: 9 },
    ]);
  });

  it("stores log records in the original shape: empty endpoint, status 0, consumer name and group", async () => {
    const at = new Date(Date.now() - 30_000);
    const logs = [
      originalLogRecord(at, fx.checkout.slug),
      originalLogRecord(at, fx.checkout.slug, {
        level: "WARNING",
        message: "card declined",
        endpoint_method: "POST",
        endpoint_path: "/orders/42/pay",
        status_code: 402,
        consumer_id: "u-17",
        consumer_name: "Ada",
        consumer_group: "gold",
        trace_id: "0af7651916cd43dd8448eb211c80319c",
        span_id: "b7ad6b7169203331",
        attributes: { attempt: "2" },
      }),
    ];
    const response = await fetch(`${base}/logs`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": fx.projectKey },
      body: pythonJson({ logs }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 2, rejected: 0, errors: [] });
    const rows = await ctx.deps.events.query<Record<string, unknown>>(
      `SELECT endpoint_method, endpoint_path, status_code, consumer_name, consumer_group FROM ` +
        `${ctx.deps.events.database}.api_logs ORDER BY status_code`,
    );
    expect(rows).toEqual([
      { endpoint_method: "", endpoint_path: "", status_code: 0, consumer_name: "", consumer_group: "" },
      {
        endpoint_method: "POST",
        endpoint_path: "/orders/42/pay",
        status_code: 402,
        consumer_name: "Ada",
        consumer_group: "gold",
      },
    ]);
  });

  it("still takes the TypeScript SDK's records, and names fields it does not know", async () => {
    const at = new Date(Date.now() - 10_000);
    const post = (records: unknown[]) =>
      fetch(`${base}/requests`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-API-Key": fx.projectKey,
          "User-Agent": "apilens-js-sdk/0.1.0",
        },
        body: JSON.stringify({ requests: records }),
      });
    const plain = await post([typescriptSdkRecord(at, fx.billing.slug, fx.project.slug)]);
    expect(await plain.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const extra = await post([
      { ...typescriptSdkRecord(at, fx.billing.slug, ""), sdk_version: "0.1.0", colour: "blue" },
      { ...typescriptSdkRecord(at, fx.billing.slug, ""), colour: "red", status_code: "200" },
    ]);
    expect(await extra.json()).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [{ index: 1, pointer: "/requests/1/status_code", message: "must be integer" }],
      ignored_fields: ["colour", "sdk_version"],
    });
  });
});
