// What ingest promises under failure, in-process: an events store that refuses writes gets 503
// + Retry-After (never 200 or 500) and loses nothing acknowledged; backpressure refuses instead
// of queueing without bound; shutdown stores what is waiting before the store closes.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { removeTestChdbPath } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import { createIngestFixture, postIngest, requestRecord, storedRows } from "./helpers.js";

afterAll(removeTestChdbPath);

describe("ingest durability", () => {
  const contexts: TestContext[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const ctx = await createTestContext({ env });
    contexts.push(ctx);
    return ctx;
  };
  afterEach(async () => {
    for (const ctx of contexts.splice(0).reverse()) await ctx.close();
  });

  /** One batch of `size` records whose paths name the batch, so stored rows can be counted per batch. */
  const batchNamed = (name: string, size: number) => ({
    requests: Array.from({ length: size }, (_, i) => requestRecord({ path: `/${name}/${i}` })),
  });

  it("answers 503 with Retry-After while the store refuses writes, and loses nothing it acknowledged", async () => {
    const ctx = await start();
    const fx = await createIngestFixture(ctx);
    const table = `${ctx.deps.events.database}.api_requests`;
    const acknowledged: string[] = [];
    const refused: string[] = [];
    const statuses = new Map<number, number>();
    let phase: "up" | "down" | "recovered" = "up";
    const client = async (id: number) => {
      for (let n = 0; n < 24; n++) {
        const name = `c${id}-b${n}`;
        const response = await postIngest(ctx, "requests", batchNamed(name, 20), { key: fx.projectKey });
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode === 200) acknowledged.push(name);
        else {
          expectProblem(response, "service_unavailable");
          expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
          refused.push(name);
        }
        if (phase !== "up") await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const outage = (async () => {
      while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      await ctx.deps.events.command(`ALTER TABLE ${table} MODIFY SETTING parts_to_throw_insert = 1`);
      phase = "down";
      while (refused.length < 10) await new Promise((resolve) => setTimeout(resolve, 5));
      await ctx.deps.events.command(`ALTER TABLE ${table} RESET SETTING parts_to_throw_insert`);
      phase = "recovered";
    })();
    await Promise.all([client(1), client(2), client(3), client(4), outage]);

    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(phase).toBe("recovered");
    const rows = await storedRows<{ path: string }>(ctx, "api_requests");
    const perBatch = new Map<string, number>();
    for (const row of rows) {
      const name = row.path.split("/")[1] as string;
      perBatch.set(name, (perBatch.get(name) ?? 0) + 1);
    }
    // Every acknowledged batch is stored whole and once; no refused batch left a row behind.
    expect(Object.fromEntries(perBatch)).toEqual(Object.fromEntries(acknowledged.map((name) => [name, 20])));
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(acknowledged.length + refused.length).toBe(96);
  });

  it("answers 503, not 500, when the events store is gone", async () => {
    const ctx = await start();
    const fx = await createIngestFixture(ctx);
    await ctx.deps.events.close();
    const response = await postIngest(ctx, "requests", batchNamed("gone", 3), { key: fx.projectKey });
    expect(expectProblem(response, "service_unavailable").detail).toBe(
      "The events store is unavailable; nothing from this batch was stored. Retry after the Retry-After delay.",
    );
    expect(response.headers["retry-after"]).toBe("5");
  });

  it("refuses batches with 503 + Retry-After beyond INGEST_MAX_PENDING_ROWS, storing every one it accepted", async () => {
    const ctx = await start({ INGEST_MAX_PENDING_ROWS: "150", INGEST_FLUSH_INTERVAL_MS: "500" });
    const fx = await createIngestFixture(ctx);
    await postIngest(ctx, "requests", batchNamed("first", 1), { key: fx.projectKey });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postIngest(ctx, "requests", batchNamed(`p${i}`, 100), { key: fx.projectKey }),
      ),
    );
    const accepted = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode === 503);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(accepted.length + refused.length).toBe(6);
    for (const response of refused) {
      expect(expectProblem(response, "service_unavailable").detail).toContain("at capacity");
      expect(response.headers["retry-after"]).toBe("1");
    }
    expect(await storedRows(ctx, "api_requests")).toHaveLength(1 + accepted.length * 100);
  });

  it("stores the batches waiting in the writer before the store closes on shutdown", async () => {
    const ctx = await start({ INGEST_FLUSH_INTERVAL_MS: "60000" });
    const fx = await createIngestFixture(ctx);
    // The first batch starts an insert at once; the next waits for the interval (a minute).
    await postIngest(ctx, "requests", batchNamed("first", 3), { key: fx.projectKey });
    const pending = postIngest(ctx, "requests", batchNamed("late", 7), { key: fx.projectKey });
    while (ctx.deps.ingest.stats().requests.queuedRows === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await ctx.stop();
    expect((await pending).json()).toEqual({ accepted: 7, rejected: 0, errors: [] });
    const restarted = await createTestContext({ reuse: ctx.storage });
    contexts.push(restarted);
    expect(await storedRows(restarted, "api_requests")).toHaveLength(10);
  });
});
