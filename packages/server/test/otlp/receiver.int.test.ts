// The OTLP/HTTP receivers' answers, per the OTLP/HTTP spec and our ingest rules: partial success
// counts and reasons (in the request's encoding), 400 for bodies that are not export requests,
// gzip, 415 for other media types, key authentication, and that a key never reaches an app
// outside its scope — another project's, or, for an app key, another app.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { clientFor } from "../support/client.js";
import { expectProblem } from "../support/problem.js";
import { OTLP_MESSAGES } from "../../src/modules/otlp/otlp.decode.js";
import { createIngestFixture, type IngestFixture } from "../ingest/helpers.js";

const TRACE_ID = "5b8efff798038103d269b633813fc60c";
const nanos = (date: Date) => `${BigInt(date.getTime()) * 1_000_000n}`;

/** An OTLP/JSON server span of `service`, ids in hex. */
function jsonSpan(overrides: Record<string, unknown> = {}, attributes: Record<string, string | number> = {}) {
  const start = new Date(Date.now() - 1000);
  return {
    traceId: TRACE_ID,
    spanId: "eee19b7ec3c1b174",
    name: "GET /users/:id",
    kind: 2,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(new Date(start.getTime() + 25)),
    attributes: Object.entries({
      "http.request.method": "GET",
      "url.path": "/users/9",
      "http.route": "/users/:id",
      "http.response.status_code": 200,
      ...attributes,
    }).map(([key, value]) => ({
      key,
      value: typeof value === "number" ? { intValue: value } : { stringValue: value },
    })),
    ...overrides,
  };
}

function resourceSpans(service: string | null, spans: unknown[]) {
  return {
    resource: {
      attributes: service === null ? [] : [{ key: "service.name", value: { stringValue: service } }],
    },
    scopeSpans: [{ scope: { name: "test" }, spans }],
  };
}

