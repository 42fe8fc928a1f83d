// No tenant can hurt another through ingest: a project (or key) over its rate gets 429 +
// Retry-After before its body is read, on /ingest and OTLP alike; a project flooding the shared
// writer is held to its share of the pending rows while another project still gets in (no 503);
// nothing answered 200 is lost. Rates run on a manual clock, so no refill happens unless a test
// moves it.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { removeTestChdbPath } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import { createIngestFixture, postIngest, requestRecord, storedRows } from "./helpers.js";

afterAll(removeTestChdbPath);

const contexts: TestContext[] = [];
async function start(env: Record<string, string>, clock?: ManualClock): Promise<TestContext> {
  const ctx = await createTestContext({ env, ...(clock === undefined ? {} : { clock }) });
  contexts.push(ctx);
  return ctx;
}
afterEach(async () => {
  for (const ctx of contexts.splice(0).reverse()) await ctx.close();
});

/** One batch of `size` records whose paths name the batch, so stored rows can be counted per batch. */
const batchNamed = (name: string, size: number, app = "checkout") => ({
  requests: Array.from({ length: size }, (_, i) => requestRecord({ app_id: app, path: `/${name}/${i}` })),
});

/** Stored request rows per batch name (the first path segment). */
async function storedBatches(ctx: TestContext): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const row of await storedRows<{ path: string }>(ctx, "api_requests")) {
    const name = row.path.split("/")[1] as string;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

/** An OTLP/JSON traces export of `count` spans of the app `checkout`. */
function tracesExport(count: number): string {
  const now = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
        scopeSpans: [
          {
            spans: Array.from({ length: count }, (_, i) => ({
              traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
              spanId: (i + 1).toString(16).padStart(16, "0"),
              name: "work",
              kind: 1,
              startTimeUnixNano: `${now}`,
              endTimeUnixNano: `${now + 1_000_000n}`,
            })),
          },
        ],
      },
    ],
  });
}

/** An OTLP/JSON logs export of `count` records of the app `checkout`. */
function logsExport(count: number): string {
  const now = `${BigInt(Date.now()) * 1_000_000n}`;
  return JSON.stringify({
    resourceLogs: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
        scopeLogs: [
          {
            logRecords: Array.from({ length: count }, (_, i) => ({
              timeUnixNano: now,
              severityNumber: 9,
              body: { stringValue: `log ${i}` },
            })),
          },
        ],
      },
    ],
  });
}

function postOtlp(ctx: TestContext, key: string, signal: "traces" | "logs", payload: string) {
  return ctx.app.inject({
    method: "POST",
    url: `/api/v1/otlp/v1/${signal}`,
    headers: { "content-type": "application/json", "x-api-key": key },
    payload,
  });
}

describe("ingest admission per project and per key", () => {
  it("answers a project over INGEST_PROJECT_RATE 429 + Retry-After while another project is stored", async () => {
    const clock = manualClock();
    const ctx = await start({ INGEST_PROJECT_RATE: "100", INGEST_PROJECT_BURST: "150" }, clock);
    const flood = await createIngestFixture(ctx, "flood@example.com");
    const victim = await createIngestFixture(ctx, "victim@example.com");

    // 150 records of burst: the first batch leaves 50, the second is still admitted (a bucket
    // not in debt takes a whole batch) and leaves the project 50 records in debt.
    for (const name of ["f1", "f2"]) {
      const response = await postIngest(ctx, "requests", batchNamed(name, 100), { key: flood.projectKey });
      expect(response.statusCode).toBe(200);
    }
    const refused = await postIngest(ctx, "requests", batchNamed("f3", 100), { key: flood.projectKey });
    expect(expectProblem(refused, "rate_limited").detail).toBe(
      "This project is over its ingest rate (100 records per second on this server); nothing from this " +
        "batch was stored. Retry after the Retry-After delay.",
    );
    expect(refused.headers["retry-after"]).toBe("1");
    // Refused before the body is read: a body that is not even JSON gets the same 429, not a 400.
    const unread = await postIngest(ctx, "requests", "{not json", { key: flood.projectKey });
    expectProblem(unread, "rate_limited");
    // Every key of the project shares the project's rate.
    expectProblem(
      await postIngest(ctx, "requests", batchNamed("f4", 1), { key: flood.appKey }),
      "rate_limited",
    );

    // Another project is not touched by the first one's debt.
    for (const name of ["v1", "v2"]) {
      const response = await postIngest(ctx, "requests", batchNamed(name, 100), { key: victim.projectKey });
      expect(response.statusCode).toBe(200);
    }

    // One second refills 100 records: out of debt, the project is admitted again.
    clock.advance(1000);
    expect(
      (await postIngest(ctx, "requests", batchNamed("f5", 100), { key: flood.projectKey })).statusCode,
    ).toBe(200);
    expect(await storedBatches(ctx)).toEqual({ f1: 100, f2: 100, v1: 100, v2: 100, f5: 100 });
  });

  it("lets one of several requests arriving together through on a bucket just out of debt", async () => {
    const clock = manualClock();
    const ctx = await start({ INGEST_PROJECT_RATE: "100", INGEST_PROJECT_BURST: "100" }, clock);
    const fx = await createIngestFixture(ctx);
    expect(
      (await postIngest(ctx, "requests", batchNamed("b1", 100), { key: fx.projectKey })).statusCode,
    ).toBe(200);
    // The bucket is at 0: not in debt. The first request through reserves the key's last batch
    // (100 records), so the others are refused before their bodies are read — bodies that are
    // not JSON, so a request that was read answers 400 instead.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => postIngest(ctx, "requests", "{not json", { key: fx.projectKey })),
    );
    expect(answers.map((response) => response.statusCode).sort()).toEqual([400, 429, 429, 429, 429]);
  });

  it("answers a key over INGEST_KEY_RATE 429 while another key of the same project is stored", async () => {
    const clock = manualClock();
    const ctx = await start({ INGEST_KEY_RATE: "50", INGEST_KEY_BURST: "100" }, clock);
    const fx = await createIngestFixture(ctx);
    for (const name of ["k1", "k2"]) {
      expect(
        (await postIngest(ctx, "requests", batchNamed(name, 100), { key: fx.projectKey })).statusCode,
      ).toBe(200);
    }
    const refused = await postIngest(ctx, "requests", batchNamed("k3", 100), { key: fx.projectKey });
    expect(expectProblem(refused, "rate_limited").detail).toContain("This API key is over its ingest rate");
    // 100 records of debt at 50 records per second.
    expect(refused.headers["retry-after"]).toBe("2");
    expect((await postIngest(ctx, "requests", batchNamed("a1", 100), { key: fx.appKey })).statusCode).toBe(
      200,
    );
    expect(await storedBatches(ctx)).toEqual({ k1: 100, k2: 100, a1: 100 });
  });

  it("answers the OTLP receivers 429 + Retry-After when the project is over its rate", async () => {
    const clock = manualClock();
    const ctx = await start({ INGEST_PROJECT_RATE: "10", INGEST_PROJECT_BURST: "10" }, clock);
    const fx = await createIngestFixture(ctx);
    // An export is admitted whole, once: its 20 spans (and their request rows) put the project
    // 10 records in debt.
    expect((await postOtlp(ctx, fx.projectKey, "traces", tracesExport(20))).json()).toEqual({});
    for (const signal of ["traces", "logs"] as const) {
      const refused = await postOtlp(
        ctx,
        fx.projectKey,
        signal,
        signal === "traces" ? tracesExport(1) : "{}",
      );
      expectProblem(refused, "rate_limited");
      expect(refused.headers["retry-after"]).toBe("1");
    }
    expect(await storedRows(ctx, "api_spans")).toHaveLength(20);
  });

  it("charges an OTLP logs export once for its log records, however it is stored", async () => {
    const clock = manualClock();
    const ctx = await start({ INGEST_PROJECT_RATE: "10", INGEST_PROJECT_BURST: "20" }, clock);
    const fx = await createIngestFixture(ctx);
    // 20 → 5 → 0 → -1: each admitted while not in debt; then refused.
    for (const count of [15, 5, 1]) {
      expect((await postOtlp(ctx, fx.projectKey, "logs", logsExport(count))).json()).toEqual({});
    }
    expectProblem(await postOtlp(ctx, fx.projectKey, "logs", logsExport(1)), "rate_limited");
    expect(await storedRows(ctx, "api_logs")).toHaveLength(21);
  });
});

