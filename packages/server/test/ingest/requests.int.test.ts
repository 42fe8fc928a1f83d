// POST /api/v1/ingest/requests over the real app on both metadata dialects: storage and
// normalisation, partial batches, every documented error, app keys and revoked keys,
// compressed bodies, and endpoint/environment discovery with and without `route`.
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { INGEST_LIMITS } from "@sightline/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  postIngest,
  requestRecord,
  storedCount,
  storedRows,
} from "./helpers.js";

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe.each(metadataBackends())("request ingest on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let fx: IngestFixture;
  const metadataQueries: string[] = [];

  beforeEach(async () => {
    metadataQueries.length = 0;
    ctx = await createTestContext({ metadata: backend, onMetadataQuery: (sql) => metadataQueries.push(sql) });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const post = (body: unknown, options: Parameters<typeof postIngest>[3] = {}) =>
    postIngest(ctx, "requests", body, { key: fx.projectKey, ...options });

  it("stores a full record, normalised, and answers once it is stored", async () => {
    const at = new Date(Date.now() - 60_000);
    const response = await post({
      requests: [
        requestRecord(
          {
            project_slug: "shop",
            app_id: fx.checkout.id.toUpperCase(),
            environment: " Production ",
            method: "post",
            path: "/users/42/orders?draft=1",
            status_code: 201,
            response_time_ms: 87.25,
            request_size: 512,
            response_size: 2048,
            ip_address: "203.0.113.7",
            user_agent: "curl/8.5.0",
            consumer_id: "customer-42",
            consumer_name: "Acme Corp",
            consumer_group: "enterprise",
            request_payload: '{"sku":"A-1"}',
            response_payload: "p".repeat(70_000),
            request_headers: { "Content-Type": "application/json", Authorization: "Bearer s3cret" },
            response_headers: { "X-Request-Id": "abc" },
            trace_id: "4BF92F3577B34DA6A3CE929D0E0E4736",
            span_id: "00f067aa0ba902b7",
          },
          at,
        ),
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const [row] = await storedRows(ctx, "api_requests");
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      project_id: fx.project.id,
      app_id: fx.checkout.id,
      timestamp: at.toISOString(),
      environment: "production",
      method: "POST",
      path: "/users/42/orders",
      route: "/users/{id}/orders",
      status_code: 201,
      response_time_ms: 87.25,
      request_size: 512,
      response_size: 2048,
      ip_address: "203.0.113.7",
      user_agent: "curl/8.5.0",
      consumer_id: "customer-42",
      consumer_name: "Acme Corp",
      consumer_group: "enterprise",
      request_payload: '{"sku":"A-1"}',
      response_payload: "p".repeat(65_536),
      request_headers: '{"content-type":"application/json","authorization":"[REDACTED]"}',
      response_headers: '{"x-request-id":"abc"}',
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
      query: "draft=1",
      base_url: "",
      scheme: "",
      validation_paths: [],
      validation_rules: [],
      validation_messages: [],
      // The project's days (the server's, by default) and the day the batch arrived.
      retention_days: 90,
      stored_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      // The project's rollup days (the server's ROLLUPS_RETENTION_DAYS, by default).
      rollup_days: 400,
    });
  });

  it("stores the scheme and a refused request's validation errors, cut to their limits", async () => {
    const long = "m".repeat(INGEST_LIMITS.validationMessageLength + 50);
    const errors = [
      { path: "body.email", rule: "format", message: 'must match format "email"' },
      { path: "p".repeat(INGEST_LIMITS.validationPathLength + 9), rule: "r".repeat(99), message: long },
      { path: "", rule: "type" },
    ];
    const response = await post({
      requests: [
        requestRecord({ path: "/refused", status_code: 422, scheme: "HTTPS", validation_errors: errors }),
        // Validation errors of an answer that was not a refusal are not kept.
        requestRecord({ path: "/fine", status_code: 200, scheme: "http", validation_errors: errors }),
        requestRecord({ path: "/bad-scheme", scheme: "ftp" }),
        requestRecord({
          path: "/too-many",
          status_code: 400,
          validation_errors: Array.from({ length: INGEST_LIMITS.validationErrorCount + 1 }, () => errors[0]),
        }),
        requestRecord({ path: "/no-rule", status_code: 400, validation_errors: [{ path: "a", rule: "" }] }),
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ errors: { pointer: string }[] }>().errors.map((e) => e.pointer)).toEqual([
      "/requests/2/scheme",
      "/requests/3/validation_errors",
      "/requests/4/validation_errors/0/rule",
    ]);
    const rows = await storedRows<{
      path: string;
      scheme: string;
      validation_paths: string[];
      validation_rules: string[];
      validation_messages: string[];
    }>(ctx, "api_requests");
    const byPath = Object.fromEntries(rows.map((row) => [row.path, row]));
    expect(byPath["/refused"]).toMatchObject({
      scheme: "https",
      validation_paths: ["body.email", "p".repeat(INGEST_LIMITS.validationPathLength), ""],
      validation_rules: ["format", "r".repeat(INGEST_LIMITS.validationRuleLength), "type"],
      validation_messages: [
        'must match format "email"',
        "m".repeat(INGEST_LIMITS.validationMessageLength),
        "",
      ],
    });
    expect(byPath["/fine"]).toMatchObject({
      scheme: "http",
      validation_paths: [],
      validation_rules: [],
      validation_messages: [],
    });
  });

  it("stores the valid records of a batch and reports the others with index, pointer and message", async () => {
    const response = await post({
      requests: [
        requestRecord({ path: "/a" }),
        requestRecord({ status_code: 600 }),
        requestRecord({ path: "/b", app_id: "billing" }),
        requestRecord({ response_time_ms: -5, timestamp: "not a date" }),
        requestRecord({ path: "/c" }),
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      accepted: 3,
      rejected: 2,
      errors: [
        { index: 1, pointer: "/requests/1/status_code", message: "must be <= 599" },
        { index: 3, pointer: "/requests/3/response_time_ms", message: "must be >= 0" },
      ],
    });
    expect((await storedRows<{ path: string }>(ctx, "api_requests")).map((row) => row.path).sort()).toEqual([
      "/a",
      "/b",
      "/c",
    ]);
  });

  it("answers 422 with the same errors when every record is rejected, storing nothing", async () => {
    const response = await post({
      requests: [requestRecord({ method: "GET / HTTP" }), requestRecord({ environment: "" })],
    });
    const problem = expectProblem(response, "validation_error");
    expect(problem.detail).toBe("All 2 records were rejected; nothing was stored.");
    expect(problem.errors).toEqual([
      { index: 0, pointer: "/requests/0/method", message: expect.stringContaining("must match pattern") },
      { index: 1, pointer: "/requests/1/environment", message: "must be 1–64 characters after trimming" },
    ]);
    expect(await storedCount(ctx, "api_requests")).toBe(0);
  });

  it("answers an empty batch with zeros", async () => {
    const response = await post({ requests: [] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 0, rejected: 0, errors: [] });
  });

  it("refuses a missing, unknown or malformed key with 401 before reading the body", async () => {
    for (const key of [undefined, "", "sl_unknownkeyunknownkeyunknownkeyunknownkeyunknownkey0000", "nope"]) {
      const problem = expectProblem(
        await post({ requests: [requestRecord()] }, { key }),
        "authentication_error",
      );
      expect(problem.detail).toBe("The X-API-Key header is missing, or the key is unknown or revoked.");
    }
    // Authentication comes first: even an unreadable body gets 401.
    expectProblem(await post("{not json", { key: "nope" }), "authentication_error");
    expect(await storedCount(ctx, "api_requests")).toBe(0);
  });

  it("refuses a revoked project key at once", async () => {
    const key = (await fx.api.post("/api/v1/projects/shop/api-keys", { name: "temp" })).json<{
      id: string;
      key: string;
    }>();
    expect((await post({ requests: [requestRecord()] }, { key: key.key })).statusCode).toBe(200);
    await fx.api.delete(`/api/v1/projects/shop/api-keys/${key.id}`);
    expectProblem(await post({ requests: [requestRecord()] }, { key: key.key }), "authentication_error");
    expect(await storedCount(ctx, "api_requests")).toBe(1);
  });

  it("lets an app key write its own app only, and refuses it at once when revoked", async () => {
    const response = await post(
      { requests: [requestRecord({ app_id: "checkout" }), requestRecord({ app_id: "billing" })] },
      { key: fx.appKey },
    );
    expect(response.json()).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [
        {
          index: 1,
          pointer: "/requests/1/app_id",
          message: 'must name app "checkout": this API key belongs to that app only',
        },
      ],
    });
    const keys = (await fx.api.get("/api/v1/apps/checkout/api-keys")).json<{ id: string }[]>();
    await fx.api.delete(`/api/v1/apps/checkout/api-keys/${keys[0]?.id}`);
    expectProblem(await post({ requests: [requestRecord()] }, { key: fx.appKey }), "authentication_error");
  });

  it("resolves app_id as a UUID in any letter case or a slug, within the key's project only", async () => {
    const other = clientFor(ctx.app, (await signIn(ctx, "other@example.com")).headers);
    const theirs = (await other.post("/api/v1/projects", { name: "Elsewhere" })).json<{ slug: string }>();
    const theirApp = (await other.post(`/api/v1/projects/${theirs.slug}/apps`, { name: "Theirs" })).json<{
      id: string;
    }>();
    await fx.api.delete("/api/v1/apps/billing");
    const response = await post({
      requests: [
        requestRecord({ app_id: fx.checkout.id }),
        requestRecord({ app_id: fx.checkout.id.toUpperCase() }),
        requestRecord({ app_id: "Checkout" }),
        requestRecord({ app_id: theirApp.id }),
        requestRecord({ app_id: "billing" }),
        requestRecord({ app_id: "no-such-app" }),
      ],
    });
    expect(response.json<{ accepted: number; errors: { index: number; message: string }[] }>()).toEqual({
      accepted: 3,
      rejected: 3,
      errors: [3, 4, 5].map((index) => ({
        index,
        pointer: `/requests/${index}/app_id`,
        message: 'is not a live app of project "shop"',
      })),
    });
  });

  it("accepts project_slug when omitted, empty or the key's own, and rejects any other", async () => {
    const response = await post({
      requests: [
        requestRecord(),
        requestRecord({ project_slug: "" }),
        requestRecord({ project_slug: "shop" }),
        requestRecord({ project_slug: "elsewhere" }),
      ],
    });
    expect(response.json()).toEqual({
      accepted: 3,
      rejected: 1,
      errors: [
        { index: 3, pointer: "/requests/3/project_slug", message: 'must be "shop", the API key\'s project' },
      ],
    });
  });

  it("reads timestamps as ISO 8601 with UTC as the default offset", async () => {
    const now = new Date();
    const local = now.toISOString().slice(0, 19); // no offset
    await post({ requests: [requestRecord({ timestamp: local, path: "/no-offset" })] });
    const [row] = await storedRows<{ timestamp: string }>(ctx, "api_requests");
    expect(row?.timestamp).toBe(`${local}.000Z`);
  });

  it("refuses malformed bodies and envelopes", async () => {
    expectProblem(await post("{not json"), "invalid_json");
    expectProblem(await post(""), "invalid_json");
    const missing = expectProblem(await post({ records: [] }), "validation_error");
    expect(missing.errors).toEqual(
      expect.arrayContaining([{ pointer: "/requests", message: "is required" }]),
    );
    const notArray = expectProblem(await post({ requests: { a: 1 } }), "validation_error");
    expect(notArray.errors).toEqual([{ pointer: "/requests", message: "must be array" }]);
    expectProblem(await post([requestRecord()]), "validation_error");
  });

  it("refuses other content types and codings with 415", async () => {
    expectProblem(
      await post(JSON.stringify({ requests: [] }), { headers: { "content-type": "text/plain" } }),
      "unsupported_media_type",
    );
    expectProblem(
      await post(JSON.stringify({ requests: [] }), {
        headers: { "content-type": "application/json; charset=latin1" },
      }),
      "unsupported_media_type",
    );
    expectProblem(
      await post(JSON.stringify({ requests: [] }), { headers: { "content-encoding": "br" } }),
      "unsupported_media_type",
    );
  });

  it("reads gzip and deflate bodies (zlib-wrapped or raw) and refuses corrupt ones", async () => {
    const body = (path: string) => Buffer.from(JSON.stringify({ requests: [requestRecord({ path })] }));
    expect(
      (await post({ requests: [requestRecord({ path: "/gzip" })] }, { gzip: true })).json(),
    ).toMatchObject({
      accepted: 1,
    });
    for (const [path, encoded] of [
      ["/deflate", deflateSync(body("/deflate"))],
      ["/raw-deflate", deflateRawSync(body("/raw-deflate"))],
    ] as const) {
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/v1/ingest/requests",
        headers: {
          "content-type": "application/json",
          "content-encoding": "deflate",
          "x-api-key": fx.projectKey,
        },
        payload: encoded,
      });
      expect(response.json(), path).toMatchObject({ accepted: 1 });
    }
    const corrupt = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/requests",
      headers: { "content-type": "application/json", "content-encoding": "gzip", "x-api-key": fx.projectKey },
      payload: gzipSync(body("/x")).subarray(0, 20),
    });
    expectProblem(corrupt, "bad_request");
    expect((await storedRows<{ path: string }>(ctx, "api_requests")).map((row) => row.path).sort()).toEqual([
      "/deflate",
      "/gzip",
      "/raw-deflate",
    ]);
  });

  it("puts a record sent without `environment` in production, as spans are", async () => {
    const { environment: _left, ...bare } = requestRecord({ path: "/bare" });
    const response = await post({ requests: [bare] });
    expect(response.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const [row] = await storedRows<{ environment: string }>(ctx, "api_requests");
    expect(row?.environment).toBe("production");
    const environments = (await fx.api.get("/api/v1/apps/checkout/environments")).json<{ name: string }[]>();
    expect(environments.map((env) => env.name)).toEqual(["production"]);
  });

  it("discovers one endpoint per route template and the environments, with last_seen_at fresh", async () => {
    const t1 = minutesAgo(30);
    const t2 = minutesAgo(10);
    await post({
      requests: [
        requestRecord({ path: "/users/1" }, t1),
        requestRecord({ path: "/users/2" }, t2),
        requestRecord({ path: "/users/1", method: "delete", environment: "Staging" }, t1),
        requestRecord({ path: "/things/77", route: "/things/:thingId" }, t1),
        requestRecord({ path: "/v2/search?q=x" }, t1),
      ],
    });
    const endpoints = (await fx.api.get("/api/v1/apps/checkout/endpoints")).json<
      { method: string; path: string; last_seen_at: string }[]
    >();
    expect(endpoints.map((e) => [e.method, e.path, e.last_seen_at]).sort()).toEqual(
      [
        ["DELETE", "/users/{id}", t1.toISOString()],
        ["GET", "/things/{thingId}", t1.toISOString()],
        ["GET", "/users/{id}", t2.toISOString()],
        ["GET", "/v2/search", t1.toISOString()],
      ].sort(),
    );
    const environments = (await fx.api.get("/api/v1/apps/checkout/environments")).json<{ name: string }[]>();
    expect(environments.map((env) => env.name).sort()).toEqual(["production", "staging"]);
    // The raw path stays on the record.
    expect(
      (await storedRows<{ path: string; route: string }>(ctx, "api_requests")).map((r) => [r.path, r.route]),
    ).toEqual(
      expect.arrayContaining([
        ["/users/1", "/users/{id}"],
        ["/users/2", "/users/{id}"],
        ["/things/77", "/things/{thingId}"],
      ]),
    );
  });

  it("costs no metadata write when the same endpoints and environments come again", async () => {
    const batch = { requests: [requestRecord({ path: "/users/1" }), requestRecord({ path: "/orders/9" })] };
    await post(batch);
    metadataQueries.length = 0;
    for (let i = 0; i < 5; i++) expect((await post(batch)).statusCode).toBe(200);
    // The keys' last-used times are flushed on a timer (every 10 s), whatever the batches hold:
    // on a slow machine that flush may fall inside this loop, and is not what is measured here.
    const writes = metadataQueries.filter(
      (sql) =>
        /^\s*(insert|update|delete)\b/i.test(sql) &&
        !/^\s*update\s+"api_keys"\s+set\s+"last_used_at"/i.test(sql),
    );
    expect(writes).toEqual([]);
    expect(await storedCount(ctx, "api_requests")).toBe(12);
  });

  it("does not register endpoints of a batch the store refused", async () => {
    await post({ requests: [requestRecord({ path: "/seed" })] });
    // The engine's own overload guard: inserts are refused while the table has this many parts.
    await ctx.deps.events.command(
      `ALTER TABLE ${ctx.deps.events.database}.api_requests MODIFY SETTING parts_to_throw_insert = 1`,
    );
    const refused = await post({ requests: [requestRecord({ path: "/refused/1", environment: "qa" })] });
    expectProblem(refused, "service_unavailable");
    const endpoints = (await fx.api.get("/api/v1/apps/checkout/endpoints")).json<{ path: string }[]>();
    expect(endpoints.map((e) => e.path)).toEqual(["/seed"]);
    const environments = (await fx.api.get("/api/v1/apps/checkout/environments")).json<{ name: string }[]>();
    expect(environments.map((env) => env.name)).toEqual(["production"]);
  });
});

