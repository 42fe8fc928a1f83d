// Serving the dashboard: index.html for page paths (never for /api), hashed assets cached for a
// year and sent precompressed when the client accepts it, a strict CSP, and a plain notice
// (API unaffected) when the dashboard has not been built.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { expectProblem } from "../support/problem.js";

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/app-1a2b3c4d.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify("x".repeat(2000))});`;

describe("dashboard serving", () => {
  let ctx: TestContext;
  let dist: string;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), "sightline-dist-"));
    await mkdir(join(dist, "assets"));
    await writeFile(join(dist, "index.html"), INDEX);
    await writeFile(join(dist, "index.html.gz"), gzipSync(INDEX));
    await writeFile(join(dist, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(join(dist, "assets", "app-1a2b3c4d.js"), SCRIPT);
    await writeFile(join(dist, "assets", "app-1a2b3c4d.js.br"), brotliCompressSync(SCRIPT));
    await writeFile(join(dist, "assets", "app-1a2b3c4d.js.gz"), gzipSync(SCRIPT));
    await writeFile(join(dist, ".secret"), "hidden-secret-value");
    ctx = await createTestContext({ dashboardDir: dist });
  });
  afterAll(async () => {
    await ctx.close();
    await rm(dist, { recursive: true, force: true });
  });

  it("answers / and every page path with index.html, not cached, under a strict CSP", async () => {
    for (const url of ["/", "/projects", "/projects/shop/settings/apps?tab=1", "/auth/verify?token=abc"]) {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX);
      expect(response.headers["cache-control"]).toBe("no-cache");
      const csp = String(response.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/https?:|\*|unsafe/);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
    expect((await ctx.app.inject({ method: "HEAD", url: "/projects" })).statusCode).toBe(200);
  });

  it("sends hashed assets immutable, brotli or gzip as the client accepts", async () => {
    const url = "/assets/app-1a2b3c4d.js";
    const br = await ctx.app.inject({ url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 5);

    const gz = await ctx.app.inject({ url, headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const plain = await ctx.app.inject({ url, headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it("revalidates unhashed files and 404s missing files, dotfiles and traversal attempts", async () => {
    const favicon = await ctx.app.inject({ url: "/favicon.svg" });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers["cache-control"]).toBe("no-cache");
    for (const url of [
      "/assets/nope-123.js",
      "/robots.txt",
      "/.secret",
      "/assets/%2e%2e/.secret",
      "/%2e%2e/package.json",
    ]) {
      const response = await ctx.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expectProblem(response, "not_found");
      expect(response.body).not.toContain("hidden-secret-value");
    }
  });

  it("keeps /api paths the API's: unknown ones answer problem+json 404", async () => {
    expectProblem(await ctx.app.inject({ url: "/api/v1/nope" }), "not_found");
    expectProblem(await ctx.app.inject({ url: "/api" }), "not_found");
    expect((await ctx.app.inject({ url: "/api/v1/health" })).statusCode).toBe(200);
  });

  it("serves a notice, not an error, when the dashboard is not built", async () => {
    const unbuilt = await createTestContext({ dashboardDir: join(dist, "missing") });
    try {
      const page = await unbuilt.app.inject({ url: "/projects" });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain("npm run build");
      expect((await unbuilt.app.inject({ url: "/api/v1/health" })).statusCode).toBe(200);
    } finally {
      await unbuilt.close();
    }
  });
});
