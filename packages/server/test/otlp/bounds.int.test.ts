// OTLP_LIMITS on the real receivers: bodies whose few (compressed) bytes say millions of items —
// empty spans, log records, resource and scope entries, attributes, events, deep AnyValues — are
// answered 413 problem+json naming the cap before their objects are built (the process grows by
// less than 200 MB), in protobuf and in JSON; an export at the caps is stored whole.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTLP_LIMITS, type OtlpLimit } from "../../src/modules/otlp/otlp.limits.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { expectProblem } from "../support/problem.js";
import { createIngestFixture, type IngestFixture } from "../ingest/helpers.js";

// The protobuf wire format, by hand: the bodies are far too large to build as messages.
function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 127) {
    bytes.push((rest & 127) | 128);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}
/** A length-delimited field. */
const field = (number: number, payload: Buffer) =>
  Buffer.concat([varint((number << 3) | 2), varint(payload.length), payload]);
/** `count` copies of an empty length-delimited field: `12 00` for field 2. */
const empties = (number: number, count: number) =>
  Buffer.alloc(2 * count, Buffer.from([(number << 3) | 2, 0]));
const str = (number: number, text: string) => field(number, Buffer.from(text));

/** ExportTraceServiceRequest { resourceSpans { scopeSpans { <spans> } } }. */
const traces = (spans: Buffer) => field(1, field(2, spans));
/** ExportLogsServiceRequest { resourceLogs { scopeLogs { <logRecords> } } }. */
const logs = (records: Buffer) => field(1, field(2, records));
/** A Span holding `inner` (attributes: field 9, events: 11, links: 13). */
const span = (inner: Buffer) => field(2, inner);
/** KeyValue { key, value: AnyValue }. */
const keyValue = (key: string, value: Buffer) => Buffer.concat([str(1, key), field(2, value)]);
/** AnyValue { arrayValue { values: [inner] } } around `inner`, `levels` times, around a string. */
function nestedValue(levels: number): Buffer {
  let value = str(1, "leaf");
  for (let level = 1; level < levels; level++) value = field(5, field(1, value));
  return value;
}

const TRACE_ID = "5b8efff798038103d269b633813fc60c";
const nanos = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

/** OTLP/JSON traces export with `spans` under one resource of `service`. */
const jsonTraces = (spans: string, service = "checkout") =>
  `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"${service}"}}]},` +
  `"scopeSpans":[{"scope":{"name":"t"},"spans":[${spans}]}]}]}`;

const MB = 1024 * 1024;

