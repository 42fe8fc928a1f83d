// Table rendering: aligned columns, numbers to the right, the flexible column cut to the terminal.
import { describe, expect, it } from "vitest";
import { type Column, formatInstant, renderTable } from "./output.js";

interface Row {
  path: string;
  count: number;
}
const columns: Column<Row>[] = [
  { header: "PATH", value: (row) => row.path, flex: true },
  { header: "COUNT", value: (row) => String(row.count), align: "right" },
];

describe("renderTable", () => {
  it("aligns columns and right-aligns numbers", () => {
    const text = renderTable<Row>(
      [
        { path: "/orders", count: 1200 },
        { path: "/users/{id}/orders", count: 3 },
      ],
      columns,
      undefined,
    );
    expect(text).toBe(
      ["PATH                COUNT", "/orders              1200", "/users/{id}/orders      3", ""].join("\n"),
    );
  });

  it("shortens the flexible column with an ellipsis to fit the terminal", () => {
    const text = renderTable<Row>([{ path: `/${"a".repeat(60)}`, count: 1 }], columns, 30);
    for (const line of text.trimEnd().split("\n")) expect(line.length).toBeLessThanOrEqual(30);
    expect(text).toContain("…");
  });

  it("keeps every cell on one line", () => {
    const text = renderTable<Row>([{ path: "/a\nb", count: 1 }], columns, undefined);
    expect(text.trimEnd().split("\n")).toHaveLength(2);
  });
});

describe("formatInstant", () => {
  it("shows UTC instants to the second", () => {
    expect(formatInstant("2026-11-21T06:00:00.123Z")).toBe("2026-11-21 06:00:00");
    expect(formatInstant(null)).toBe("—");
  });
});
