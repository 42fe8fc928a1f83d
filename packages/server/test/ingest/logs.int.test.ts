// POST /api/v1/ingest/logs over the real app: stored fields, level aliases (never a silent
// INFO), attribute rules, partial batches, 422 when all are rejected, environment discovery.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  logRecord,
  postIngest,
  storedCount,
  storedRows,
} from "./helpers.js";

describe.each(metadataBackends())("log ingest on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend, env: { LOGS_RETENTION_DAYS: "30" } });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const post = (body: unknown, key = fx.projectKey) => postIngest(ctx, "logs", body, { key });

  it("stores a full log record, normalised", async () => {
    const at = new Date(Date.now() - 5_000);
    const response = await post({
      logs: [
        logRecord(
          {
            project_slug: "shop",
            environment: "Production",
            level: "warn",
            message: "payment provider slow",
            logger_name: "app.payments",
            payload: '{"attempt":3}',
            attributes: { attempt: 3, retry: false, provider: "acme", zero: 0 },
            trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
            span_id: "00F067AA0BA902B7",
            endpoint_method: "post",
            endpoint_path: "/orders/17/pay",
            status_code: 504,
            consumer_id: "customer-42",
          },
          at,
        ),
      ],
    });
    expect(response.json()).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const [row] = await storedRows(ctx, "api_logs");
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      project_id: fx.project.id,
      app_id: fx.checkout.id,
      timestamp: at.toISOString(),
      environment: "production",
      level: "WARNING",
      message: "payment provider slow",
      logger_name: "app.payments",
      payload: '{"attempt":3}',
      attributes: { attempt: "3", retry: "false", provider: "acme", zero: "0" },
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
      endpoint_method: "POST",
      endpoint_path: "/orders/17/pay",
      endpoint_route: "/orders/{id}/pay",
      status_code: 504,
      consumer_id: "customer-42",
      consumer_name: "",
      consumer_group: "",
      // A warning is no error: it joins no error issue.
      fingerprint: "",
      retention_days: 30,
      stored_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("accepts every level and alias in any letter case, and rejects unknown levels", async () => {
    const levels = [
      "trace",
      "DEBUG",
      "info",
      "Warn",
      "warning",
      "ERROR",
      "fatal",
      "CRITICAL",
      "notice",
      "INFORMATION",
    ];
    const response = await post({ logs: levels.map((level) => logRecord({ level, message: level })) });
    const body = response.json<{
      accepted: number;
      rejected: number;
      errors: { index: number; message: string }[];
    }>();
    expect(body.accepted).toBe(8);
    expect(body.errors.map((error) => error.index)).toEqual([8, 9]);
    expect(body.errors[0]?.message).toBe(
      "must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL (or TRACE, WARN, FATAL; any letter case)",
    );
    const stored = await storedRows<{ message: string; level: string }>(ctx, "api_logs");
    expect(Object.fromEntries(stored.map((row) => [row.message, row.level]))).toEqual({
      trace: "DEBUG",
      DEBUG: "DEBUG",
      info: "INFO",
      Warn: "WARNING",
      warning: "WARNING",
      ERROR: "ERROR",
      fatal: "CRITICAL",
      CRITICAL: "CRITICAL",
    });
  });

  it("answers 422 when every record is rejected and never stores them", async () => {
    const response = await post({
      logs: [
        logRecord({ level: "verbose" }),
        logRecord({ attributes: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])) }),
        logRecord({ message: undefined }),
      ],
    });
    const problem = expectProblem(response, "validation_error");
    expect(problem.errors).toEqual([
      { index: 0, pointer: "/logs/0/level", message: expect.stringContaining("must be one of") },
      { index: 1, pointer: "/logs/1/attributes", message: "must have at most 64 keys" },
      { index: 2, pointer: "/logs/2/message", message: "is required" },
    ]);
    expect(await storedCount(ctx, "api_logs")).toBe(0);
  });

  it("lets an app key write its own app's logs only", async () => {
    const response = await post(
      { logs: [logRecord({ app_id: "checkout" }), logRecord({ app_id: fx.billing.id })] },
      fx.appKey,
    );
    expect(response.json()).toMatchObject({ accepted: 1, rejected: 1 });
  });

  it("puts a log sent without `environment` in production, as spans are", async () => {
    const { environment: _left, ...bare } = logRecord();
    expect((await post({ logs: [bare] })).json()).toMatchObject({ accepted: 1, rejected: 0 });
    const [row] = await storedRows<{ environment: string }>(ctx, "api_logs");
    expect(row?.environment).toBe("production");
  });

  it("registers the environments logs name, normalised like requests", async () => {
    await post({ logs: [logRecord({ environment: " Staging " }), logRecord({ environment: "QA" })] });
    const environments = (await fx.api.get("/api/v1/apps/checkout/environments")).json<{ name: string }[]>();
    expect(environments.map((env) => env.name).sort()).toEqual(["qa", "staging"]);
    // Logs name no endpoint of their own: the catalogue stays empty.
    expect((await fx.api.get("/api/v1/apps/checkout/endpoints")).json()).toEqual([]);
  });

  it("rejects logs older than LOGS_RETENTION_DAYS", async () => {
    const response = await post({ logs: [logRecord({}, new Date(Date.now() - 31 * 86_400_000))] });
    expect(expectProblem(response, "validation_error").errors).toEqual([
      { index: 0, pointer: "/logs/0/timestamp", message: "is older than the retention window of 30 days" },
    ]);
  });
});
