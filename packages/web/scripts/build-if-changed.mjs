// Builds the dashboard into dist/ unless it is already built from the same sources: a SHA-256
// over everything that shapes the output is kept in dist/.build-stamp. After a build, every
// text asset gets .br and .gz siblings (node:zlib), which the server sends precompressed.
// `--force` builds regardless.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, URL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const webDir = fileURLToPath(new URL("..", import.meta.url));
const distDir = join(webDir, "dist");
const stampPath = join(distDir, ".build-stamp");
const lockfile = join(webDir, "..", "..", "package-lock.json");
const INPUTS = [
  "src",
  "public",
  "index.html",
  "vite.config.ts",
  "package.json",
  "scripts/build-if-changed.mjs",
];
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".test.tsx"))
    .flatMap((entry) => filesUnder(join(path, entry.name)));
}

function sourceHash() {
  const hash = createHash("sha256");
  const files = INPUTS.flatMap((input) => filesUnder(join(webDir, input))).sort();
  for (const file of [...files, lockfile]) {
    if (!existsSync(file)) continue;
    hash.update(relative(webDir, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

function precompress(dir) {
  let count = 0;
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const bytes = readFileSync(file);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = gzipSync(bytes, { level: 9 });
    // A sibling only when it saves bytes: the server falls back to the plain file.
    if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
    count += 1;
  }
  return count;
}

const force = process.argv.includes("--force");
const hash = sourceHash();
const current = existsSync(stampPath) ? readFileSync(stampPath, "utf8").trim() : "";
if (!force && current === hash && existsSync(join(distDir, "index.html"))) {
  process.stdout.write("dashboard: up to date (sources unchanged)\n");
  process.exit(0);
}

const started = Date.now();
const { build } = await import("vite");
await build({
  root: webDir,
  configFile: join(webDir, "vite.config.ts"),
  logLevel: "warn",
  mode: "production",
});
const compressed = precompress(distDir);
writeFileSync(stampPath, `${hash}\n`);
process.stdout.write(
  `dashboard: built in ${((Date.now() - started) / 1000).toFixed(1)} s (${compressed} files precompressed)\n`,
);
