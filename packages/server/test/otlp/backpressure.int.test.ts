// Backpressure and limits on the OTLP receivers are ingest's: beyond INGEST_MAX_PENDING_ROWS, and
// when the events store is gone, an export is answered 503 with Retry-After (which OpenTelemetry
// exporters retry), every export answered 200 is stored whole, and a large export is stored in
// INGEST_MAX_BATCH pieces rather than refused (exporters never retry a 413).
import { afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { expectProblem } from "../support/problem.js";
import { createIngestFixture } from "../ingest/helpers.js";

const contexts: TestContext[] = [];

async function start(env: Record<string, string> = {}): Promise<TestContext> {
  const ctx = await createTestContext({ env });
  contexts.push(ctx);
  return ctx;
}

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
});

/** An OTLP/JSON logs export of `count` records of the app `checkout`, named `batch`. */
function logsExport(batch: string, count: number): string {
  const now = `${BigInt(Date.now()) * 1_000_000n}`;
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
        scopeLogs: [
          {
            scope: { name: batch },
            logRecords: Array.from({ length: count }, (_, i) => ({
              timeUnixNano: now,
              severityNumber: 9,
              body: { stringValue: `${batch} ${i}` },
            })),
          },
        ],
      },
    ],
  });
}

describe("OTLP under backpressure", () => {
  const post = (ctx: TestContext, key: string, signal: "logs", payload: string) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/v1/otlp/v1/${signal}`,
      headers: { "content-type": "application/json", "x-api-key": key },
      payload,
    });

  it("answers 503 + Retry-After beyond INGEST_MAX_PENDING_ROWS, storing every export it accepted", async () => {
    const ctx = await start({ INGEST_MAX_PENDING_ROWS: "150", INGEST_FLUSH_INTERVAL_MS: "500" });
    const fx = await createIngestFixture(ctx);
    expect((await post(ctx, fx.projectKey, "logs", logsExport("first", 1))).json()).toEqual({});
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(ctx, fx.projectKey, "logs", logsExport(`p${i}`, 100))),
    );
    const accepted = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode === 503);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length + refused.length).toBe(6);
    for (const response of accepted) expect(response.json()).toEqual({});
    for (const response of refused) {
      expect(expectProblem(response, "service_unavailable").detail).toContain("at capacity");
      expect(response.headers["retry-after"]).toBe("1");
    }
    const [row] = await ctx.deps.events.query<{ n: number }>(
      `SELECT count() AS n FROM ${ctx.deps.events.database}.api_logs WHERE project_id = {project:String}`,
      { project: fx.project.id },
    );
    expect(Number(row?.n)).toBe(1 + accepted.length * 100);
  });

  it("stores an export larger than INGEST_MAX_BATCH in several batches instead of refusing it", async () => {
    const ctx = await start({ INGEST_MAX_BATCH: "2", INGEST_FLUSH_INTERVAL_MS: "1" });
    const fx = await createIngestFixture(ctx);
    expect((await post(ctx, fx.projectKey, "logs", logsExport("big", 5))).json()).toEqual({});
    const [row] = await ctx.deps.events.query<{ n: number }>(
      `SELECT count() AS n FROM ${ctx.deps.events.database}.api_logs WHERE project_id = {project:String}`,
      { project: fx.project.id },
    );
    expect(Number(row?.n)).toBe(5);
  });

  it("answers 503 + Retry-After, not 500, when the events store is gone", async () => {
    const ctx = await start();
    const fx = await createIngestFixture(ctx);
    await ctx.deps.events.close();
    const reply = await post(ctx, fx.projectKey, "logs", logsExport("gone", 2));
    expectProblem(reply, "service_unavailable");
    expect(reply.headers["retry-after"]).toBe("5");
  });
});
