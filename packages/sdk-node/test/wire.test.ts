// The SDK's own wire types and limits against the server's contracts: the types match field
// for field (checked by the compiler), and the records the SDK really sends, captured off the
// wire and decompressed, validate against the contract schemas.
import {
  INGEST_LIMITS,
  type IngestLogRecord,
  IngestLogRecordSchema,
  type IngestRequestRecord,
  IngestRequestRecordSchema,
  LOG_LEVELS,
} from "@sightline/contracts";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { createSightline } from "../src/index.js";
import { type LogRecordWire, type RequestRecordWire, WIRE_LIMITS } from "../src/wire.js";
import { startSink } from "./support/sink.js";

// Compile-time: every contract field exists in the SDK's type and vice versa, with compatible types.
type Same<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : false;
const requestKeys: Same<RequestRecordWire, IngestRequestRecord> = true;
const logKeys: Same<LogRecordWire, IngestLogRecord> = true;
const requestFits: IngestRequestRecord = {} as RequestRecordWire;
const logFits: IngestLogRecord = {} as LogRecordWire;

describe("the SDK's wire format", () => {
  it("has the contracts' fields and limits", () => {
    expect([requestKeys, logKeys, requestFits, logFits].length).toBe(4);
    for (const [name, value] of Object.entries(WIRE_LIMITS)) {
      if (name === "maxBatch") continue;
      expect(INGEST_LIMITS[name as keyof typeof INGEST_LIMITS], name).toBe(value);
    }
    const levels: readonly LogRecordWire["level"][] = LOG_LEVELS;
    expect(levels).toHaveLength(5);
  });

  it("sends records that validate against the contract schemas", async () => {
    const sink = await startSink();
    const sdk = createSightline({
      apiKey: "sl_test",
      app: "checkout",
      url: sink.url,
      projectSlug: "shop",
      logger: { warn: () => undefined },
    });
    const headers: Record<string, string> = {
      "user-agent": "ua",
      "content-length": "12",
      traceparent: "bad",
    };
    const exchange = sdk.begin(
      "post",
      `/orders/${"x".repeat(3000)}?q=1&password=p`,
      "::ffff:127.0.0.1",
      (source: Record<string, string>, name) => source[name],
      headers,
    );
    if (exchange === undefined) throw new Error("no exchange");
    exchange.route = "/orders/{id}";
    exchange.consumer = { id: "acme", name: "Acme", group: "gold" };
    exchange.requestHeaders = { accept: "*/*" };
    sdk.recordError(exchange, new TypeError("bad thing"));
    sdk.finish(exchange, 201);
    sdk.log("WARNING", "", { n: 1, ok: true, nested: { a: [1] }, big: 10n.toString() });
    sdk.log("CRITICAL", "x".repeat(40_000));
    await sdk.close();
    await sink.close();
    expect(sink.requests).toHaveLength(1);
    expect(sink.logs).toHaveLength(3);
    for (const record of sink.requests)
      expect([...Value.Errors(IngestRequestRecordSchema, record)]).toEqual([]);
    for (const record of sink.logs) expect([...Value.Errors(IngestLogRecordSchema, record)]).toEqual([]);
  });
});