describe("the OTLP/HTTP receivers", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    fx = await createIngestFixture(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const post = (
    signal: "traces" | "logs",
    body: Buffer | string | object,
    options: { key?: string | null; type?: string; gzip?: boolean } = {},
  ) => {
    const raw = Buffer.isBuffer(body)
      ? body
      : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    const key = options.key === undefined ? fx.projectKey : options.key;
    return ctx.app.inject({
      method: "POST",
      url: `/api/v1/otlp/v1/${signal}`,
      headers: {
        "content-type":
          options.type ?? (Buffer.isBuffer(body) ? "application/x-protobuf" : "application/json"),
        ...(key === null ? {} : { "x-api-key": key }),
        ...(options.gzip === true ? { "content-encoding": "gzip" } : {}),
      },
      payload: options.gzip === true ? gzipSync(raw) : raw,
    });
  };
  const spansOf = (projectId: string) =>
    ctx.deps.events.query<{ span_id: string; kind: string; status_code: number; app_id: string }>(
      `SELECT span_id, kind, status_code, app_id FROM ${ctx.deps.events.database}.api_spans ` +
        "WHERE project_id = {project:String} ORDER BY span_id",
      { project: projectId },
    );
  const requestsOf = async (client = fx.api, project = fx.project.slug) =>
    (await client.get(`/api/v1/projects/${project}/data/requests?page_size=100`)).json<{
      items: Array<{ path: string; trace_id: string; span_id: string }>;
    }>().items;

  it("answers {} to a fully stored JSON export and stores its server span as a request", async () => {
    const reply = await post("traces", {
      resourceSpans: [resourceSpans("checkout", [jsonSpan({ spanId: "0000000000000a01" })])],
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toMatch(/^application\/json/);
    expect(reply.json()).toEqual({});
    expect((await requestsOf()).filter((item) => item.span_id === "0000000000000a01")).toHaveLength(1);
  });

  it("counts spans it could not keep in partialSuccess, with the reasons", async () => {
    const reply = await post("traces", {
      resourceSpans: [
        resourceSpans("no-such-service", [jsonSpan(), jsonSpan()]),
        resourceSpans(null, [jsonSpan()]),
        resourceSpans("checkout", [
          jsonSpan({ spanId: "0000000000000b01" }),
          jsonSpan({ spanId: "0000000000000b02" }, { "http.response.status_code": 999 }),
          // Not a request: an INTERNAL span yields no request record, and is no rejection.
          jsonSpan({ spanId: "0000000000000b03", kind: 1 }),
        ]),
      ],
    });
    expect(reply.statusCode).toBe(200);
    const { partialSuccess } = reply.json<{
      partialSuccess: { rejectedSpans: number; errorMessage: string };
    }>();
    // The span with an impossible status code is kept; only its request record is refused.
    expect(partialSuccess.rejectedSpans).toBe(3);
    expect(partialSuccess.errorMessage).toContain(
      'service.name "no-such-service" names no app of project "shop"',
    );
    expect(partialSuccess.errorMessage).toContain("(2×)");
    expect(partialSuccess.errorMessage).toContain("a resource has no service.name");
    expect(partialSuccess.errorMessage).toContain("status_code");
    const stored = (await requestsOf()).map((item) => item.span_id);
    expect(stored).toContain("0000000000000b01");
    expect(stored).not.toContain("0000000000000b02");
    expect(stored).not.toContain("0000000000000b03");
    expect(
      (await spansOf(fx.project.id)).map((row) => `${row.span_id} ${row.kind} ${row.status_code}`),
    ).toEqual(
      expect.arrayContaining([
        "0000000000000b01 server 200",
        "0000000000000b02 server 0",
        "0000000000000b03 internal 200",
      ]),
    );
  });

  it("answers protobuf in protobuf, partial success included, and reads gzip bodies", async () => {
    // The generated code the server decodes with encodes the request as an SDK would.
    const { request: ExportTraceServiceRequest, response: ExportTraceServiceResponse } = OTLP_MESSAGES.traces;
    const start = Date.now() - 500;
    const span = (spanId: string) => ({
      traceId: Buffer.from(TRACE_ID, "hex"),
      spanId: Buffer.from(spanId, "hex"),
      name: "POST /orders",
      kind: 2,
      startTimeUnixNano: nanos(new Date(start)),
      endTimeUnixNano: nanos(new Date(start + 40)),
      attributes: [
        { key: "http.request.method", value: { stringValue: "POST" } },
        { key: "url.path", value: { stringValue: "/orders" } },
        { key: "http.response.status_code", value: { intValue: 201 } },
      ],
    });
    const body = Buffer.from(
      ExportTraceServiceRequest.encode(
        ExportTraceServiceRequest.fromObject({
          resourceSpans: [
            {
              resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
              scopeSpans: [{ spans: [span("0000000000000c01")] }],
            },
            {
              resource: { attributes: [{ key: "service.name", value: { stringValue: "unknown-svc" } }] },
              scopeSpans: [{ spans: [span("0000000000000c02")] }],
            },
          ],
        }),
      ).finish(),
    );
    const reply = await post("traces", body, { gzip: true });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers["content-type"]).toMatch(/^application\/x-protobuf/);
    const answer = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(reply.rawPayload), {
      longs: Number,
    });
    expect(answer).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringContaining('"unknown-svc"') },
    });
    expect((await requestsOf()).map((item) => item.span_id)).toContain("0000000000000c01");
  });

  it("stores OTLP/JSON log records and counts the ones it rejects", async () => {
    const now = nanos(new Date());
    const reply = await post("logs", {
      resourceLogs: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
          scopeLogs: [
            {
              scope: { name: "payments" },
              logRecords: [
                {
                  timeUnixNano: now,
                  severityNumber: 17,
                  severityText: "Error",
                  body: {
                    kvlistValue: { values: [{ key: "reason", value: { stringValue: "card declined" } }] },
                  },
                  attributes: [{ key: "attempt", value: { intValue: "2" } }],
                  traceId: TRACE_ID,
                  spanId: "eee19b7ec3c1b174",
                },
                { timeUnixNano: now, severityNumber: 9 },
                { timeUnixNano: now, body: { stringValue: "bad ids" }, traceId: "xyz" },
              ],
            },
          ],
        },
      ],
    });
    expect(reply.statusCode).toBe(200);
    const { partialSuccess } = reply.json<{
      partialSuccess: { rejectedLogRecords: number; errorMessage: string };
    }>();
    expect(partialSuccess.rejectedLogRecords).toBe(2);
    expect(partialSuccess.errorMessage).toContain("empty body");
    expect(partialSuccess.errorMessage).toContain("trace_id");
    const logs = (
      await fx.api.get(`/api/v1/projects/shop/data/logs?app_slugs=checkout&loggers=payments`)
    ).json<{
      items: Array<Record<string, unknown>>;
    }>().items;
    expect(logs).toEqual([
      expect.objectContaining({
        level: "ERROR",
        message: '{"reason":"card declined"}',
        logger_name: "payments",
        attributes: { attempt: "2" },
        trace_id: TRACE_ID,
        span_id: "eee19b7ec3c1b174",
      }),
    ]);
  });

  it("refuses bodies that are not export requests with 400", async () => {
    expectProblem(
      await post("traces", Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01])),
      "bad_request",
    );
    expectProblem(await post("logs", Buffer.from("definitely not protobuf")), "bad_request");
    expectProblem(await post("traces", "{not json"), "invalid_json");
    expectProblem(await post("traces", { resourceSpans: 5 }), "bad_request");
    expectProblem(
      await post("logs", { resourceLogs: [{ scopeLogs: [{ logRecords: ["x"] }] }] }),
      "bad_request",
    );
    expectProblem(
      await post("traces", Buffer.from("not gzip"), { type: "application/x-protobuf", gzip: false }),
      "bad_request",
    );
    const corrupt = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/otlp/v1/traces",
      headers: { "content-type": "application/json", "content-encoding": "gzip", "x-api-key": fx.projectKey },
      payload: Buffer.from("not gzip at all"),
    });
    expectProblem(corrupt, "bad_request");
  });

  it("refuses other media types with 415, and takes an empty protobuf body as an empty export", async () => {
    expectProblem(await post("traces", "resourceSpans", { type: "text/plain" }), "unsupported_media_type");
    const bare = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/otlp/v1/logs",
      headers: { "x-api-key": fx.projectKey },
    });
    expectProblem(bare, "unsupported_media_type");
    const empty = await post("traces", Buffer.alloc(0));
    expect(empty.statusCode).toBe(200);
    expect(empty.rawPayload).toHaveLength(0);
  });

  it("refuses missing, unknown and revoked keys with 401 before reading the body", async () => {
    const body = { resourceSpans: [resourceSpans("checkout", [jsonSpan()])] };
    expectProblem(await post("traces", body, { key: null }), "authentication_error");
    expectProblem(await post("logs", body, { key: "sl_not_a_real_key" }), "authentication_error");
    const created = (await fx.api.post(`/api/v1/projects/shop/api-keys`, { name: "short-lived" })).json<{
      id: string;
      key: string;
    }>();
    expect((await post("traces", body, { key: created.key })).statusCode).toBe(200);
    expect((await fx.api.delete(`/api/v1/projects/shop/api-keys/${created.id}`)).statusCode).toBe(200);
    expectProblem(await post("traces", body, { key: created.key }), "authentication_error");
  });

  it("never writes to another project's app, nor an app key to another app", async () => {
    const other = clientFor(ctx.app, (await signIn(ctx, "other@example.com")).headers);
    const project = (await other.post("/api/v1/projects", { name: "Rival" })).json<{ slug: string }>();
    const rivalApp = (await other.post(`/api/v1/projects/${project.slug}/apps`, { name: "Vault" })).json<{
      id: string;
      slug: string;
    }>();

    // Shop's project key, naming Rival's app by slug and by id.
    for (const service of [rivalApp.slug, rivalApp.id]) {
      const reply = await post("traces", {
        resourceSpans: [resourceSpans(service, [jsonSpan({ spanId: "0000000000000d01" })])],
      });
      expect(reply.json<{ partialSuccess: { rejectedSpans: number } }>().partialSuccess.rejectedSpans).toBe(
        1,
      );
    }
    // Checkout's app key, naming billing (same project) and Rival's app.
    for (const service of ["billing", rivalApp.id]) {
      const reply = await post(
        "traces",
        { resourceSpans: [resourceSpans(service, [jsonSpan({ spanId: "0000000000000d02" })])] },
        { key: fx.appKey },
      );
      const { partialSuccess } = reply.json<{
        partialSuccess: { rejectedSpans: number; errorMessage: string };
      }>();
      expect(partialSuccess.rejectedSpans).toBe(1);
      expect(partialSuccess.errorMessage).toContain("the only app this API key may write to");
    }
    // An app key without service.name writes to its own app.
    const own = await post(
      "traces",
      { resourceSpans: [resourceSpans(null, [jsonSpan({ spanId: "0000000000000d03" })])] },
      { key: fx.appKey },
    );
    expect(own.json()).toEqual({});

    expect(await requestsOf(other, project.slug)).toEqual([]);
    const rivalProjectId = (await other.get(`/api/v1/projects/${project.slug}`)).json<{ id: string }>().id;
    expect(await spansOf(rivalProjectId)).toEqual([]);
    const ourSpans = await spansOf(fx.project.id);
    expect(
      ourSpans.filter((row) => row.span_id === "0000000000000d01" || row.span_id === "0000000000000d02"),
    ).toEqual([]);
    expect(ourSpans.filter((row) => row.span_id === "0000000000000d03")).toEqual([
      expect.objectContaining({ app_id: fx.checkout.id }),
    ]);
    const ours = await requestsOf();
    expect(ours.map((item) => item.span_id)).not.toContain("0000000000000d01");
    expect(ours.map((item) => item.span_id)).not.toContain("0000000000000d02");
    const checkoutOnly = (
      await fx.api.get(`/api/v1/projects/shop/data/requests?app_slugs=checkout&page_size=100`)
    ).json<{ items: Array<{ span_id: string }> }>().items;
    expect(checkoutOnly.map((item) => item.span_id)).toContain("0000000000000d03");
  });
});
