// The OTLP decoder's 64-bit integers from protobuf (protobufjs Longs): span times past 2^53
// nanoseconds, unsigned, and signed attribute integers, read from their halves exactly.
import { describe, expect, it } from "vitest";
import { decodeTraces, OTLP_MESSAGES } from "../../src/modules/otlp/otlp.decode.js";

const { request } = OTLP_MESSAGES.traces;

function exportOf(span: Record<string, unknown>): Buffer {
  return Buffer.from(
    request
      .encode(
        request.fromObject({
          resourceSpans: [
            {
              scopeSpans: [
                { spans: [{ traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2), ...span }] },
              ],
            },
          ],
        }),
      )
      .finish(),
  );
}

describe("OTLP protobuf 64-bit integers", () => {
  it("reads span times to the nanosecond, also above 2^63", async () => {
    const [group] = await decodeTraces(
      exportOf({
        startTimeUnixNano: "1763880000123456789",
        endTimeUnixNano: "18446744073709551615",
        attributes: [],
      }),
      "protobuf",
    );
    expect(group?.items[0]).toMatchObject({ startNs: 1763880000123456789n, endNs: 18446744073709551615n });
  });

  it("reads signed attribute integers, negative ones included", async () => {
    const [group] = await decodeTraces(
      exportOf({
        startTimeUnixNano: "1",
        endTimeUnixNano: "2",
        attributes: [
          { key: "negative", value: { intValue: "-5" } },
          { key: "big", value: { intValue: "4294967297" } },
          { key: "min", value: { intValue: "-4294967296" } },
        ],
      }),
      "protobuf",
    );
    const attributes = group?.items[0]?.attributes;
    expect(attributes?.get("negative")).toBe(-5);
    expect(attributes?.get("big")).toBe(4_294_967_297);
    expect(attributes?.get("min")).toBe(-4_294_967_296);
  });
});
