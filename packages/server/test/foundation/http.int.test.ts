// Cross-cutting HTTP behaviour on the real app: request ids, problem+json for every error
// path, health with both stores up and with each one down.
import { gzipSync } from "node:zlib";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { JSON_BODY_LIMITS } from "../../src/http/json-body.js";
import type { App } from "../../src/http/types.js";
import { EventsStoreError } from "../../src/stores/events/index.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { expectProblem } from "../support/problem.js";

function probeRoutes(app: App): void {
  app.post(
    "/api/v1/__probe",
    {
      schema: {
        body: Type.Object(
          { email: Type.String({ format: "email" }), count: Type.Integer({ minimum: 1 }) },
          { additionalProperties: false },
        ),
        querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })) }),
      },
    },
    async (request) => ({ ok: true, count: request.body.count, page: request.query.page ?? null }),
  );
  app.get("/api/v1/__boom", async () => {
    throw new Error("SELECT password_hash FROM users WHERE 1=1");
  });
  app.get("/api/v1/__events-down", async () => {
    throw new EventsStoreError("connect ECONNREFUSED 10.0.0.1:8123", "unavailable");
  });
  app.get("/api/v1/__limited", async () => {
    throw new AppError("rate_limited", "Slow down.", { headers: { "retry-after": "17" } });
  });
}

