// An OTLP exporter resends an export whose answer it did not get (a crash, a dropped connection,
// its own timeout): the rows a span makes (its span row, and the request row of a SERVER span)
// are named by its trace and span id, so the resent export is recognised and stored once.
import { ingestLimitsOf } from "../../src/deps.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIngestService } from "../../src/modules/ingest/ingest.service.js";
import { createOtlpService } from "../../src/modules/otlp/otlp.service.js";
import type { Clock } from "../../src/clock.js";
import { type EventsExecutor, EventsStoreError } from "../../src/stores/events/index.js";
import { createIngestIdempotencyRepo } from "../../src/stores/metadata/repos/ingest-idempotency.repo.js";
import { createIngestFixture, type IngestFixture, storedCount } from "../ingest/helpers.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { manualClock } from "../support/clock.js";
import { delegatingExecutor } from "../support/events.js";

const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

/** An OTLP/JSON export of `count` SERVER spans of one trace, each one request. */
function exportOf(count: number, traceId = "4bf92f3577b34da6a3ce929d0e0e4736") {
  const start = Date.now() - 5_000;
  const spans = Array.from({ length: count }, (_, i) => ({
    traceId,
    spanId: (0x1000_0000_0000_0000n + BigInt(i)).toString(16),
    name: "GET /orders/:id",
    kind: 2,
    startTimeUnixNano: nanos(start + i),
    endTimeUnixNano: nanos(start + i + 12),
    attributes: [
      { key: "http.request.method", value: { stringValue: "GET" } },
      { key: "url.path", value: { stringValue: `/orders/${i}` } },
      { key: "http.route", value: { stringValue: "/orders/:id" } },
      { key: "http.response.status_code", value: { intValue: 200 } },
    ],
  }));
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
        scopeSpans: [{ scope: { name: "test" }, spans }],
      },
    ],
  };
}

describe("a resent OTLP export", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeEach(async () => {
    ctx = await createTestContext({ env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** Ingest and OTLP services of their own over `events` (a real store, one behaviour changed). */
  const services = (events: EventsExecutor, clock: Clock) => {
    const ingest = createIngestService({
      directory: ctx.deps.resources.ingestDirectory,
      events,
      idempotencyRepo: createIngestIdempotencyRepo(ctx.deps.metadata.db),
      clock,
      logger: ctx.deps.logger,
      limits: ingestLimitsOf(ctx.config),
      writer: { flushRows: 10_000, flushIntervalMs: 5, maxPendingRows: 100_000, projectPendingShare: 0.5 },
      admission: ctx.config.ingest,
    });
    const otlp = createOtlpService({ ingest, directory: ctx.deps.resources.ingestDirectory, maxBatch: 1000 });
    return { ingest, otlp };
  };

  /** The real store, its reads counted. */
  const countingQueries = () => {
    const counted = {
      queries: 0,
      events: delegatingExecutor(ctx.deps.events, {
        close: async () => undefined,
        query: (sql, params, lane) => {
          counted.queries += 1;
          return ctx.deps.events.query(sql, params, lane);
        },
      }),
    };
    return counted;
  };

  const post = (body: object) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/v1/otlp/v1/traces",
      headers: { "content-type": "application/json", "x-api-key": fx.projectKey },
      payload: JSON.stringify(body),
    });

  it("stores its span and request rows once when sent twice", async () => {
    const body = exportOf(3);
    expect((await post(body)).statusCode).toBe(200);
    expect((await post(body)).statusCode).toBe(200);
    expect(await storedCount(ctx, "api_spans")).toBe(3);
    expect(await storedCount(ctx, "api_requests")).toBe(3);
    // Another trace with the same span ids is other spans, and is stored.
    expect((await post(exportOf(3, "0af7651916cd43dd8448eb211c80319c"))).statusCode).toBe(200);
    expect(await storedCount(ctx, "api_spans")).toBe(6);
  });

  it("stores an export sent twice at once once", async () => {
    const body = exportOf(2_500);
    const answers = await Promise.all([post(body), post(body), post(body)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await storedCount(ctx, "api_spans")).toBe(2_500);
    expect(await storedCount(ctx, "api_requests")).toBe(2_500);
  });

  it("looks a new batch up once, and knows its resend from memory without looking again", async () => {
    const counting = countingQueries();
    const { ingest, otlp } = services(counting.events, ctx.deps.clock);
    const principal = await ingest.authenticate(fx.projectKey);
    const payload = { bytes: Buffer.from(JSON.stringify(exportOf(3))), encoding: "json" as const };
    try {
      await otlp.exportTraces(principal, payload);
      // One look-up per table: the spans batch and the request records' batch.
      expect(counting.queries).toBe(2);
      await otlp.exportTraces(principal, payload);
      expect(counting.queries).toBe(2);
    } finally {
      await ingest.close();
    }
    expect(await storedCount(ctx, "api_spans")).toBe(3);
    expect(await storedCount(ctx, "api_requests")).toBe(3);
  });

  it("on chDB, takes an unremembered batch as new without a look-up once the start-up minutes are over", async () => {
    const clock = manualClock(new Date());
    const counting = countingQueries();
    const { ingest, otlp } = services(counting.events, clock);
    const principal = await ingest.authenticate(fx.projectKey);
    const payload = { bytes: Buffer.from(JSON.stringify(exportOf(3))), encoding: "json" as const };
    clock.advance(11 * 60_000);
    try {
      await otlp.exportTraces(principal, payload);
      await otlp.exportTraces(principal, payload);
    } finally {
      await ingest.close();
    }
    expect(counting.queries).toBe(0);
    expect(await storedCount(ctx, "api_spans")).toBe(3);
  });

  it("answers the resend of an export whose acknowledgement was lost, storing nothing twice", async () => {
    // What a ClickHouse server behind a dropped connection does: it stores the rows, and the
    // answer is lost. The real store stores; only the acknowledgement is taken away, once.
    const events = ctx.deps.events;
    let lose = true;
    const lossy = delegatingExecutor(events, {
      close: async () => undefined,
      async insert(batch) {
        await events.insert(batch);
        if (lose) throw new EventsStoreError("Events store insert failed: connection reset", "unavailable");
      },
    });
    const { ingest, otlp } = services(lossy, ctx.deps.clock);
    const principal = await ingest.authenticate(fx.projectKey);
    const payload = { bytes: Buffer.from(JSON.stringify(exportOf(4))), encoding: "json" as const };
    try {
      await expect(otlp.exportTraces(principal, payload)).rejects.toMatchObject({
        code: "service_unavailable",
      });
      expect(await storedCount(ctx, "api_spans")).toBe(4);
      lose = false;
      expect(await otlp.exportTraces(principal, payload)).toEqual({ rejected: 0, errorMessage: "" });
    } finally {
      await ingest.close();
    }
    expect(await storedCount(ctx, "api_spans")).toBe(4);
    expect(await storedCount(ctx, "api_requests")).toBe(4);
  });
});
