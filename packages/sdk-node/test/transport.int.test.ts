// Failure modes of the transport against a real Sightline behind a controllable HTTP hop: the
// app is never hurt (answers, no unhandled rejections), the queue stays bounded and counts its
// drops, Retry-After is honoured, retries are stored once, a 413 splits the batch, close()
// flushes within its deadline, and a missing key turns the SDK off with one warning.
import { createServer } from "node:http";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sightlineMiddleware } from "../src/adapters/express.js";
import { createSightline, type Sightline, type SightlineOptions } from "../src/index.js";
import { Gate } from "./support/gate.js";
import { listen, type RealSightline, startSightline } from "./support/sightline.js";

interface Harness {
  readonly sdk: Sightline;
  readonly warnings: string[];
  readonly debug: string[];
  /** Calls GET /items/:n on the instrumented app; resolves with the app's status. */
  call(n: number): Promise<number>;
  close(): Promise<void>;
}

async function instrumentedApp(
  target: string,
  sightline: RealSightline,
  options: SightlineOptions = {},
): Promise<Harness> {
  const warnings: string[] = [];
  const debug: string[] = [];
  const sdk = createSightline({
    apiKey: sightline.key,
    app: sightline.app,
    url: target,
    retryBaseMs: 50,
    retryMaxMs: 200,
    logger: { warn: (m) => warnings.push(m), debug: (m) => debug.push(m) },
    ...options,
  });
  const app = express();
  app.use(sightlineMiddleware(sdk));
  app.get("/items/:n", (req, res) => {
    res.json({ n: req.params.n });
  });
  const served = await listen(createServer(app));
  return {
    sdk,
    warnings,
    debug,
    call: async (n) => {
      const response = await fetch(`${served.url}/items/${n}`);
      await response.arrayBuffer();
      return response.status;
    },
    close: async () => {
      await served.close();
      await sdk.close(0);
    },
  };
}

const stored = async (sightline: RealSightline) => (await sightline.requests()).map((r) => r.path);