describe("HTTP foundation", () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx?.close();
  });

  it("answers health with both stores ok", async () => {
    ctx = await createTestContext();
    const response = await ctx.app.inject({ method: "GET", url: "/api/v1/health" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "healthy",
      service: "sightline",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      checks: { metadata: "ok", events: "ok" },
    });
  });

  it("answers 503 naming the events store when it does not answer", async () => {
    ctx = await createTestContext();
    await ctx.deps.events.close();
    const response = await ctx.app.inject({ method: "GET", url: "/api/v1/health" });
    const body = expectProblem(response, "service_unavailable");
    expect(body.checks).toEqual({ metadata: "ok", events: "unavailable" });
    expect(body.detail).toContain("events");
    expect(response.headers["retry-after"]).toBeDefined();
  });

  it("answers 503 naming the metadata store when it does not answer", async () => {
    ctx = await createTestContext();
    await ctx.deps.metadata.close();
    const body = expectProblem(
      await ctx.app.inject({ method: "GET", url: "/api/v1/health" }),
      "service_unavailable",
    );
    expect(body.checks).toEqual({ metadata: "unavailable", events: "ok" });
  });

  it("echoes a caller's X-Request-Id and generates one otherwise", async () => {
    ctx = await createTestContext();
    const echoed = await ctx.app.inject({
      url: "/api/v1/health",
      headers: { "x-request-id": "trace-abc.123" },
    });
    expect(echoed.headers["x-request-id"]).toBe("trace-abc.123");
    const generated = await ctx.app.inject({ url: "/api/v1/health" });
    expect(generated.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await ctx.app.inject({
      url: "/api/v1/health",
      headers: { "x-request-id": "bad id\twith spaces" },
    });
    expect(unsafe.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers unknown routes with 404 not_found carrying the request id", async () => {
    ctx = await createTestContext();
    const response = await ctx.app.inject({ url: "/api/v1/nope?x=1", headers: { "x-request-id": "r-404" } });
    const body = expectProblem(response, "not_found");
    expect(body.request_id).toBe("r-404");
    expect(body.instance).toBe("/api/v1/nope");
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json" },
      payload: '{"email": "a@b.c",',
    });
    expectProblem(response, "invalid_json");
  });

  it("answers an empty JSON body with 400 invalid_json", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json" },
      payload: "",
    });
    expectProblem(response, "invalid_json");
  });

  it("answers a wrong content type with 415 unsupported_media_type", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/xml" },
      payload: "<email>a@b.c</email>",
    });
    expectProblem(response, "unsupported_media_type");
  });

  it("answers a body over the limit with 413 payload_too_large", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "a@b.c", count: 1, pad: "x".repeat(2 * 1024 * 1024) }),
    });
    expectProblem(response, "payload_too_large");
  });

  it("refuses JSON nested deeper than the limit before parsing it, on every JSON route", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    // 200 KB, under the byte limit: only the depth refuses it.
    const levels = 100_000;
    const deep = `${"[".repeat(levels)}${"]".repeat(levels)}`;
    const rss = process.memoryUsage.rss();
    for (const url of ["/api/v1/__probe", "/api/v1/auth/login"]) {
      const response = await ctx.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        payload: deep,
      });
      const body = expectProblem(response, "payload_too_large");
      expect(body).toMatchObject({ limit: "depth", maximum: JSON_BODY_LIMITS.depth });
      expect(body.detail).toContain(`deeper than ${JSON_BODY_LIMITS.depth} levels`);
    }
    expect(process.memoryUsage.rss() - rss).toBeLessThan(64 * 1024 * 1024);
    // An honest body, nested as far as a body may be, still parses.
    const nested = JSON.stringify({ email: "a@b.co", count: 1 });
    const ok = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json" },
      payload: nested,
    });
    expect(ok.statusCode).toBe(200);
    const deepest = `${"[".repeat(JSON_BODY_LIMITS.depth - 1)}${"]".repeat(JSON_BODY_LIMITS.depth - 1)}`;
    const atLimit = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json" },
      payload: `{"email":"a@b.co","count":1,"pad":${deepest}}`,
    });
    // Parsed, then refused by the route's schema (no `pad`), not by the parser.
    expectProblem(atLimit, "validation_error");
  });

  it("refuses a JSON body over the byte limit of JSON routes", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "a@b.c", count: 1, pad: "x".repeat(JSON_BODY_LIMITS.bytes) }),
    });
    expectProblem(response, "payload_too_large");
  });

  it("reports every failing body field as one entry with a JSON pointer", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      payload: { email: "not-an-email", count: "3", extra: true },
    });
    const body = expectProblem(response, "validation_error");
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { pointer: "/email", message: expect.stringContaining("email") },
        { pointer: "/count", message: expect.stringContaining("integer") },
        { pointer: "/extra", message: "is not a known field" },
      ]),
    );
    expect(body.errors).toHaveLength(3);
  });

  it("names a missing field with its own pointer", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({ method: "POST", url: "/api/v1/__probe", payload: { count: 2 } });
    const body = expectProblem(response, "validation_error");
    expect(body.errors).toEqual([{ pointer: "/email", message: "is required" }]);
  });

  it("coerces query parameters from text and points at the bad one", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const ok = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe?page=3",
      payload: { email: "a@b.co", count: 2 },
    });
    expect(ok.json()).toEqual({ ok: true, count: 2, page: 3 });
    const bad = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe?page=zero",
      payload: { email: "a@b.co", count: 2 },
    });
    const body = expectProblem(bad, "validation_error");
    expect(body.errors).toEqual([{ pointer: "#/query/page", message: expect.any(String) }]);
  });

  it("answers an unexpected failure with 500 internal_error and no internals", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({ url: "/api/v1/__boom" });
    expectProblem(response, "internal_error");
    expect(response.body).not.toContain("SELECT");
    expect(response.body).not.toContain("password_hash");
  });

  it("answers an unavailable events store with 503 and Retry-After, hiding the driver message", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({ url: "/api/v1/__events-down" });
    expectProblem(response, "service_unavailable");
    expect(response.headers["retry-after"]).toBe("5");
    expect(response.body).not.toContain("10.0.0.1");
  });

  it("carries headers of an AppError, such as Retry-After on rate limits", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({ url: "/api/v1/__limited" });
    expectProblem(response, "rate_limited");
    expect(response.headers["retry-after"]).toBe("17");
  });

  it("answers a content coding the route does not decode with 415", async () => {
    ctx = await createTestContext({ extend: probeRoutes });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/__probe",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      payload: gzipSync(JSON.stringify({ email: "a@b.co", count: 1 })),
    });
    const body = expectProblem(response, "unsupported_media_type");
    expect(body.detail).toContain("gzip");
  });
});
