import { describe, expect, it } from "vitest";
import { csvField, csvLine, formatRecords } from "./export-format.js";

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const chunk of chunks) out += chunk;
  return out;
}

async function* batches<T>(...items: T[][]): AsyncIterable<T[]> {
  for (const batch of items) yield batch;
}

describe("export formats", () => {
  it("quotes CSV fields holding a comma, a quote or a line break and doubles quotes (RFC 4180)", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
    expect(csvField(12.5)).toBe("12.5");
    expect(csvField({ a: "1,2" })).toBe('"{""a"":""1,2""}"');
    expect(csvField(null)).toBe("");
    expect(csvLine(["a", 1, ""])).toBe("a,1,\r\n");
  });

  it("defuses text a spreadsheet would run as a formula, leaving numbers as they are", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField(-2)).toBe("-2");
    expect(csvField("/orders/-1")).toBe("/orders/-1");
  });

  it("writes CSV columns in the declared order whatever the record's key order", async () => {
    const out = await text(formatRecords(batches([{ b: 2, a: 1 }], [{ a: 3, b: 4 }]), "csv", ["a", "b"]));
    expect(out).toBe("a,b\r\n1,2\r\n3,4\r\n");
  });

  it("writes one JSON record per line as NDJSON, nothing for no records", async () => {
    expect(await text(formatRecords(batches([{ a: "x\ny" }, { a: 2 }]), "ndjson", ["a"]))).toBe(
      '{"a":"x\\ny"}\n{"a":2}\n',
    );
    expect(await text(formatRecords(batches(), "ndjson", ["a"]))).toBe("");
    expect(await text(formatRecords(batches(), "csv", ["a"]))).toBe("a\r\n");
  });
});