describe("the writers' per-project share of pending rows", () => {
  it("keeps a flooding project to its share so another project's batch is queued, not refused with 503", async () => {
    // A minute between inserts: after the first insert, everything waits in the writer until
    // shutdown stores it, so the queue is exactly what the test sent.
    const ctx = await start({
      INGEST_MAX_PENDING_ROWS: "1000",
      INGEST_PROJECT_PENDING_SHARE: "50",
      INGEST_FLUSH_INTERVAL_MS: "60000",
    });
    const flood = await createIngestFixture(ctx, "flood@example.com");
    const victim = await createIngestFixture(ctx, "victim@example.com");
    expect(
      (await postIngest(ctx, "requests", batchNamed("first", 1), { key: victim.projectKey })).statusCode,
    ).toBe(200);

    const flooding = Array.from({ length: 10 }, (_, i) =>
      postIngest(ctx, "requests", batchNamed(`f${i}`, 100), { key: flood.projectKey }),
    );
    while (ctx.deps.ingest.stats().requests.queuedRows < 500)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const victims = [0, 1, 2].map((i) =>
      postIngest(ctx, "requests", batchNamed(`v${i}`, 100), { key: victim.projectKey }),
    );
    // Refusals are answered at once, queued batches when shutdown stores them: wait until each of
    // the 13 batches of 100 is one or the other.
    const settled = () => {
      const { queuedRows, refusedBatches, overShareBatches } = ctx.deps.ingest.stats().requests;
      return queuedRows + 100 * (refusedBatches + overShareBatches);
    };
    while (settled() < 1300) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ctx.deps.ingest.stats().requests).toMatchObject({ queuedRows: 800, refusedBatches: 0 });
    await ctx.stop();

    const floodAnswers = await Promise.all(flooding);
    const accepted = floodAnswers.filter((response) => response.statusCode === 200);
    const limited = floodAnswers.filter((response) => response.statusCode === 429);
    expect([accepted.length, limited.length]).toEqual([5, 5]);
    for (const response of limited) {
      expect(expectProblem(response, "rate_limited").detail).toContain("INGEST_PROJECT_PENDING_SHARE");
      expect(response.headers["retry-after"]).toBe("1");
    }
    for (const response of await Promise.all(victims)) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ accepted: 100, rejected: 0, errors: [] });
    }

    const restarted = await createTestContext({ reuse: ctx.storage });
    contexts.push(restarted);
    const stored = await storedBatches(restarted);
    const acceptedNames = floodAnswers.flatMap((response, i) =>
      response.statusCode === 200 ? [`f${i}`] : [],
    );
    expect(stored).toEqual(
      Object.fromEntries([
        ["first", 1],
        ...acceptedNames.map((name) => [name, 100]),
        ["v0", 100],
        ["v1", 100],
        ["v2", 100],
      ]),
    );
  });
});
