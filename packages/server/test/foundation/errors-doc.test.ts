// docs/errors.md and the catalogue agree: one section per code, no section for a code we lack.
import { readFileSync } from "node:fs";
import { errorCatalogue, errorCodes } from "@sightline/contracts";
import { describe, expect, it } from "vitest";

const doc = readFileSync(new URL("../../../../docs/errors.md", import.meta.url), "utf8");
const sections = [...doc.matchAll(/^## `([a-z_]+)`\s*$/gm)].map((match) => match[1]);

describe("docs/errors.md", () => {
  it("has exactly one section per catalogue code, in catalogue order", () => {
    expect(sections).toEqual(errorCodes);
  });

  it.each(errorCodes)("states the HTTP status of %s", (code) => {
    const start = doc.indexOf(`## \`${code}\``);
    const next = doc.indexOf("\n## ", start + 1);
    const section = doc.slice(start, next === -1 ? undefined : next);
    expect(section).toContain(`HTTP ${errorCatalogue[code].status}`);
  });
});
