// Protobuf exports are decoded in paced slices: a big one lets the event loop run while it is
// decoded, and exports decoded at the same time keep their own counts against OTLP_LIMITS.
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { createPace } from "../../src/lib/pace.js";
import { decodeLogs, decodeTraces, OTLP_MESSAGES } from "../../src/modules/otlp/otlp.decode.js";
import { OTLP_LIMITS } from "../../src/modules/otlp/otlp.limits.js";

function traces(resourceSpans: unknown[]): Buffer {
  const { request } = OTLP_MESSAGES.traces;
  return Buffer.from(request.encode(request.fromObject({ resourceSpans })).finish());
}

function logs(resourceLogs: unknown[]): Buffer {
  const { request } = OTLP_MESSAGES.logs;
  return Buffer.from(request.encode(request.fromObject({ resourceLogs })).finish());
}

const attributes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: `a${i}`, value: { stringValue: "v" } }));

/** `count` spans in one resource and scope, each with two attributes. */
function bigTraces(count: number): Buffer {
  return traces([
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "big" } }] },
      scopeSpans: [
        {
          scope: { name: "big-scope" },
          spans: Array.from({ length: count }, (_, i) => ({
            name: `s${i}`,
            startTimeUnixNano: String(1_000 + i),
            endTimeUnixNano: String(2_000 + i),
            attributes: attributes(2),
          })),
        },
      ],
    },
  ]);
}

async function limitOf(run: Promise<unknown>): Promise<string | undefined> {
  try {
    await run;
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return String(error.options.extensions?.limit);
  }
}

describe("paced OTLP protobuf decoding", () => {
  it("lets the event loop run while a big export is decoded", async () => {
    const body = bigTraces(OTLP_LIMITS.items);
    const order: string[] = [];
    const decoding = decodeTraces(body, "protobuf").then((groups) => {
      order.push("decoded");
      return groups;
    });
    setImmediate(() => order.push("immediate"));
    const groups = await decoding;
    expect(order).toEqual(["immediate", "decoded"]);
    expect(groups[0]?.items).toHaveLength(OTLP_LIMITS.items);
    expect(groups[0]?.items[OTLP_LIMITS.items - 1]).toMatchObject({
      name: `s${OTLP_LIMITS.items - 1}`,
      scope: "big-scope",
      startNs: BigInt(1_000 + OTLP_LIMITS.items - 1),
    });
  });

  it("lets the event loop run while a big OTLP/JSON export is walked", async () => {
    const body = Buffer.from(
      JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                scope: { name: "json-scope" },
                spans: Array.from({ length: OTLP_LIMITS.items }, (_, i) => ({
                  name: `s${i}`,
                  attributes: attributes(2),
                })),
              },
            ],
          },
        ],
      }),
    );
    const order: string[] = [];
    const decoding = decodeTraces(body, "json").then((groups) => {
      order.push("decoded");
      return groups;
    });
    setImmediate(() => order.push("immediate"));
    const groups = await decoding;
    expect(order).toEqual(["immediate", "decoded"]);
    expect(groups[0]?.items).toHaveLength(OTLP_LIMITS.items);
    expect(groups[0]?.items[0]).toMatchObject({ name: "s0", scope: "json-scope" });
  });

  it("keeps each export's counts apart when decodes interleave", async () => {
    // A pace always due yields after every item: the decodes below take turns item by item.
    const pace = () => createPace(0);
    const finished: string[] = [];
    const track = <T>(name: string, work: Promise<T>) =>
      work.then(
        (value) => {
          finished.push(name);
          return value;
        },
        (error: unknown) => {
          finished.push(name);
          throw error;
        },
      );
    // Exactly the items cap: one item of another export counted here would make it a 413.
    const big = track("big", decodeTraces(bigTraces(OTLP_LIMITS.items), "protobuf", pace()));
    const small = track(
      "small",
      decodeTraces(
        traces([
          { scopeSpans: [{ scope: { name: "one" }, spans: [{ name: "a" }, { name: "b" }] }] },
          { scopeSpans: [{ scope: { name: "two" }, spans: [{ name: "c", attributes: attributes(3) }] }] },
        ]),
        "protobuf",
        pace(),
      ),
    );
    // Fails mid-span (a frame left open): the others' frames must not inherit it.
    const refused = track(
      "refused",
      limitOf(
        decodeTraces(
          traces([
            {
              scopeSpans: [
                { spans: [{ name: "ok" }, { attributes: attributes(OTLP_LIMITS.listEntries + 1) }] },
              ],
            },
          ]),
          "protobuf",
          pace(),
        ),
      ),
    );
    const tooMany = track(
      "logs",
      limitOf(
        decodeLogs(
          logs([{ scopeLogs: [{ logRecords: Array.from({ length: OTLP_LIMITS.items + 1 }, () => ({})) }] }]),
          "protobuf",
          pace(),
        ),
      ),
    );
    const [bigGroups, smallGroups, refusedLimit, logsLimit] = await Promise.all([
      big,
      small,
      refused,
      tooMany,
    ]);
    // The small ones finished while the big one was still being decoded.
    expect(finished.indexOf("small")).toBeLessThan(finished.indexOf("big"));
    expect(finished.indexOf("refused")).toBeLessThan(finished.indexOf("big"));
    expect(bigGroups).toHaveLength(1);
    expect(bigGroups[0]?.items).toHaveLength(OTLP_LIMITS.items);
    expect(
      bigGroups[0]?.items.every((span) => span.attributes.size === 2 && span.scope === "big-scope"),
    ).toBe(true);
    expect(smallGroups.map((group) => group.items.map((span) => [span.name, span.scope]))).toEqual([
      [
        ["a", "one"],
        ["b", "one"],
      ],
      [["c", "two"]],
    ]);
    expect(smallGroups[1]?.items[0]?.attributes.size).toBe(3);
    expect(refusedLimit).toBe("listEntries");
    expect(logsLimit).toBe("items");
  });

  it("decodes fields in any order, repeated and unknown ones as the generated decoder does", async () => {
    // resourceSpans { scopeSpans { spans { name: "a" } scope { name: "late" } } unknown field 9 }
    const span = Buffer.from([0x2a, 0x01, 0x61]); // Span.name (field 5) = "a"
    const scope = Buffer.from([0x0a, 0x04, ...Buffer.from("late")]); // InstrumentationScope.name = "late"
    const scopeSpans = Buffer.concat([
      Buffer.from([0x12, span.length]),
      span,
      Buffer.from([0x0a, scope.length]),
      scope,
    ]);
    const unknown = Buffer.from([0x48, 0x07]); // field 9, varint 7
    const resourceSpans = Buffer.concat([Buffer.from([0x12, scopeSpans.length]), scopeSpans, unknown]);
    const body = Buffer.concat([Buffer.from([0x0a, resourceSpans.length]), resourceSpans]);
    const [group] = await decodeTraces(body, "protobuf", createPace(0));
    expect(group?.items).toEqual([expect.objectContaining({ name: "a", scope: "late" })]);
  });
});
