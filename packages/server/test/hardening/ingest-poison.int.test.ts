// Ingest cannot be poisoned: a batch the events store refuses fails alone with 422 (never 500,
// never its neighbours), compressed bodies over INGEST_MAX_BODY answer 413 in every coding,
// numeric fields have realistic bounds, and an absurd value already stored (written around
// ingest) cannot make any analytics or data answer fail.
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import type { KeyPrincipal } from "../../src/modules/ingest/directory.js";
import { prepareBatch } from "../../src/modules/ingest/ingest.pipeline.js";
import { requestKind } from "../../src/modules/ingest/requests.records.js";
import { API_REQUESTS } from "../../src/stores/events/index.js";

const REQUEST_COLUMNS = API_REQUESTS.columnNames;
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  postIngest,
  requestRecord,
  storedRows,
} from "../ingest/helpers.js";

const MAX_BODY = 4096;

describe("ingest against poison", () => {
  let ctx: TestContext;
  let fx: IngestFixture;
  let owner: Client;
  let principal: KeyPrincipal;

  beforeAll(async () => {
    // JSON bodies: the engine refuses a lone surrogate in JSON text, the poison these tests need.
    // RowBinary bodies (the default) store it as U+FFFD instead (test/events/row-encoding).
    ctx = await createTestContext({
      env: { INGEST_MAX_BODY: String(MAX_BODY), INGEST_INSERT_FORMAT: "json" },
    });
    fx = await createIngestFixture(ctx);
    owner = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    principal = await ctx.deps.ingest.authenticate(fx.projectKey);
  });
  afterAll(async () => {
    await ctx.close();
  });

  describe("a batch the events store refuses", () => {
    // The HTTP layer makes every string well-formed, so these go to the service directly: the
    // second line must hold even if something reaches the store that it cannot read.
    const lone = (marker: string) => requestRecord({ path: `/${marker}/\ud83d`, consumer_id: marker });
    const good = (marker: string) => requestRecord({ path: `/${marker}/ok`, consumer_id: marker });

    it("fails alone with 422 naming its record, while concurrent batches are stored", async () => {
      const marker = `poison-${Date.now()}`;
      const outcomes = await Promise.allSettled([
        ctx.deps.ingest.acceptRequests({ principal, records: [good(marker), good(marker)] }),
        ctx.deps.ingest.acceptRequests({ principal, records: [good(marker), lone(marker), good(marker)] }),
        ctx.deps.ingest.acceptRequests({ principal, records: [good(marker)] }),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      const refused = (outcomes[1] as PromiseRejectedResult).reason as AppError;
      expect(refused).toBeInstanceOf(AppError);
      expect(refused.code).toBe("validation_error");
      expect(refused.status).toBe(422);
      expect(refused.options.errors).toEqual([
        {
          index: 1,
          pointer: "/requests/1",
          message: "was refused by the events store (CANNOT_PARSE_ESCAPE_SEQUENCE)",
        },
      ]);
      const rows = await storedRows<{ path: string }>(ctx, "api_requests", `consumer_id = '${marker}'`);
      expect(rows.map((row) => row.path)).toEqual([`/${marker}/ok`, `/${marker}/ok`, `/${marker}/ok`]);
    });

    it("releases an Idempotency-Key claim, so a retry is refused the same way rather than held", async () => {
      const marker = `poison-key-${Date.now()}`;
      const input = {
        principal,
        records: [lone(marker)],
        idempotency: { key: marker, bodyHash: "b".repeat(64) },
      };
      for (let attempt = 0; attempt < 2; attempt++) {
        await expect(ctx.deps.ingest.acceptRequests(input)).rejects.toMatchObject({
          code: "validation_error",
        });
      }
      expect(await storedRows(ctx, "api_requests", `consumer_id = '${marker}'`)).toEqual([]);
    });
  });

  describe("compressed bodies over INGEST_MAX_BODY", () => {
    // Valid JSON well over the limit once inflated, tiny once compressed.
    const json = Buffer.from(
      JSON.stringify({ requests: [requestRecord({ request_payload: "x".repeat(200_000) })] }),
    );
    const codings: Array<[string, string, Buffer]> = [
      ["gzip", "gzip", gzipSync(json)],
      ["zlib-wrapped deflate", "deflate", deflateSync(json)],
      ["raw deflate", "deflate", deflateRawSync(json)],
    ];

    it.each(codings)("answers 413 for %s, storing nothing", async (_name, coding, body) => {
      expect(body.length).toBeLessThan(MAX_BODY);
      const response = await ctx.app.inject({
        method: "POST",
        url: "/api/v1/ingest/requests",
        headers: {
          "content-type": "application/json",
          "content-encoding": coding,
          "x-api-key": fx.projectKey,
        },
        payload: body,
      });
      const problem = expectProblem(response, "payload_too_large");
      expect(problem.detail).toContain("INGEST_MAX_BODY");
    });
  });

  describe("numeric bounds", () => {
    it("rejects out-of-range numbers per record with a pointer, storing the neighbours", async () => {
      const marker = `bounds-${Date.now()}`;
      const record = (overrides: Record<string, unknown>) =>
        requestRecord({ consumer_id: marker, ...overrides });
      const response = await postIngest(
        ctx,
        "requests",
        {
          requests: [
            record({ response_time_ms: 1e300 }),
            record({ response_time_ms: 86_400_001 }),
            record({ request_size: 2 ** 40 + 1 }),
            record({ response_size: 2 ** 53 }),
            record({ status_code: 600 }),
            record({ response_time_ms: 86_400_000, request_size: 2 ** 40, response_size: 0 }),
          ],
        },
        { key: fx.projectKey },
      );
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{ accepted: number; errors: Array<{ index: number; pointer: string }> }>();
      expect(body.accepted).toBe(1);
      expect(body.errors.map(({ index, pointer }) => ({ index, pointer }))).toEqual([
        { index: 0, pointer: "/requests/0/response_time_ms" },
        { index: 1, pointer: "/requests/1/response_time_ms" },
        { index: 2, pointer: "/requests/2/request_size" },
        { index: 3, pointer: "/requests/3/response_size" },
        { index: 4, pointer: "/requests/4/status_code" },
      ]);
    });

    it("documents the bounds in the OpenAPI schema of the request record", async () => {
      const doc = (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json<{
        paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
      }>();
      const text = JSON.stringify(doc.paths["/api/v1/ingest/requests"]?.post.requestBody);
      expect(text).toContain('"maximum":86400000');
      expect(text).toContain('"maximum":1099511627776');
    });
  });

  describe("absurd values already stored", () => {
    it("answers every analytics and data query over them with finite, bounded figures", async () => {
      const marker = `absurd-${Date.now()}`;
      const absurd = [1e300, 1e-300, 5e-324, -5, 1.7976931348623157e308, 0, 12.5];
      const batch = prepareBatch(
        requestKind,
        absurd.map(() => requestRecord({ path: "/absurd", consumer_id: marker })),
        { principal, apps: [fx.checkout], nowMs: Date.now(), retentionDays: 90 },
      );
      const at = (column: string) => REQUEST_COLUMNS.indexOf(column as (typeof REQUEST_COLUMNS)[number]);
      const lines = (batch.chunk?.body.toString("utf8") ?? "").trim().split("\n");
      const body = lines.map((line, i) => {
        const values = JSON.parse(line) as unknown[];
        values[at("response_time_ms")] = absurd[i];
        values[at("request_size")] = 2 ** 63;
        values[at("response_size")] = 2 ** 62;
        return JSON.stringify(values);
      });
      // Straight into the events store, around every check ingest makes.
      await ctx.deps.events.insert({
        table: "api_requests",
        columns: REQUEST_COLUMNS,
        body: Buffer.from(`${body.join("\n")}\n`),
        rowCount: body.length,
      });

      const doc = (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json<OpenApiPaths>();
      const urls = readOnlyUrls(doc, { project_slug: fx.project.slug, app_slug: fx.checkout.slug });
      expect(urls.length).toBeGreaterThan(15);
      for (const url of urls) {
        const response = await owner.get(url);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      }
      const summary = (await owner.get(`/api/v1/apps/${fx.checkout.slug}/analytics/summary`)).json<
        Record<string, number>
      >();
      for (const figure of ["avg", "p50", "p95", "p99"]) {
        const value = summary[`${figure}_response_time_ms`] ?? Number.NaN;
        expect(value, figure).toBeGreaterThanOrEqual(0);
        expect(value, figure).toBeLessThanOrEqual(86_400_000);
      }
    });
  });
});

interface OpenApiPaths {
  paths: Record<
    string,
    Record<string, { tags?: string[]; parameters?: Array<{ in: string; name: string; required?: boolean }> }>
  >;
}

/** Every GET of the data and analytics tags, with its path and required query filled in. */
function readOnlyUrls(doc: OpenApiPaths, ids: Record<string, string>): string[] {
  const required: Record<string, string> = { method: "GET", path: "/absurd" };
  const urls: string[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    const get = operations.get;
    if (get === undefined || !get.tags?.some((tag) => tag === "analytics" || tag === "data")) continue;
    // Detail routes name one record (or trace) these absurd records do not have.
    if (template.includes("{id}") || template.includes("{trace_id}")) continue;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? name);
    const query = (get.parameters ?? [])
      .filter((parameter) => parameter.in === "query" && parameter.required === true)
      .map((parameter) => `${parameter.name}=${encodeURIComponent(required[parameter.name] ?? "x")}`);
    urls.push(query.length === 0 ? path : `${path}?${query.join("&")}`);
  }
  return urls;
}
