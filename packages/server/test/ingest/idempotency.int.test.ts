// Idempotency-Key on ingest, on both metadata dialects: the first answer is given again and the
// batch stored once — on retries, concurrent duplicates, across a restart, and when a claim was
// left behind by a process that died before or after storing its batch.
import { ingestLimitsOf } from "../../src/deps.js";
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createIngestService } from "../../src/modules/ingest/ingest.service.js";
import { EventsStoreError } from "../../src/stores/events/index.js";
import { delegatingExecutor } from "../support/events.js";
import {
  createIngestIdempotencyRepo,
  type IngestIdempotencyTable,
} from "../../src/stores/metadata/repos/ingest-idempotency.repo.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  logRecord,
  postIngest,
  requestRecord,
  storedCount,
} from "./helpers.js";

describe.each(metadataBackends())("Idempotency-Key on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let fx: IngestFixture;
  let clock: ManualClock;
  const extra: TestContext[] = [];

  beforeEach(async () => {
    clock = manualClock();
    ctx = await createTestContext({ metadata: backend, clock });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    for (const other of extra.splice(0)) await other.close();
    await ctx.close();
  });

  const batch = (paths: string[]) => ({
    requests: paths.map((path) => requestRecord(path === "bad" ? { status_code: 0 } : { path }, clock.now())),
  });
  const post = (
    target: TestContext,
    body: unknown,
    key: string,
    options: { kind?: "requests" | "logs" } = {},
  ) =>
    postIngest(target, options.kind ?? "requests", body, {
      key: fx.projectKey,
      headers: { "idempotency-key": key },
    });
  const claims = () => ctx.deps.metadata.db.withTables<{ ingest_idempotency_keys: IngestIdempotencyTable }>();

  it("answers a retry with the first answer and stores the batch once", async () => {
    const body = batch(["/a", "bad", "/b"]);
    const first = await post(ctx, body, "key-1");
    expect(first.statusCode).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await post(ctx, body, "key-1");
    expect(again.statusCode).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ accepted: 2, rejected: 1 });
    expect(await storedCount(ctx, "api_requests")).toBe(2);
  });

  it("remembers the answer across a restart", async () => {
    const body = batch(["/a", "/b", "/c"]);
    const first = await post(ctx, body, "key-restart");
    await ctx.stop();
    const restarted = await createTestContext({ metadata: backend, clock, reuse: ctx.storage });
    extra.push(restarted);
    const again = await post(restarted, body, "key-restart");
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json()).toEqual(first.json());
    expect(await storedCount(restarted, "api_requests")).toBe(3);
  });

  it("stores a batch once when duplicates arrive at the same time, all getting one answer", async () => {
    const body = batch(["/x", "/y"]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(ctx, body, "key-race")));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
    expect(await storedCount(ctx, "api_requests")).toBe(2);
  });

  it("refuses the same key with another body (409) and stores nothing for it", async () => {
    await post(ctx, batch(["/a"]), "key-reused");
    const reused = await post(ctx, batch(["/other"]), "key-reused");
    expect(expectProblem(reused, "conflict").detail).toBe(
      "This Idempotency-Key was already used with a different body within the last 24 hours.",
    );
    expect(await storedCount(ctx, "api_requests")).toBe(1);
  });

  it("keeps keys apart per route", async () => {
    await post(ctx, batch(["/a"]), "shared-key");
    const logs = await post(ctx, { logs: [logRecord({}, clock.now())] }, "shared-key", { kind: "logs" });
    expect(logs.statusCode).toBe(200);
    expect(logs.headers["idempotent-replayed"]).toBeUndefined();
    expect(await storedCount(ctx, "api_logs")).toBe(1);
  });

  it("remembers a 422 answer too", async () => {
    const body = batch(["bad", "bad"]);
    const first = expectProblem(await post(ctx, body, "key-422"), "validation_error");
    const retry = await post(ctx, body, "key-422");
    const again = expectProblem(retry, "validation_error");
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(again.errors).toEqual(first.errors);
    expect(again.request_id).not.toBe(first.request_id);
  });

  it("lets a batch refused with 503 be retried under the same key", async () => {
    const table = `${ctx.deps.events.database}.api_requests`;
    await post(ctx, batch(["/seed"]), "key-seed");
    await ctx.deps.events.command(`ALTER TABLE ${table} MODIFY SETTING parts_to_throw_insert = 1`);
    const body = batch(["/retry-me"]);
    expectProblem(await post(ctx, body, "key-503"), "service_unavailable");
    await ctx.deps.events.command(`ALTER TABLE ${table} RESET SETTING parts_to_throw_insert`);
    const retried = await post(ctx, body, "key-503");
    expect(retried.statusCode).toBe(200);
    expect(retried.headers["idempotent-replayed"]).toBeUndefined();
    expect(await storedCount(ctx, "api_requests")).toBe(2);
  });

  it("forgets a key after 24 hours", async () => {
    const body = batch(["/daily"]);
    await post(ctx, body, "key-24h");
    clock.advance(24 * 60 * 60 * 1000 + 60_000);
    const later = await post(ctx, body, "key-24h");
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(await storedCount(ctx, "api_requests")).toBe(2);
  });

  it("settles a claim left by a process that died after storing its batch: answered, not stored again", async () => {
    const body = batch(["/a", "/b"]);
    const first = await post(ctx, body, "key-crash-after");
    // What a SIGKILL between the insert and recording the final answer leaves behind.
    await claims()
      .updateTable("ingest_idempotency_keys")
      .set({ state: "pending", owner: "a-process-that-died" })
      .where("idempotency_key", "=", "key-crash-after")
      .execute();
    const again = await post(ctx, body, "key-crash-after");
    expect(again.json()).toEqual(first.json());
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(await storedCount(ctx, "api_requests")).toBe(2);
    const claim = await createIngestIdempotencyRepo(ctx.deps.metadata.db).find({
      projectId: fx.project.id,
      kind: "requests",
      key: "key-crash-after",
    });
    expect(claim?.state).toBe("done");
  });

  it("settles a claim left by a process that died before storing its batch: stored now, once", async () => {
    const body = batch(["/c", "/d"]);
    const now = clock.now();
    // What a SIGKILL before the insert leaves behind: a claim whose first row was never stored.
    await claims()
      .insertInto("ingest_idempotency_keys")
      .values({
        project_id: fx.project.id,
        kind: "requests",
        idempotency_key: "key-crash-before",
        body_hash: createHash("sha256").update(JSON.stringify(body)).digest("hex"),
        state: "pending",
        owner: "a-process-that-died",
        answer: JSON.stringify({ status: 200, accepted: 2, rejected: 0, errors: [] }),
        probe: JSON.stringify({ id: "01a1fcd6-0000-7000-8000-000000000000", timestamp_ms: now.getTime() }),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
      })
      .execute();
    const retried = await post(ctx, body, "key-crash-before");
    expect(retried.statusCode).toBe(200);
    expect(retried.headers["idempotent-replayed"]).toBeUndefined();
    expect(await storedCount(ctx, "api_requests")).toBe(2);
    expect((await post(ctx, body, "key-crash-before")).headers["idempotent-replayed"]).toBe("true");
    expect(await storedCount(ctx, "api_requests")).toBe(2);
  });

  it("answers 200 when an insert reported failure after the store had kept the batch", async () => {
    // What a ClickHouse server behind a dropped connection does: it stores the rows, the
    // answer is lost. The real store stores; only the acknowledgement is taken away.
    const events = ctx.deps.events;
    const lossy = delegatingExecutor(events, {
      close: async () => undefined,
      async insert(batch) {
        await events.insert(batch);
        throw new EventsStoreError("Events store insert failed: connection reset", "unavailable");
      },
    });
    const ingest = createIngestService({
      directory: ctx.deps.resources.ingestDirectory,
      events: lossy,
      idempotencyRepo: createIngestIdempotencyRepo(ctx.deps.metadata.db),
      clock,
      logger: ctx.deps.logger,
      limits: ingestLimitsOf(ctx.config),
      writer: { flushRows: 10_000, flushIntervalMs: 5, maxPendingRows: 100_000, projectPendingShare: 0.5 },
      admission: ctx.config.ingest,
    });
    const principal = await ingest.authenticate(fx.projectKey);
    const records = batch(["/lost-ack-1", "/lost-ack-2"]).requests;
    const idempotency = { key: "key-lost-ack", bodyHash: "h" };
    try {
      await expect(ingest.acceptRequests({ principal, records })).rejects.toMatchObject({
        code: "service_unavailable",
      });
      const outcome = await ingest.acceptRequests({ principal, records, idempotency });
      expect(outcome).toEqual({ result: { accepted: 2, rejected: 0, errors: [] }, replayed: false });
      const again = await ingest.acceptRequests({ principal, records, idempotency });
      expect(again.replayed).toBe(true);
    } finally {
      await ingest.close();
    }
    // The unkeyed batch was stored despite its 503 (nothing can tell); the keyed one once.
    expect(await storedCount(ctx, "api_requests")).toBe(4);
  });

  it("validates the header", async () => {
    const problem = expectProblem(await post(ctx, batch(["/a"]), "has space"), "validation_error");
    expect(problem.errors?.[0]?.pointer).toBe("#/headers/idempotency-key");
    expectProblem(await post(ctx, batch(["/a"]), "k".repeat(256)), "validation_error");
  });
});
