// The bundle budget, on the real build output (npm test builds first): for the first page of
// any route, the entry's JavaScript plus the lazy chunk of that route, with every chunk they
// import statically, stays within 250 KiB gzip. And nothing of the server's schemas ships.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const BUDGET_BYTES = 250 * 1024;

interface Chunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

function manifest(): Record<string, Chunk> {
  const path = join(DIST, ".vite", "manifest.json");
  if (!existsSync(path))
    throw new Error(`No build at ${DIST}: run \`npm run build\` (npm test does it first).`);
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, Chunk>;
}

/** The chunk and everything it imports statically, transitively. */
function closure(chunks: Record<string, Chunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const child of chunks[key]?.imports ?? []) closure(chunks, child, seen);
  return seen;
}

const gzipSize = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

describe("the dashboard bundle", () => {
  const chunks = manifest();
  const entry = Object.keys(chunks).find((key) => chunks[key]?.isEntry) as string;
  const initial = closure(chunks, entry);
  const lazyRoutes = Object.keys(chunks).filter((key) => chunks[key]?.isDynamicEntry);

  it("has one entry and lazy chunks for the heavier pages", () => {
    expect(entry).toBe("index.html");
    expect(lazyRoutes.length).toBeGreaterThanOrEqual(5);
  });

  it.each(["(entry only)", ...lazyRoutes])("keeps the first load of %s within 250 KiB gzip", (route) => {
    const files = new Set(initial);
    if (route !== "(entry only)") for (const key of closure(chunks, route)) files.add(key);
    const bytes = [...files].reduce((sum, key) => sum + gzipSize(chunks[key]?.file as string), 0);
    expect(bytes, `${route}: ${bytes} bytes`).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it("ships no TypeBox and no inline script", () => {
    const scripts = Object.values(chunks).map((chunk) => readFileSync(join(DIST, chunk.file), "utf8"));
    for (const source of scripts) expect(source).not.toMatch(/typebox|TypeBox/);
    const html = readFileSync(join(DIST, "index.html"), "utf8");
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>/g)];
    expect(inline).toEqual([]);
    expect(html).not.toMatch(/<style|style="/);
    expect(html).not.toMatch(/https?:\/\//);
  });
});