describe("OTLP export limits", () => {
  let ctx: TestContext;
  let fx: IngestFixture;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    fx = await createIngestFixture(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  const post = (signal: "traces" | "logs", body: Buffer, type: "protobuf" | "json") =>
    ctx.app.inject({
      method: "POST",
      url: `/api/v1/otlp/v1/${signal}`,
      headers: {
        "content-type": type === "protobuf" ? "application/x-protobuf" : "application/json",
        "content-encoding": "gzip",
        "x-api-key": fx.projectKey,
      },
      payload: gzipSync(body),
    });

  /** Posts the body and expects the 413 of `limit`, the process growing by less than 200 MB. */
  async function expectRefused(
    signal: "traces" | "logs",
    body: Buffer,
    type: "protobuf" | "json",
    limit: OtlpLimit,
  ): Promise<void> {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const before = process.memoryUsage().rss;
    const reply = await post(signal, body, type);
    const grown = process.memoryUsage().rss - before;
    const problem = expectProblem(reply, "payload_too_large");
    expect(problem).toMatchObject({ limit, maximum: OTLP_LIMITS[limit] });
    expect(problem.detail).toContain(`"${limit}"`);
    expect(grown).toBeLessThan(200 * MB);
  }

  describe("protobuf", () => {
    it("refuses 4.5 million empty spans in 8.8 KB of gzip", async () => {
      const body = traces(empties(2, 4_500_000));
      expect(gzipSync(body).length).toBeLessThan(10_000);
      await expectRefused("traces", body, "protobuf", "items");
    });

    it("refuses a million empty spans, and a million empty log records", async () => {
      await expectRefused("traces", traces(empties(2, 1_000_000)), "protobuf", "items");
      await expectRefused("logs", logs(empties(2, 1_000_000)), "protobuf", "items");
    });

    it("refuses many resource entries, and many scope entries", async () => {
      await expectRefused("traces", empties(1, 1_000_000), "protobuf", "resources");
      await expectRefused("traces", field(1, empties(2, 1_000_000)), "protobuf", "scopes");
      await expectRefused("logs", field(1, empties(2, 1_000_000)), "protobuf", "scopes");
    });

    it("refuses 10,000 attributes on one span, and 10,000 events", async () => {
      const attributes = Buffer.concat(
        Array.from({ length: 10_000 }, (_, i) => field(9, keyValue(`a${i}`, str(1, "v")))),
      );
      await expectRefused("traces", traces(span(attributes)), "protobuf", "listEntries");
      await expectRefused("traces", traces(span(empties(11, 10_000))), "protobuf", "eventsPerSpan");
      await expectRefused("traces", traces(span(empties(13, 10_000))), "protobuf", "linksPerSpan");
    });

    it("refuses a million empty values in one arrayValue", async () => {
      const value = field(5, empties(1, 1_000_000));
      await expectRefused("traces", traces(span(field(9, keyValue("a", value)))), "protobuf", "listEntries");
    });

    it("refuses deep AnyValue nesting", async () => {
      const value = nestedValue(OTLP_LIMITS.valueDepth + 1);
      await expectRefused(
        "traces",
        traces(span(field(9, keyValue("deep", value)))),
        "protobuf",
        "valueDepth",
      );
      await expectRefused("logs", logs(field(2, field(5, nestedValue(1_000)))), "protobuf", "valueDepth");
    });

    it("refuses an export of more elements than allowed, each list within its cap", async () => {
      const perSpan = 200;
      const oneSpan = span(empties(9, perSpan));
      const spans = Math.ceil(OTLP_LIMITS.elements / perSpan);
      expect(spans).toBeLessThanOrEqual(OTLP_LIMITS.items);
      await expectRefused(
        "traces",
        traces(Buffer.concat(Array(spans).fill(oneSpan))),
        "protobuf",
        "elements",
      );
    });
  });

  describe("JSON", () => {
    it("refuses a million empty spans before parsing them, and a million log records", async () => {
      await expectRefused(
        "traces",
        Buffer.from(jsonTraces(Array(1_000_000).fill("{}").join(","))),
        "json",
        "items",
      );
      const records = Array(1_000_000).fill("{}").join(",");
      await expectRefused(
        "logs",
        Buffer.from(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[${records}]}]}]}`),
        "json",
        "items",
      );
    });

    it("refuses many resource and scope entries", async () => {
      const many = Array(1_000_000).fill("{}").join(",");
      await expectRefused("traces", Buffer.from(`{"resourceSpans":[${many}]}`), "json", "resources");
      await expectRefused(
        "traces",
        Buffer.from(`{"resourceSpans":[{"scopeSpans":[${many}]}]}`),
        "json",
        "scopes",
      );
    });

    it("refuses 10,000 attributes on one span", async () => {
      const attributes = Array.from(
        { length: 10_000 },
        (_, i) => `{"key":"a${i}","value":{"stringValue":"v"}}`,
      ).join(",");
      await expectRefused(
        "traces",
        Buffer.from(jsonTraces(`{"attributes":[${attributes}]}`)),
        "json",
        "listEntries",
      );
    });

    it("refuses deep AnyValue nesting, and deep JSON of any kind", async () => {
      let value = `{"stringValue":"leaf"}`;
      for (let level = 1; level <= OTLP_LIMITS.valueDepth; level++)
        value = `{"arrayValue":{"values":[${value}]}}`;
      const deep = jsonTraces(`{"attributes":[{"key":"deep","value":${value}}]}`);
      await expectRefused("traces", Buffer.from(deep), "json", "valueDepth");
      await expectRefused(
        "traces",
        Buffer.from(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`),
        "json",
        "valueDepth",
      );
    });

    it("refuses a body of more objects than allowed, each array within its cap", async () => {
      const span = `{"attributes":[${Array(200).fill("{}").join(",")}]}`;
      const spans = Array(Math.ceil(OTLP_LIMITS.elements / 200))
        .fill(span)
        .join(",");
      await expectRefused("traces", Buffer.from(jsonTraces(spans)), "json", "elements");
    });
  });

  describe("an export at the caps", () => {
    it("is stored whole: the most spans, attributes and the deepest value", async () => {
      const start = Date.now() - 60_000;
      const spanIds = Array.from({ length: OTLP_LIMITS.items }, (_, i) =>
        (i + 1).toString(16).padStart(16, "0"),
      );
      const spanOf = (spanId: string, inner: Buffer = Buffer.alloc(0)) =>
        span(
          Buffer.concat([
            field(1, Buffer.from(TRACE_ID, "hex")),
            field(2, Buffer.from(spanId, "hex")),
            str(5, "work"),
            Buffer.from([0x39]), // start_time_unix_nano, fixed64
            bigEndianless(BigInt(start) * 1_000_000n),
            Buffer.from([0x41]), // end_time_unix_nano, fixed64
            bigEndianless(BigInt(start + 5) * 1_000_000n),
            inner,
          ]),
        );
      const widest = Buffer.concat([
        ...Array.from({ length: OTLP_LIMITS.listEntries - 1 }, (_, i) =>
          field(9, keyValue(`a${i}`, str(1, "v"))),
        ),
        field(9, keyValue("deep", nestedValue(OTLP_LIMITS.valueDepth))),
      ]);
      const body = field(
        1,
        Buffer.concat([
          field(1, field(1, keyValue("service.name", str(1, "checkout")))),
          field(
            2,
            Buffer.concat(spanIds.map((spanId, i) => (i === 0 ? spanOf(spanId, widest) : spanOf(spanId)))),
          ),
        ]),
      );
      const reply = await post("traces", body, "protobuf");
      expect(reply.statusCode).toBe(200);
      const [row] = await ctx.deps.events.query<{ n: number; attributes: number }>(
        `SELECT count() AS n, max(length(attributes)) AS attributes FROM ${ctx.deps.events.database}.api_spans ` +
          "WHERE project_id = {project:String} AND trace_id = {trace:String}",
        { project: fx.project.id, trace: TRACE_ID },
      );
      expect(Number(row?.n)).toBe(OTLP_LIMITS.items);
      expect(Number(row?.attributes)).toBeGreaterThan(0);
    });

    it("is stored whole in JSON too", async () => {
      const start = Date.now() - 60_000;
      const spans = Array.from(
        { length: 100 },
        (_, i) =>
          `{"traceId":"${TRACE_ID.replace("5b", "6c")}","spanId":"${(i + 1).toString(16).padStart(16, "0")}",` +
          `"name":"work","startTimeUnixNano":"${nanos(start)}","endTimeUnixNano":"${nanos(start + 5)}"}`,
      ).join(",");
      let value = `{"stringValue":"leaf"}`;
      for (let level = 1; level < OTLP_LIMITS.valueDepth; level++)
        value = `{"kvlistValue":{"values":[{"key":"k","value":${value}}]}}`;
      const widest = Array.from(
        { length: OTLP_LIMITS.listEntries - 1 },
        (_, i) => `{"key":"a${i}","value":{"stringValue":"v"}}`,
      );
      widest.push(`{"key":"deep","value":${value}}`);
      const first =
        `{"traceId":"${TRACE_ID.replace("5b", "6c")}","spanId":"00000000000f0001","name":"wide",` +
        `"startTimeUnixNano":"${nanos(start)}","endTimeUnixNano":"${nanos(start + 5)}","attributes":[${widest.join(",")}]}`;
      const reply = await post("traces", Buffer.from(jsonTraces(`${first},${spans}`)), "json");
      expect(reply.statusCode).toBe(200);
      expect(reply.json()).toEqual({});
    });
  });
});

/** A uint64 as protobuf's fixed64: little-endian. */
function bigEndianless(value: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
}
