// No N+1: every list route of the resource model runs the same number of metadata queries
// whether it returns one row or many (authentication and scope lookups included).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";

const LIST_ROUTES = [
  "/api/v1/projects",
  "/api/v1/apps",
  "/api/v1/projects/shop/apps",
  "/api/v1/projects/shop/api-keys",
  "/api/v1/apps/checkout/api-keys",
  "/api/v1/apps/checkout/environments",
  "/api/v1/apps/checkout/endpoints",
];

describe.each(metadataBackends())("list query counts on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let api: Client;
  const queries: string[] = [];

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend, onMetadataQuery: (sql) => queries.push(sql) });
    api = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function queriesPerList(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const url of LIST_ROUTES) {
      queries.length = 0;
      const response = await api.get(url);
      expect(response.statusCode, url).toBe(200);
      counts[url] = queries.length;
    }
    return counts;
  }

  async function addRows(n: number, from: number): Promise<void> {
    for (let i = from; i < from + n; i++) {
      await api.post("/api/v1/projects", { name: `Project ${i}` });
      await api.post("/api/v1/projects/shop/apps", { name: `App ${i}` });
      await api.post("/api/v1/projects/shop/api-keys", { name: `key ${i}` });
      await api.post("/api/v1/apps/checkout/api-keys", { name: `app key ${i}` });
      await api.post("/api/v1/apps/checkout/environments", { name: `env ${i}` });
      await api.post("/api/v1/apps/checkout/endpoints", { method: "GET", path: `/things/${i}` });
    }
  }

  it("does not grow with the number of rows listed", async () => {
    await api.post("/api/v1/projects", { name: "Shop" });
    await api.post("/api/v1/projects/shop/apps", { name: "Checkout" });
    await addRows(1, 0);
    const few = await queriesPerList();
    await addRows(5, 1);
    const many = await queriesPerList();
    expect(many).toEqual(few);
    // Authentication (1), scope resolution (at most 2) and the list itself (1).
    for (const [url, count] of Object.entries(many)) expect(count, url).toBeLessThanOrEqual(4);
  });
});
