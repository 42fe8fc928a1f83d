// OTLP_LIMITS at their edges, in the decoder alone: a cap is reached, not exceeded, by an export
// holding exactly its value; text inside JSON strings is not structure; and the generated
// messages decode as before outside the receivers' bounded decode.
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { decodeLogs, decodeTraces, OTLP_MESSAGES } from "../../src/modules/otlp/otlp.decode.js";
import { OTLP_LIMITS } from "../../src/modules/otlp/otlp.limits.js";

const { request } = OTLP_MESSAGES.traces;

const attributes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: `a${i}`, value: { stringValue: "v" } }));

function protobuf(spanAttributes: unknown[]): Buffer {
  return Buffer.from(
    request
      .encode(
        request.fromObject({
          resourceSpans: [{ scopeSpans: [{ spans: [{ name: "s", attributes: spanAttributes }] }] }],
        }),
      )
      .finish(),
  );
}

async function limitOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe("payload_too_large");
    return String(error.options.extensions?.limit);
  }
}

describe("OTLP export limits at their edges", () => {
  it("takes a span with as many attributes as allowed, and refuses one more", async () => {
    expect(await limitOf(() => decodeTraces(protobuf(attributes(OTLP_LIMITS.listEntries)), "protobuf"))).toBe(
      undefined,
    );
    expect(
      await limitOf(() => decodeTraces(protobuf(attributes(OTLP_LIMITS.listEntries + 1)), "protobuf")),
    ).toBe("listEntries");
    const json = (count: number) =>
      Buffer.from(
        JSON.stringify({
          resourceSpans: [{ scopeSpans: [{ spans: [{ name: "s", attributes: attributes(count) }] }] }],
        }),
      );
    expect(await limitOf(() => decodeTraces(json(OTLP_LIMITS.listEntries), "json"))).toBe(undefined);
    expect(await limitOf(() => decodeTraces(json(OTLP_LIMITS.listEntries + 1), "json"))).toBe("listEntries");
  });

  it("does not count brackets, braces or escaped quotes inside JSON strings", async () => {
    const tricky = `"\\"[[[{{{" + ${"[".repeat(500)}`;
    const body = JSON.stringify({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: Array.from({ length: 3 }, () => ({
                timeUnixNano: "1",
                body: { stringValue: tricky },
                attributes: [{ key: "[".repeat(300), value: { stringValue: "]".repeat(300) } }],
              })),
            },
          ],
        },
      ],
    });
    const [group] = await decodeLogs(Buffer.from(body), "json");
    expect(group?.items).toHaveLength(3);
    expect(group?.items[0]?.body).toBe(tricky);
  });

  it("counts spans over all resources and scopes of an export", async () => {
    const perScope = 5_000;
    const scopes = Math.floor(OTLP_LIMITS.items / perScope);
    const body = (extra: number) =>
      Buffer.from(
        request
          .encode(
            request.fromObject({
              resourceSpans: Array.from({ length: scopes }, (_, r) => ({
                scopeSpans: [{ spans: Array.from({ length: perScope + (r === 0 ? extra : 0) }, () => ({})) }],
              })),
            }),
          )
          .finish(),
      );
    expect(await limitOf(() => decodeTraces(body(0), "protobuf"))).toBe(undefined);
    expect(await limitOf(() => decodeTraces(body(1), "protobuf"))).toBe("items");
  });

  it("leaves the generated decoders as they were outside the receivers", async () => {
    const decoded = request.decode(protobuf(attributes(OTLP_LIMITS.listEntries * 4))) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ attributes: unknown[] }> }> }>;
    };
    expect(decoded.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.attributes).toHaveLength(
      OTLP_LIMITS.listEntries * 4,
    );
  });
});
