// The dashboard's first paint makes at most three API calls per page (issue 12), so each call
// must stay cheap in statements too: every data and analytics route a page reads runs one
// events-store statement (the consumers page two and the errors page three: their costly
// figures only for the page's rows),
// and a fixed number of metadata queries (authentication, scope, the cached app list) that does
// not grow with the project's apps, consumers or endpoints.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { ingest, request } from "../support/query-fixture.js";

const P = "/api/v1/projects/shop";
const ROUTE = encodeURIComponent("/users/{id}");
/** Each call and the events statements it may run. */
const DASHBOARD_CALLS: ReadonlyArray<[string, number]> = [
  [`${P}/analytics/summary?consumer=c1`, 1],
  [`${P}/analytics/timeseries?consumer=c1&timezone=UTC`, 1],
  [`${P}/analytics/endpoints?consumer=c1&sort_by=p95_response_time_ms`, 1],
  [`${P}/analytics/consumers`, 2],
  [`${P}/analytics/consumers?q=c&sort_by=error_rate`, 2],
  [`${P}/analytics/consumers?q=c&sort_by=p95_response_time_ms`, 1],
  // The errors page's distinct consumers and first occurrences for its groups only, beside it.
  [`${P}/analytics/errors?status_classes=5xx`, 3],
  [`${P}/data/requests?consumer=c1&status_classes=4xx,5xx&route=${ROUTE}`, 1],
  [`${P}/data/requests?trace_id=4bf92f3577b34da6a3ce929d0e0e4736`, 1],
  [`${P}/data/logs?levels=error`, 1],
];

describe.each(metadataBackends())("dashboard query budget on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let api: Client;
  let key: string;
  const metadata: string[] = [];
  let events = 0;

  beforeEach(async () => {
    ctx = await createTestContext({ metadata: backend, onMetadataQuery: (sql) => metadata.push(sql) });
    // Counts the statements the routes send to the real events store, passing each one on.
    const store = ctx.deps.events;
    const query = store.query.bind(store);
    store.query = ((...args: Parameters<typeof query>) => {
      events += 1;
      return query(...args);
    }) as typeof store.query;
    api = clientFor(ctx.app, (await signIn(ctx, "owner@example.com")).headers);
    expect((await api.post("/api/v1/projects", { name: "Shop", slug: "shop" })).statusCode).toBe(201);
    expect((await api.post(`${P}/apps`, { name: "Checkout", slug: "checkout" })).statusCode).toBe(201);
    key = (await api.post(`${P}/api-keys`, { name: "ingest" })).json<{ key: string }>().key;
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function budget(): Promise<Record<string, [number, number]>> {
    const counts: Record<string, [number, number]> = {};
    for (const [url] of DASHBOARD_CALLS) {
      // Warm the app-list cache the way a page's earlier calls would.
      await api.get(url);
      metadata.length = 0;
      events = 0;
      const response = await api.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      counts[url] = [metadata.length, events];
    }
    return counts;
  }

  async function traffic(apps: number, from: number): Promise<void> {
    const now = Date.now();
    const records: Record<string, unknown>[] = [];
    for (let n = from; n < from + apps; n++) {
      const slug = `app-${n}`;
      expect((await api.post(`${P}/apps`, { name: slug, slug })).statusCode).toBe(201);
      for (let r = 0; r < 5; r++) {
        records.push(
          request(new Date(now - (n * 5 + r + 1) * 60_000), {
            app_id: slug,
            path: `/users/${r}`,
            status_code: r % 2 === 0 ? 500 : 200,
            consumer_id: `c${r}`,
          }),
        );
      }
    }
    await ingest(ctx, "requests", records, key);
  }

  it("runs one events statement per call and a metadata budget that does not grow", async () => {
    await traffic(1, 0);
    const few = await budget();
    await traffic(5, 1);
    const many = await budget();
    expect(many).toEqual(few);
    for (const [url, [metadataQueries, statements]] of Object.entries(many)) {
      // Authentication (1) and the project's scope (at most 2); app slugs come from a cache.
      expect({ url, metadataQueries: metadataQueries <= 3 }).toEqual({ url, metadataQueries: true });
      const allowed = DASHBOARD_CALLS.find(([call]) => call === url)?.[1];
      expect({ url, statements }).toEqual({ url, statements: allowed });
    }
  });
});
