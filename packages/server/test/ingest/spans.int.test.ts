// POST /api/v1/ingest/traces over the real app: spans in the APILens SDK's shape stored in
// api_spans, normalised; partial batches with pointers; unknown fields ignored and named; the
// same key rules, limits, retention and Idempotency-Key behaviour as request ingest; concurrent
// batches sharing inserts (group commit).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  postIngest,
  spanRecord,
  storedCount,
  storedRows,
} from "./helpers.js";

describe("span ingest", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeEach(async () => {
    ctx = await createTestContext({
      env: { SPANS_RETENTION_DAYS: "7", INGEST_MAX_BATCH: "50", INGEST_FLUSH_INTERVAL_MS: "200" },
    });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const post = (body: unknown, options: Parameters<typeof postIngest>[3] = {}) =>
    postIngest(ctx, "traces", body, { key: fx.projectKey, ...options });

  it("stores a span, normalised, and answers once it is stored", async () => {
    const at = new Date(Date.now() - 60_000);
    const response = await post({
      spans: [
        spanRecord(
          {
            project_slug: "shop",
            environment: " Staging ",
            trace_id: "4BF92F3577B34DA6A3CE929D0E0E4736",
            span_id: "00F067AA0BA902B7",
            parent_span_id: "A3CE929D0E0E4736",
            name: "charge card",
            kind: "DB",
            duration_ms: 3.25,
            status: "ERROR",
            status_code: 0,
            attributes: { "db.system": "postgresql", rows: 3, cached: false },
          },
          at,
        ),
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const [row] = await storedRows(ctx, "api_spans");
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      project_id: fx.project.id,
      app_id: fx.checkout.id,
      timestamp: at.toISOString(),
      environment: "staging",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
      parent_span_id: "a3ce929d0e0e4736",
      name: "charge card",
      kind: "db",
      service_name: "checkout-api",
      duration_ms: 3.25,
      status: "error",
      status_code: 0,
      attributes: { "db.system": "postgresql", rows: "3", cached: "false" },
      retention_days: 7,
      stored_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("fills the SDK's defaults: production, internal, ok, no parent, no status", async () => {
    const response = await post({
      spans: [
        {
          app_id: "checkout",
          timestamp: new Date().toISOString(),
          trace_id: "1".repeat(32),
          span_id: "2".repeat(16),
        },
      ],
    });
    expect(response.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const [row] = await storedRows<Record<string, unknown>>(ctx, "api_spans");
    expect(row).toMatchObject({
      environment: "production",
      kind: "internal",
      status: "ok",
      status_code: 0,
      parent_span_id: "",
      name: "",
      duration_ms: 0,
      attributes: {},
    });
  });

  it("stores the valid spans of a batch, points at the others, and names unknown fields once", async () => {
    const response = await post({
      spans: [
        spanRecord({ sdk_version: "1.2.0" }),
        spanRecord({ trace_id: "0".repeat(32), sdk_version: "1.2.0" }),
        spanRecord({ span_id: "xyz", status: "maybe", status_code: 42 }),
        spanRecord({ duration_ms: "12", extra: 1 }),
        spanRecord({ parent_span_id: "abc" }),
      ],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      accepted: number;
      rejected: number;
      errors: unknown[];
      ignored_fields: string[];
    }>();
    expect(body.accepted).toBe(1);
    expect(body.rejected).toBe(4);
    expect(body.ignored_fields).toEqual(["extra", "sdk_version"]);
    expect(body.errors).toEqual([
      { index: 1, pointer: "/spans/1/trace_id", message: expect.stringContaining("32 hexadecimal digits") },
      { index: 2, pointer: "/spans/2/span_id", message: expect.stringContaining("16 hexadecimal digits") },
      { index: 2, pointer: "/spans/2/status", message: 'must be "ok" or "error"' },
      { index: 2, pointer: "/spans/2/status_code", message: "must be 100–599, or 0 for none" },
      { index: 3, pointer: "/spans/3/duration_ms", message: "must be number" },
      {
        index: 4,
        pointer: "/spans/4/parent_span_id",
        message: expect.stringContaining("16 hexadecimal digits"),
      },
    ]);
    expect(await storedCount(ctx, "api_spans")).toBe(1);
  });

  it("answers 422 when every span is rejected, storing nothing", async () => {
    const response = await post({ spans: [spanRecord({ trace_id: "" }), spanRecord({ app_id: "nope" })] });
    const problem = expectProblem(response, "validation_error");
    expect(problem.errors).toHaveLength(2);
    expect(await storedCount(ctx, "api_spans")).toBe(0);
  });

  it("applies the key rules: 401 without a key, an app key writes its own app only", async () => {
    expectProblem(await post({ spans: [spanRecord()] }, { key: "sl_nope" }), "authentication_error");
    const ok = await post({ spans: [spanRecord()] }, { key: fx.appKey });
    expect(ok.json()).toMatchObject({ accepted: 1 });
    const other = await post({ spans: [spanRecord({ app_id: "billing" })] }, { key: fx.appKey });
    expectProblem(other, "validation_error");
  });

  it("refuses more than INGEST_MAX_BATCH spans with 413 and spans older than SPANS_RETENTION_DAYS", async () => {
    const many = Array.from({ length: 51 }, () => spanRecord());
    expectProblem(await post({ spans: many }), "payload_too_large");
    const old = await post({ spans: [spanRecord({}, new Date(Date.now() - 8 * 86_400_000))] });
    expect(expectProblem(old, "validation_error").errors).toEqual([
      { index: 0, pointer: "/spans/0/timestamp", message: "is older than the retention window of 7 days" },
    ]);
    expect(await storedCount(ctx, "api_spans")).toBe(0);
  });

  it("answers a retry under the same Idempotency-Key with the first answer, storing once", async () => {
    const body = { spans: [spanRecord(), spanRecord({ unknown_field: true })] };
    const headers = { "idempotency-key": "spans-0001" };
    const first = await post(body, { headers });
    const second = await post(body, { headers });
    expect(second.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ accepted: 2, ignored_fields: ["unknown_field"] });
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(await storedCount(ctx, "api_spans")).toBe(2);
  });

  it("commits concurrent batches together: fewer inserts than batches, every span stored", async () => {
    const batches = 12;
    const answers = await Promise.all(
      Array.from({ length: batches }, (_, i) =>
        post({ spans: Array.from({ length: 5 }, (_, j) => spanRecord({ name: `s${i}-${j}` })) }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(batches).fill(200));
    const stats = ctx.deps.ingest.stats().spans;
    expect(stats.insertedRows).toBe(batches * 5);
    expect(stats.inserts).toBeLessThan(batches);
    expect(await storedCount(ctx, "api_spans")).toBe(batches * 5);
  });
});
