// The package as npm would publish it: every entry point loads from the built files both as an
// ES module and through require(), and `files` ships exactly the built code and the README.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as {
  version: string;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
};
const entries = Object.keys(manifest.exports).filter((entry) => entry !== "./package.json");

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
}

describe("@sightline/node as published", () => {
  it("has no runtime dependencies", () => {
    expect(manifest.dependencies ?? {}).toEqual({});
  });

  it.each(entries)("loads %s as ESM and CommonJS with the same exports", (entry) => {
    const name = `@sightline/node${entry.slice(1)}`;
    const esm = node([
      "--input-type=module",
      "-e",
      `console.log(JSON.stringify(Object.keys(await import("${name}")).sort()))`,
    ]);
    const cjs = node(["-e", `console.log(JSON.stringify(Object.keys(require("${name}")).sort()))`]);
    expect(JSON.parse(cjs)).toEqual(JSON.parse(esm));
    expect(JSON.parse(esm).length).toBeGreaterThan(0);
  });

  it("packs the built code, its types and the README, nothing else", () => {
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    ) as {
      files: { path: string }[];
    }[];
    const files = (packed[0]?.files ?? []).map((file) => file.path);
    expect(files).toContain("README.md");
    expect(files).toContain("package.json");
    expect(files).toContain("dist/esm/index.d.ts");
    expect(files).toContain("dist/cjs/adapters/express.js");
    expect(
      files.filter(
        (file) =>
          !/^(dist\/(esm|cjs)\/.*\.(js|d\.ts)|dist\/cjs\/package\.json|README\.md|package\.json)$/.test(file),
      ),
    ).toEqual([]);
  });

  it("reports its own version in its User-Agent", () => {
    const version = node([
      "--input-type=module",
      "-e",
      'console.log((await import("./dist/esm/version.js")).SDK_VERSION)',
    ]);
    expect(version.trim()).toBe(manifest.version);
  });
});