describe("the transport against a real Sightline behind a controllable hop", () => {
  let sightline: RealSightline;
  let gate: Gate;
  let harness: Harness | undefined;

  beforeAll(async () => {
    sightline = await startSightline();
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await gate?.shut().catch(() => undefined);
    await sightline.ctx.deps.events.command(
      `TRUNCATE TABLE ${sightline.ctx.deps.events.database}.api_requests`,
    );
  });
  afterAll(async () => {
    await sightline?.close();
  });

  const start = async (options: SightlineOptions = {}) => {
    gate = new Gate(sightline.url);
    await gate.open();
    harness = await instrumentedApp(gate.url, sightline, options);
    return harness;
  };

  it("keeps serving while Sightline is down, bounds its queue, counts drops, and recovers", async () => {
    const h = await start({ batchSize: 10, maxQueueSize: 30, flushIntervalMs: 20, maxRetries: 1000 });
    await gate.shut();
    const statuses: number[] = [];
    for (let n = 0; n < 100; n += 1) statuses.push(await h.call(n));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const during = h.sdk.stats().requests;
    expect(during.queued).toBeLessThanOrEqual(30);
    expect(during.dropped).toBeGreaterThanOrEqual(100 - 30 - 10);
    expect(h.warnings.some((w) => w.includes("queue full"))).toBe(true);

    await gate.open();
    const after = await h.sdk.close(15_000);
    expect(after.requests.failed).toBe(0);
    expect(after.requests.sent + after.requests.dropped).toBe(100);
    const paths = await stored(sightline);
    expect(paths).toHaveLength(after.requests.sent);
    // The oldest were dropped: the newest 30 all arrived.
    for (let n = 70; n < 100; n += 1) expect(paths).toContain(`/items/${n}`);
  });

  for (const status of [503, 429]) {
    it(`waits for Retry-After on ${status}, then stores the batch once`, async () => {
      const h = await start({ batchSize: 5, flushIntervalMs: 60_000 });
      gate.then({ kind: "answer", status, headers: { "retry-after": "1" } });
      for (let n = 0; n < 5; n += 1) await h.call(n);
      const stats = await h.sdk.close(15_000);
      expect(stats.requests).toMatchObject({ sent: 5, failed: 0 });
      const [first, second] = gate.attempts;
      expect(first?.outcome).toBe(`answered ${status}`);
      expect(second?.outcome).toBe("forwarded 200");
      expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(990);
      expect(await stored(sightline)).toHaveLength(5);
    });
  }

  it("stores a batch once when its answer was lost and the retry carries the same Idempotency-Key", async () => {
    const h = await start({ batchSize: 4, flushIntervalMs: 60_000 });
    gate.then({ kind: "lose-answer" }, { kind: "lose-answer" });
    for (let n = 0; n < 4; n += 1) await h.call(n);
    const stats = await h.sdk.close(15_000);
    expect(gate.attempts.map((a) => a.outcome)).toEqual(["lost answer", "lost answer", "forwarded 200"]);
    expect(new Set(gate.attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    expect(stats.requests).toMatchObject({ sent: 4, failed: 0 });
    expect(await stored(sightline)).toHaveLength(4);
  });

  it("answers the app while a batch is still waiting on a slow Sightline", async () => {
    const h = await start({ batchSize: 5, flushIntervalMs: 60_000 });
    gate.then({ kind: "hold" });
    for (let n = 0; n < 5; n += 1) await h.call(n);
    while (gate.heldCount() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // The batch is held inside Sightline's hop; the app keeps answering all the same.
    const statuses = await Promise.all(Array.from({ length: 50 }, (_, n) => h.call(100 + n)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(gate.heldCount()).toBe(1);
    gate.release();
    const stats = await h.sdk.close(15_000);
    expect(stats.requests).toMatchObject({ sent: 55, failed: 0 });
    expect(await stored(sightline)).toHaveLength(55);
  });

  it("sends what a flush found queued, and leaves what arrives meanwhile for a full batch or the next interval", async () => {
    const h = await start({ batchSize: 50, flushIntervalMs: 60_000 });
    gate.then({ kind: "hold" });
    for (let n = 0; n < 5; n += 1) await h.call(n);
    h.sdk.flush();
    while (gate.heldCount() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    // Traffic goes on while the flushed batch is in flight.
    for (let n = 5; n < 15; n += 1) await h.call(n);
    gate.release();
    while (h.sdk.stats().requests.sent < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // One POST: the ten newer records wait for a batch of 50 or the next tick, not a POST of
    // their own right behind the flushed one.
    expect(gate.attempts).toHaveLength(1);
    expect(h.sdk.stats().requests).toMatchObject({ sent: 5, queued: 10 });
    for (let n = 15; n < 55; n += 1) await h.call(n);
    while (h.sdk.stats().requests.sent < 55) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(gate.attempts).toHaveLength(2);
    expect(await stored(sightline)).toHaveLength(55);
  });

  it("sends what is queued on close(), and gives up at the deadline when Sightline is down", async () => {
    const h = await start({ batchSize: 500, flushIntervalMs: 60_000 });
    for (let n = 0; n < 30; n += 1) await h.call(n);
    expect(gate.attempts).toHaveLength(0);
    expect((await h.sdk.close()).requests).toMatchObject({ sent: 30, queued: 0 });
    expect(await stored(sightline)).toHaveLength(30);

    const down = await instrumentedApp(gate.url, sightline, { batchSize: 500, flushIntervalMs: 60_000 });
    await gate.shut();
    for (let n = 0; n < 10; n += 1) await down.call(n);
    const began = Date.now();
    const stats = await down.sdk.close(300);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(stats.requests).toMatchObject({ sent: 0, failed: 10, queued: 0 });
    await down.close();
  });

  it("does not retry a refused batch (401), and says why once", async () => {
    const h = await start({ batchSize: 2, flushIntervalMs: 60_000 });
    gate.then(
      {
        kind: "answer",
        status: 401,
        body: JSON.stringify({ status: 401, detail: "The API key is revoked." }),
      },
      {
        kind: "answer",
        status: 401,
        body: JSON.stringify({ status: 401, detail: "The API key is revoked." }),
      },
    );
    for (let n = 0; n < 4; n += 1) await h.call(n);
    const stats = await h.sdk.close(5_000);
    expect(gate.attempts.map((a) => a.outcome)).toEqual(["answered 401", "answered 401"]);
    expect(stats.requests).toMatchObject({ sent: 0, failed: 4 });
    expect(h.warnings.filter((w) => w.includes("The API key is revoked."))).toHaveLength(1);
  });

  it("splits a batch the server finds too large (413) until it fits", async () => {
    const small = await startSightline({ INGEST_MAX_BATCH: "3" });
    try {
      gate = new Gate(small.url);
      await gate.open();
      harness = await instrumentedApp(gate.url, small, { batchSize: 12, flushIntervalMs: 60_000 });
      for (let n = 0; n < 12; n += 1) await harness.call(n);
      const stats = await harness.sdk.close(15_000);
      expect(stats.requests).toMatchObject({ sent: 12, failed: 0 });
      const outcomes = gate.attempts.map((a) => a.outcome);
      expect(outcomes.filter((o) => o === "forwarded 413")).toHaveLength(3);
      expect(outcomes.filter((o) => o === "forwarded 200")).toHaveLength(4);
      expect(await small.requests()).toHaveLength(12);
    } finally {
      await harness?.close();
      harness = undefined;
      await small.close();
    }
  });

  it("skips ignored paths and names consumers with identifyConsumer", async () => {
    const h = await start({
      batchSize: 500,
      flushIntervalMs: 60_000,
      ignorePaths: ["/items/1", /^\/items\/2$/],
      identifyConsumer: (req) => ({
        id: `c-${(req as { params?: { n?: string } }).params?.n ?? "?"}`,
        group: "free",
      }),
    });
    for (let n = 0; n < 4; n += 1) await h.call(n);
    await h.sdk.close(5_000);
    const rows = await sightline.requests();
    expect(rows.map((r) => r.path).sort()).toEqual(["/items/0", "/items/3"]);
    expect(rows.map((r) => `${r.consumer_id}/${r.consumer_group}`).sort()).toEqual(["c-0/free", "c-3/free"]);
  });

  it("logs each batch with the debug option", async () => {
    const h = await start({ batchSize: 3, flushIntervalMs: 60_000, debug: true });
    for (let n = 0; n < 3; n += 1) await h.call(n);
    await h.sdk.close(5_000);
    expect(
      h.debug.some((line) => /POST api\/v1\/ingest\/requests 3 records \(sl-[^)]+\): HTTP 200/.test(line)),
    ).toBe(true);
  });
});

describe("without an API key", () => {
  it("is off with one warning, and the app is unaffected", async () => {
    const warnings: string[] = [];
    const saved = process.env.SIGHTLINE_API_KEY;
    delete process.env.SIGHTLINE_API_KEY;
    try {
      const sdk = createSightline({ app: "checkout", logger: { warn: (m) => warnings.push(m) } });
      const app = express();
      app.use(sightlineMiddleware(sdk));
      app.get("/ping", (_req, res) => {
        res.send("pong");
      });
      const served = await listen(createServer(app));
      for (let n = 0; n < 5; n += 1) expect(await (await fetch(`${served.url}/ping`)).text()).toBe("pong");
      sdk.log("INFO", "ignored");
      await served.close();
      expect(sdk.enabled).toBe(false);
      expect(await sdk.close()).toMatchObject({ requests: { queued: 0, sent: 0 } });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("no API key");
    } finally {
      if (saved !== undefined) process.env.SIGHTLINE_API_KEY = saved;
    }
  });
});
