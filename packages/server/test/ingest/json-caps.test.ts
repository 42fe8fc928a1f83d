// Ingest JSON under item caps (lib/capped-json.ts): the scan refuses what exceeds a cap before
// anything is parsed, rejects what JSON.parse rejects, and the record-by-record parse of a big
// envelope gives what JSON.parse gives, strings made well-formed.
import { describe, expect, it } from "vitest";
import { toWellFormed } from "../../src/http/well-formed.js";
import {
  checkJson,
  JsonCapError,
  type JsonCaps,
  JsonSyntaxError,
  parseCappedJson,
} from "../../src/lib/capped-json.js";

const CAPS: JsonCaps = { depth: 8, topLevelValues: 16, records: 5_000, recordValues: 512 };

function capOf(text: string): string | undefined {
  try {
    checkJson(Buffer.from(text), CAPS);
    return undefined;
  } catch (error) {
    if (error instanceof JsonCapError) return error.cap;
    throw error;
  }
}

describe("parseCappedJson", () => {
  it.each([
    '{"requests":[{"a":1},{"b":[1,2,{"c":"x\\"y\\\\"}]},3,"s",null,true,-1.5e3]}',
    ' { "a" : [ ] } ',
    "[1,2]",
    "{}",
    '"x"',
    "12",
    '{"a":1,"a":2}',
    '{"__proto__":[{"__proto__":1}]}',
    '{"a":["\\ud83d", "\\u00e9\\n"]}',
  ])("parses %s as JSON.parse does", async (text) => {
    expect(await parseCappedJson(Buffer.from(text), CAPS)).toEqual(toWellFormed(JSON.parse(text)));
  });

  it("parses a big envelope record by record, yielding between slices, as JSON.parse does", async () => {
    const records = Array.from({ length: 2_000 }, (_, i) => ({
      i,
      text: i % 7 === 0 ? 'quote " backslash \\ ]},{' : `r${i}`,
      lone: i === 1_500 ? "\ud83d" : "",
      nested: { list: [i, { deep: [true, null] }] },
    }));
    const text = `\ufeff{"logs": ${JSON.stringify(records, null, 1)}}`;
    let yields = 0;
    const pace = { due: () => true, yield: async () => void (yields += 1) };
    const parsed = await parseCappedJson(Buffer.from(text), CAPS, pace);
    expect(parsed).toEqual(toWellFormed(JSON.parse(text.slice(1))));
    expect((parsed as { logs: Array<{ lone: string }> }).logs[1_500]?.lone).toBe("\ufffd");
    expect(yields).toBeGreaterThan(100);
  });

  it.each([
    "",
    "  \n",
    '{"a":[1,]}',
    '{"a" [1]}',
    '{"a":[1}',
    '{"a":[1]',
    "[1 2]",
    '{"a":tru}',
    '{"a":"x}',
    "{,}",
    "[1]]",
    '{"a":1,}',
    "{'a':1}",
  ])("rejects %j as JSON.parse does", async (text) => {
    expect(() => JSON.parse(text)).toThrow();
    await expect(parseCappedJson(Buffer.from(text), CAPS)).rejects.toBeInstanceOf(JsonSyntaxError);
  });
});

describe("checkJson", () => {
  it("counts each cap at its edge", () => {
    const values = (n: number) => new Array<string>(n).fill("0").join(",");
    expect(capOf(`[${values(16)}]`)).toBeUndefined();
    expect(capOf(`[${values(17)}]`)).toBe("topLevelValues");
    expect(capOf(`{"r":[${values(5_000)}]}`)).toBeUndefined();
    expect(capOf(`{"r":[${values(5_001)}]}`)).toBe("records");
    expect(capOf(`{"r":[[${values(512)}]]}`)).toBeUndefined();
    expect(capOf(`{"r":[[${values(513)}]]}`)).toBe("recordValues");
    expect(capOf(`${"[".repeat(8)}${"]".repeat(8)}`)).toBeUndefined();
    expect(capOf(`${"[".repeat(9)}${"]".repeat(9)}`)).toBe("depth");
  });

  it("stops at a cap without reading the rest of the text", () => {
    // Unparseable after the cap: the cap is what is reported.
    expect(capOf(`{"r":[${new Array<string>(5_001).fill("{}").join(",")}, garbage`)).toBe("records");
  });
});