describe("request ingest limits", () => {
  let ctx: TestContext;
  let fx: IngestFixture;
  beforeEach(async () => {
    ctx = await createTestContext({
      env: { INGEST_MAX_BATCH: "3", INGEST_MAX_BODY: "4096", REQUESTS_RETENTION_DAYS: "7" },
    });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("refuses more than INGEST_MAX_BATCH records with 413, storing nothing", async () => {
    const response = await postIngest(
      ctx,
      "requests",
      { requests: Array.from({ length: 4 }, () => requestRecord()) },
      { key: fx.projectKey },
    );
    expect(expectProblem(response, "payload_too_large").detail).toBe(
      "A batch holds at most 3 records (INGEST_MAX_BATCH). Nothing was stored.",
    );
    expect(await storedCount(ctx, "api_requests")).toBe(0);
  });

  it("refuses a body over INGEST_MAX_BODY, counted after decompression, without inflating it all", async () => {
    const big = { requests: [requestRecord({ request_payload: "x".repeat(5000) })] };
    expectProblem(await postIngest(ctx, "requests", big, { key: fx.projectKey }), "payload_too_large");
    // 64 MiB of zeros compress to about 64 KiB: a bomb the reader must stop at 4 KiB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const started = process.memoryUsage().rss;
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/requests",
      headers: { "content-type": "application/json", "content-encoding": "gzip", "x-api-key": fx.projectKey },
      payload: bomb,
    });
    expectProblem(response, "payload_too_large");
    expect(process.memoryUsage().rss - started).toBeLessThan(32 * 1024 * 1024);
  });

  it("rejects records older than REQUESTS_RETENTION_DAYS", async () => {
    const day = 86_400_000;
    const response = await postIngest(
      ctx,
      "requests",
      {
        requests: [
          requestRecord({}, new Date(Date.now() - 6 * day)),
          requestRecord({}, new Date(Date.now() - 8 * day)),
        ],
      },
      { key: fx.projectKey },
    );
    expect(response.json()).toEqual({
      accepted: 1,
      rejected: 1,
      errors: [
        {
          index: 1,
          pointer: "/requests/1/timestamp",
          message: "is older than the retention window of 7 days",
        },
      ],
    });
  });
});
