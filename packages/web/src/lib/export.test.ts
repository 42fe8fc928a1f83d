import { describe, expect, it } from "vitest";
import { exportText } from "./export";

describe("the client-side export", () => {
  const rows = [
    { id: "a", name: "Acme, Inc.", count: 3, tags: { tier: "gold" } },
    { id: "b", name: '=HYPERLINK("x")', count: 0, extra: true },
  ];

  it("writes NDJSON as the records are, one a line", () => {
    expect(
      exportText(rows, "ndjson")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual(rows);
  });

  it("writes CSV with every field met as a column, quoted and defused like the server's", () => {
    expect(exportText(rows, "csv")).toBe(
      "id,name,count,tags,extra\r\n" +
        'a,"Acme, Inc.",3,"{""tier"":""gold""}",\r\n' +
        'b,"\'=HYPERLINK(""x"")",0,,true\r\n',
    );
  });
});
