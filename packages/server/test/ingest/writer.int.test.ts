// The buffered writer against the real events store on every backend: group commit, whole
// batches per insert, answers only after the insert, a bad batch failing alone, an unavailable
// store failing every batch of the insert with nothing stored, backpressure, close() flushing.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KeyPrincipal } from "../../src/modules/ingest/directory.js";
import { prepareBatch } from "../../src/modules/ingest/ingest.pipeline.js";
import {
  createEventsWriter,
  type EventsWriter,
  type EventsWriterOptions,
  WriterClosedError,
  TenantOverShareError,
  WriterOverloadedError,
  type RowChunk,
} from "../../src/stores/events/writer.js";
import { requestKind } from "../../src/modules/ingest/requests.records.js";
import { pino } from "pino";
import { createLogger } from "../../src/logger.js";
import {
  type EventsExecutor,
  EventsStoreError,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import {
  delegatingExecutor,
  eventsBackends,
  removeTestChdbPath,
  uniqueDatabaseName,
} from "../support/events.js";

const APP = { id: "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21", slug: "checkout" };
const PRINCIPAL: KeyPrincipal = { keyId: "k", project: { id: "p-writer", slug: "shop" }, app: null };

/** `rows` request rows serialised exactly as ingest serialises them. */
function chunkOf(rows: number, path = "/items", retentionDays = 90): RowChunk {
  const now = Date.now();
  const records = Array.from({ length: rows }, (_, i) => ({
    app_id: APP.id,
    timestamp: new Date(now - i).toISOString(),
    environment: "test",
    method: "GET",
    path: `${path}/${i}`,
    status_code: 200,
    response_time_ms: i,
  }));
  const batch = prepareBatch(requestKind, records, {
    principal: PRINCIPAL,
    apps: [APP],
    nowMs: now,
    retentionDays,
  });
  if (batch.chunk === null) throw new Error("fixture rows were rejected");
  return batch.chunk;
}

/** A chunk the engine refuses as a statement: a row whose id is not a UUID. */
function poisonedChunk(): RowChunk {
  const good = chunkOf(1).body.toString("utf8");
  return { body: Buffer.from(good.replace(/^\["[0-9a-f-]{36}"/, '["not-a-uuid"')), rowCount: 1 };
}

afterAll(removeTestChdbPath);

describe.each(eventsBackends())("events writer on $name", ({ options }) => {
  let events: EventsExecutor;
  let database: string;
  const writers: EventsWriter[] = [];

  const writer = (overrides: Partial<EventsWriterOptions> = {}) => {
    const created = createEventsWriter({
      executor: events,
      table: requestKind.table,
      flushRows: 10_000,
      flushBytes: 16 * 1024 * 1024,
      flushIntervalMs: 50,
      maxPendingRows: 100_000,
      maxPendingBytes: 128 * 1024 * 1024,
      logger: createLogger("silent"),
      ...overrides,
    });
    writers.push(created);
    return created;
  };
  const count = async () =>
    (await events.query<{ n: number }>(`SELECT count() AS n FROM ${database}.api_requests`))[0]?.n ?? 0;
  const partRows = async () =>
    (
      await events.query<{ rows: number }>(
        `SELECT rows FROM system.parts WHERE database = {db:String} AND table = 'api_requests' AND active ` +
          "ORDER BY modification_time, name",
        { db: database },
      )
    ).map((part) => part.rows);

  beforeEach(async () => {
    database = uniqueDatabaseName("wr");
    events = await openEventsExecutor({ ...options, database });
    await migrateEvents(events);
    // Merges would fold the parts these tests count.
    await events.command(`SYSTEM STOP MERGES ${database}.api_requests`);
  });
  afterEach(async () => {
    await Promise.all(writers.splice(0).map((w) => w.close()));
    await events.command(`DROP DATABASE IF EXISTS ${database}`);
    await events.close();
  });

  it("coalesces concurrent batches into one insert and answers each only after it", async () => {
    const w = writer();
    const seenAtAnswer: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, () =>
        w.write(chunkOf(50)).then(() => seenAtAnswer.push(w.stats().insertedRows)),
      ),
    );
    expect(w.stats()).toMatchObject({ inserts: 1, insertedRows: 1000, queuedRows: 0, insertingRows: 0 });
    expect(seenAtAnswer).toEqual(Array.from({ length: 20 }, () => 1000));
    expect(await count()).toBe(1000);
    expect(await partRows()).toEqual([1000]);
  });

  it("gathers batches for up to flushIntervalMs after the previous insert started", async () => {
    // Wide enough that the five writes below fall inside it on a loaded machine too (the first
    // insert's own time counts against it: the window starts when that insert starts).
    const w = writer({ flushIntervalMs: 2000 });
    await w.write(chunkOf(10));
    const later: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      later.push(w.write(chunkOf(10)));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(later);
    expect(w.stats().inserts).toBe(2);
    expect(await partRows()).toEqual([10, 50]);
  });

  it("never puts batches of two table partitions in one insert, so each insert stays one part", async () => {
    const w = writer({ flushIntervalMs: 200 });
    await w.write(chunkOf(1));
    // Waiting together: two of one project's retention, one of another's, interleaved.
    await Promise.all([w.write(chunkOf(10)), w.write(chunkOf(20, "/other", 30)), w.write(chunkOf(30))]);
    expect(w.stats().inserts).toBe(3);
    expect((await partRows()).sort((a, b) => a - b)).toEqual([1, 20, 40]);
  });

  it("starts an insert as soon as flushRows are waiting, without waiting for the interval", async () => {
    const w = writer({ flushRows: 100, flushIntervalMs: 60_000 });
    await w.write(chunkOf(10));
    const started = Date.now();
    await Promise.all([w.write(chunkOf(50)), w.write(chunkOf(50))]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(w.stats().inserts).toBe(2);
  });

  it("keeps up to the store's insert lanes in flight, never more, and stores every batch", async () => {
    let running = 0;
    let most = 0;
    const counting = delegatingExecutor(events, {
      async insert(batch) {
        running += 1;
        most = Math.max(most, running);
        try {
          await events.insert(batch);
        } finally {
          running -= 1;
        }
      },
    });
    const w = writer({ executor: counting, flushRows: 100, flushIntervalMs: 0 });
    await Promise.all(Array.from({ length: 12 }, () => w.write(chunkOf(100))));
    expect(events.insertLanes).toBeGreaterThanOrEqual(1);
    expect(most).toBe(events.insertLanes);
    expect(w.stats()).toMatchObject({ insertedRows: 1200, queuedRows: 0, insertingRows: 0 });
    expect(await count()).toBe(1200);
  });

  it("never splits a batch across inserts", async () => {
    const w = writer({ flushRows: 100 });
    await Promise.all([w.write(chunkOf(60)), w.write(chunkOf(60)), w.write(chunkOf(60))]);
    expect(w.stats().inserts).toBe(3);
    expect(await partRows()).toEqual([60, 60, 60]);
  });

  it("lets a batch the engine cannot read fail alone, storing its neighbours", async () => {
    const w = writer();
    const results = await Promise.allSettled([
      w.write(chunkOf(10)),
      w.write(poisonedChunk()),
      w.write(chunkOf(5)),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const failure = (results[1] as PromiseRejectedResult).reason as unknown;
    expect(failure).toBeInstanceOf(EventsStoreError);
    expect((failure as EventsStoreError).kind).toBe("rejected");
    expect(await count()).toBe(15);
  });

  it("isolates a batch with a lone surrogate (bypassing the HTTP layer's repair) and logs no row content", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const w = writer({ logger });
    const secret = "secret-path-7c1e";
    const lone = chunkOf(3, `/${secret}\ud83d`);
    const results = await Promise.allSettled([w.write(chunkOf(4)), w.write(lone), w.write(chunkOf(2))]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const failure = (results[1] as PromiseRejectedResult).reason as EventsStoreError;
    expect(failure).toBeInstanceOf(EventsStoreError);
    expect(failure.kind).toBe("rejected");
    expect(failure.engineError).toBe("CANNOT_PARSE_ESCAPE_SEQUENCE");
    expect(failure.failedAtRow).toBe(1);
    expect(failure.cause).toBeUndefined();
    expect(await count()).toBe(6);

    const failed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const entry = failed.find((line) => line.msg === "events insert failed");
    expect(entry).toMatchObject({
      table: "api_requests",
      rows: 3,
      batches: 1,
      kind: "rejected",
      code: 25,
      engine_error: "CANNOT_PARSE_ESCAPE_SEQUENCE",
      row: 1,
    });
    expect(lines.join("\n")).not.toContain(secret);
    expect(lines.join("\n")).not.toContain(APP.id);
  });

  it("fails every batch of an insert the store refuses, storing none of them, and recovers", async () => {
    const w = writer();
    await w.write(chunkOf(3));
    // The engine's own overload guard: inserts are refused while the table has this many parts.
    await events.command(`ALTER TABLE ${database}.api_requests MODIFY SETTING parts_to_throw_insert = 1`);
    const refused = await Promise.allSettled([w.write(chunkOf(10)), w.write(chunkOf(20))]);
    for (const result of refused) {
      expect(result.status).toBe("rejected");
      const reason = (result as PromiseRejectedResult).reason as EventsStoreError;
      expect(reason).toBeInstanceOf(EventsStoreError);
      expect(reason.kind).toBe("unavailable");
    }
    expect(await count()).toBe(3);
    expect(w.stats()).toMatchObject({ failedRows: 30, queuedRows: 0, insertingRows: 0 });

    await events.command(`ALTER TABLE ${database}.api_requests RESET SETTING parts_to_throw_insert`);
    await w.write(chunkOf(7));
    expect(await count()).toBe(10);
  });

  it("refuses batches beyond maxPendingRows instead of queueing them", async () => {
    const w = writer({ maxPendingRows: 100, flushIntervalMs: 60_000 });
    const first = w.write(chunkOf(60));
    await expect(w.write(chunkOf(60))).rejects.toBeInstanceOf(WriterOverloadedError);
    expect(w.stats().refusedBatches).toBe(1);
    const second = w.write(chunkOf(40));
    await w.close();
    await Promise.all([first, second]);
    expect(await count()).toBe(100);
  });

  it("holds each tenant to its share of the pending rows while others still get in; full is full", async () => {
    const w = writer({ maxPendingRows: 200, tenantShare: 0.5, flushIntervalMs: 60_000 });
    const held = [w.write(chunkOf(60), "flood"), w.write(chunkOf(40), "flood")];
    await expect(w.write(chunkOf(10), "flood")).rejects.toBeInstanceOf(TenantOverShareError);
    expect(w.stats().overShareBatches).toBe(1);
    // Another tenant is queued beside it, up to the writer's own bound, which is a 503 for all.
    held.push(w.write(chunkOf(90), "victim"));
    await expect(w.write(chunkOf(20), "other")).rejects.toBeInstanceOf(WriterOverloadedError);
    await w.close();
    await Promise.all(held);
    expect(await count()).toBe(190);
  });

  it("admits any batch while idle, so a bound below one batch cannot lock ingest out", async () => {
    const w = writer({ maxPendingRows: 10 });
    await w.write(chunkOf(50));
    expect(await count()).toBe(50);
  });

  it("stores everything waiting on close() and refuses batches afterwards", async () => {
    const w = writer({ flushIntervalMs: 60_000, flushRows: 25 });
    const pending = [w.write(chunkOf(20)), w.write(chunkOf(20)), w.write(chunkOf(20))];
    await w.close();
    await Promise.all(pending);
    expect(await count()).toBe(60);
    await expect(w.write(chunkOf(1))).rejects.toBeInstanceOf(WriterClosedError);
  });
});
