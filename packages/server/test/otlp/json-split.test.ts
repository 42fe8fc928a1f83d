// A big OTLP/JSON body is parsed item by item (its skeleton, then each span or log record into
// its place), so no single JSON.parse holds the event loop for the whole body; the value is the
// one JSON.parse of the whole text gives, odd bodies included.
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../../src/errors.js";
import { createPace } from "../../src/lib/pace.js";
import { LOGS_PATH, parseJsonExport, TRACES_PATH } from "../../src/modules/otlp/otlp.decode.js";

const attribute = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** An OTLP/JSON trace export of `resources` × `scopes` × `count` spans whose strings carry JSON
 *  punctuation, escapes and non-ASCII text. */
function traceExport(resources: number, scopes: number, count: number) {
  return {
    resourceSpans: Array.from({ length: resources }, (_, r) => ({
      resource: { attributes: [attribute("service.name", `svc-${r}`)] },
      scopeSpans: Array.from({ length: scopes }, (_, s) => ({
        scope: { name: `scope-${s}` },
        spans: Array.from({ length: count }, (_, i) => ({
          traceId: "5b8efff798038103d269b633813fc60c",
          spanId: (0x1000_0000_0000_0000n + BigInt(r * 1e6 + s * 1e4 + i)).toString(16),
          name: `GET /items/{id} "${i}" ]}{[ \\ ü`,
          kind: 2,
          startTimeUnixNano: "1700000000000000000",
          endTimeUnixNano: "1700000000012000000",
          attributes: [attribute("http.route", "/items/:id"), attribute("note", `x${"y".repeat(i % 50)}`)],
        })),
      })),
    })),
  };
}

describe("parsing a big OTLP/JSON export", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("gives JSON.parse's value without ever parsing the whole body in one call", async () => {
    const text = JSON.stringify(traceExport(2, 2, 1_500));
    expect(text.length).toBeGreaterThan(1_000_000);
    const parse = vi.spyOn(JSON, "parse");
    const value = await parseJsonExport(Buffer.from(text), "spans", TRACES_PATH, createPace());
    const longest = Math.max(...parse.mock.calls.map(([input]) => String(input).length));
    parse.mockRestore();
    expect(value).toEqual(JSON.parse(text));
    expect(longest).toBeLessThan(text.length / 20);
  });

  it("reads members in any order, a BOM, whitespace, and other members beside the items", async () => {
    const big = traceExport(1, 1, 4_000);
    const scope = big.resourceSpans[0]?.scopeSpans[0];
    const reordered = {
      extra: { spans: [{ not: "an item" }] },
      resourceSpans: [{ scopeSpans: [{ spans: scope?.spans, scope: scope?.scope, schemaUrl: "u" }] }],
    };
    const text = `\ufeff ${JSON.stringify(reordered, null, 1)}\n`;
    const value = await parseJsonExport(Buffer.from(text), "spans", TRACES_PATH, createPace());
    expect(value).toEqual(JSON.parse(text.slice(1)));
  });

  it("parses a body with a duplicated member as JSON.parse does (the last one wins)", async () => {
    const first = JSON.stringify(traceExport(1, 1, 3_000).resourceSpans);
    const second = JSON.stringify(traceExport(1, 1, 2_000).resourceSpans);
    const text = `{"resourceSpans":${first},"resourceSpans":${second}}`;
    const value = await parseJsonExport(Buffer.from(text), "spans", TRACES_PATH, createPace());
    expect(value).toEqual(JSON.parse(text));
  });

  it("parses log records the same way, and answers invalid_json for a broken big body", async () => {
    const logs = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: Array.from({ length: 8_000 }, (_, i) => ({
                timeUnixNano: "1700000000000000000",
                body: { stringValue: `line ${i} {"nested": [1, 2]}` },
              })),
            },
          ],
        },
      ],
    };
    const text = JSON.stringify(logs);
    expect(text.length).toBeGreaterThan(512 * 1024);
    expect(await parseJsonExport(Buffer.from(text), "log records", LOGS_PATH, createPace())).toEqual(logs);
    const at = text.indexOf("},{", 300_000) + 2;
    const broken = `${text.slice(0, at)},${text.slice(at)}`;
    await expect(
      parseJsonExport(Buffer.from(broken), "log records", LOGS_PATH, createPace()),
    ).rejects.toSatisfy((error) => error instanceof AppError && error.code === "invalid_json");
  });
});
