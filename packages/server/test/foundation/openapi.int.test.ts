// The OpenAPI document and the interactive reference: generated from route schemas, complete
// (operationId, one tag, summary on every operation) and self-contained (no CDN assets).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
}

describe("OpenAPI and /api/v1/docs", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("serves an OpenAPI 3.1.0 document with interface version 1.0.0", async () => {
    const response = await ctx.app.inject({ url: "/api/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v1/health", "/api/v1/openapi.json"]),
    );
  });

  it("gives every operation an operationId, exactly one known tag and a summary", async () => {
    const document = (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json();
    const knownTags = new Set((document.tags as { name: string }[]).map((tag) => tag.name));
    const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(0);
    const ids = new Set<string>();
    for (const { path, method, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(path.startsWith("/api/v1/"), where).toBe(true);
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(operation.operationId as string), `${where} duplicates an operationId`).toBe(false);
      ids.add(operation.operationId as string);
      expect(operation.tags, where).toHaveLength(1);
      expect(knownTags.has((operation.tags as string[])[0] as string), where).toBe(true);
      expect(operation.summary, where).toBeTruthy();
    }
  });

  it("serves the reference page with only same-origin assets, each of which loads", async () => {
    const page = await ctx.app.inject({ url: "/api/v1/docs" });
    const html =
      page.statusCode === 302 || page.statusCode === 301
        ? (
            await ctx.app.inject({
              url: new URL(page.headers.location as string, "http://x/api/v1/docs/").pathname,
            })
          ).body
        : page.body;
    expect(html).toContain("swagger-ui");
    const references = [...html.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map(
      (match) => match[1] as string,
    );
    expect(references.length).toBeGreaterThan(2);
    for (const reference of references) {
      expect(reference, "asset must not come from another origin").not.toMatch(/^(https?:)?\/\//);
      const url = new URL(reference, "http://localhost/api/v1/docs/").pathname;
      const asset = await ctx.app.inject({ url });
      expect(asset.statusCode, url).toBe(200);
    }
    const initializer = await ctx.app.inject({ url: "/api/v1/docs/static/swagger-initializer.js" });
    expect(initializer.statusCode).toBe(200);
    // The spec is fetched from this server and the online validator is switched off.
    expect(initializer.body).toContain("resolveUrl('./json')");
    expect(initializer.body).toContain("validatorUrl: null");
  });

  it("locks the reference page to its own origin with a Content-Security-Policy", async () => {
    const page = await ctx.app.inject({ url: "/api/v1/docs" });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers["content-security-policy"]);
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toMatch(/https:|http:|\*/);
  });
});
