// Work per /ingest request is bounded by what a request may contain, not by its bytes: bodies that
// are small on the wire but decode to millions of items are refused with 413 naming the cap before
// anything is built (RSS stays flat), and a batch with more than
// INGEST_LIMITS.invalidRecordsPerBatch invalid records is refused whole instead of being answered
// with one rejection per record.
import { INGEST_LIMITS } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { expectProblem } from "../support/problem.js";
import {
  createIngestFixture,
  type IngestFixture,
  logRecord,
  postIngest,
  requestRecord,
  spanRecord,
  storedCount,
} from "./helpers.js";

/** RSS a refused amplification body may add: measured 0–32 MB with the caps, 160–320 MB without
 *  (the items were built, then refused). */
const RSS_BOUND = 100 * 1024 * 1024;

/** `{"<member>":[item,item,…]}` of about `bytes` bytes. */
function repeated(member: string, item: string, bytes: number): string {
  const count = Math.floor(bytes / (item.length + 1));
  return `{"${member}":[${new Array<string>(count).fill(item).join(",")}]}`;
}

/** An object text with `count` distinct keys, all mapped to `value`. */
function wideObject(count: number, value: string): string {
  const members = new Array<string>(count);
  for (let i = 0; i < count; i++) members[i] = `"k${i}":${value}`;
  return `{${members.join(",")}}`;
}

describe("ingest item caps", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    fx = await createIngestFixture(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Posts `body` (gzip-coded, as a hostile client would) and returns the answer and RSS growth. */
  async function send(kind: "requests" | "logs" | "traces", body: string) {
    const before = process.memoryUsage.rss();
    const response = await postIngest(ctx, kind, body, { key: fx.projectKey, gzip: true });
    return { response, grew: process.memoryUsage.rss() - before };
  }

  it("refuses 10 MiB of empty records with 413 naming INGEST_MAX_BATCH, before building them", async () => {
    const { response, grew } = await send("requests", repeated("requests", "{}", 10 * 1024 * 1024 - 64));
    expect(expectProblem(response, "payload_too_large")).toMatchObject({
      detail: "A batch holds at most 1000 records (INGEST_MAX_BATCH). Nothing was stored.",
      limit: "INGEST_MAX_BATCH",
      maximum: 1000,
    });
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it("refuses 10 MiB of nested arrays with 413 naming INGEST_LIMITS.bodyDepth", async () => {
    const depth = 5 * 1024 * 1024 - 64;
    const body = `{"logs":[{"x":${"[".repeat(depth)}${"]".repeat(depth)}}]}`;
    const { response, grew } = await send("logs", body);
    expect(expectProblem(response, "payload_too_large").detail).toBe(
      `The body nests arrays and objects deeper than ${INGEST_LIMITS.bodyDepth} levels ` +
        "(INGEST_LIMITS.bodyDepth). Nothing was stored.",
    );
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it("refuses a span with 10k attributes with 413 naming INGEST_LIMITS.recordValues", async () => {
    const span = JSON.stringify(spanRecord()).replace(
      '"attributes":{}',
      `"attributes":${wideObject(10_000, "0")}`,
    );
    const { response } = await send("traces", `{"spans":[${span}]}`);
    expect(expectProblem(response, "payload_too_large").detail).toMatch(
      /^Record 0 holds more than 512 JSON values .*\(INGEST_LIMITS\.recordValues\)\. Nothing was stored\.$/,
    );
    expect(await storedCount(ctx, "api_spans")).toBe(0);
  });

  it("refuses 100 records of 1,000 unknown fields each with 413 before parsing them", async () => {
    const record = JSON.stringify(logRecord()).replace(/}$/, `,"extra":${wideObject(1_000, "0")}}`);
    const { response, grew } = await send(
      "logs",
      `{"logs":[${new Array<string>(100).fill(record).join(",")}]}`,
    );
    expectProblem(response, "payload_too_large");
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it("refuses a body whose top level holds a million values with 413", async () => {
    const body = `[${new Array<string>(1_000_000).fill("0").join(",")}]`;
    const { response, grew } = await send("requests", body);
    expect(expectProblem(response, "payload_too_large").detail).toContain("INGEST_LIMITS.topLevelValues");
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it("rejects headers sent as JSON text with 500k names as too many headers, without parsing them", async () => {
    const headers = wideObject(500_000, '""');
    const { response, grew } = await send(
      "requests",
      JSON.stringify({ requests: [requestRecord({ request_headers: headers }), requestRecord()] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      errors: [
        { index: 0, pointer: "/requests/0/request_headers", message: "must have at most 100 headers" },
      ],
    });
    expect(grew).toBeLessThan(RSS_BOUND);
  });

  it("still parses an envelope whose records hold strings with quotes, escapes and lone surrogates", async () => {
    const response = await postIngest(
      ctx,
      "logs",
      `\ufeff { "logs" : [ ${JSON.stringify(logRecord({ message: 'a "quoted" \\ message ]}' }))} ,` +
        `${JSON.stringify(logRecord()).replace('"order placed"', '"cut \\ud83d"')} ] } `,
      { key: fx.projectKey },
    );
    expect(response.json()).toEqual({ accepted: 2, rejected: 0, errors: [] });
  });
});

describe("refusing a batch whole", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    fx = await createIngestFixture(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const invalid = () => requestRecord({ status_code: 0 });
  const limit = INGEST_LIMITS.invalidRecordsPerBatch;

  it(`refuses a batch with more than ${limit} invalid records with one 422 and stores nothing`, async () => {
    const records = [
      ...Array.from({ length: 10 }, () => requestRecord()),
      ...Array.from({ length: 900 }, invalid),
    ];
    const response = await postIngest(ctx, "requests", { requests: records }, { key: fx.projectKey });
    const problem = expectProblem(response, "validation_error");
    expect(problem.detail).toBe(
      `More than ${limit} of the 910 records are invalid, so the batch was refused whole and nothing was ` +
        "stored; the first problems are listed.",
    );
    expect(problem.errors).toHaveLength(INGEST_LIMITS.listedErrors);
    expect(problem.errors?.[0]).toEqual({
      index: 10,
      pointer: "/requests/10/status_code",
      message: "must be >= 100",
    });
    expect(await storedCount(ctx, "api_requests")).toBe(0);
  });

  it("answers a retry under the same Idempotency-Key with the same refusal", async () => {
    const records = Array.from({ length: limit + 1 }, invalid);
    const post = () =>
      postIngest(
        ctx,
        "requests",
        { requests: records },
        { key: fx.projectKey, headers: { "idempotency-key": "refused-whole-1" } },
      );
    const first = expectProblem(await post(), "validation_error");
    const retry = await post();
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(expectProblem(retry, "validation_error")).toMatchObject({
      detail: first.detail,
      errors: first.errors,
    });
    expect(first.detail).toContain("refused whole");
  });

  it(`keeps answering record by record up to ${limit} invalid records`, async () => {
    const records = [requestRecord(), ...Array.from({ length: limit }, invalid)];
    const response = await postIngest(ctx, "requests", { requests: records }, { key: fx.projectKey });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ accepted: 1, rejected: limit });
  });
});
