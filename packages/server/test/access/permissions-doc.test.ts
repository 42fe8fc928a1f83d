// docs/authorization.md shows the permission matrix of the code: one row per permission, in
// catalogue order, a mark for each role holding it, and its description.
import { readFileSync } from "node:fs";
import { PERMISSION_NAMES, PERMISSIONS, ROLES, roleCan } from "@sightline/contracts";
import { describe, expect, it } from "vitest";

const doc = readFileSync(new URL("../../../../docs/authorization.md", import.meta.url), "utf8");

/** The cells of the table between the matrix markers, trimmed (Prettier may pad them). */
function documentedRows(): string[][] {
  const start = doc.indexOf("<!-- permission-matrix:start -->");
  const end = doc.indexOf("<!-- permission-matrix:end -->");
  expect(start, "docs/authorization.md lacks the permission-matrix markers").toBeGreaterThan(-1);
  return doc
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("|") && !/^\|\s*-/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

/** The table as the code defines it. */
function expectedRows(): string[][] {
  return [
    ["Permission", ...ROLES, "Allows"],
    ...PERMISSION_NAMES.map((permission) => [
      `\`${permission}\``,
      ...ROLES.map((role) => (roleCan(role, permission) ? "✓" : "")),
      PERMISSIONS[permission].description,
    ]),
  ];
}

describe("docs/authorization.md", () => {
  it("renders the permission matrix of the code", () => {
    const expected = expectedRows();
    const rendered = expected.map((row) => `| ${row.join(" | ")} |`).join("\n");
    expect(documentedRows(), `Paste this between the markers:\n${rendered}`).toEqual(expected);
  });
});
