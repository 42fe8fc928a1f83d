// Default and maximum sizes of every analytics list, on enough distinct endpoints, families,
// consumers, status codes and payloads to exceed each cap: a value above the cap is served as
// the cap, never refused and never ignored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  type QueryFixture,
  qs,
  request,
} from "../support/query-fixture.js";

/** 1010 endpoints in 110 families used by 210 consumers, and one endpoint (GET /one) with 60
 *  status codes, 60 consumers and 110 payloads. */
function records(): Record<string, unknown>[] {
  const spread = Array.from({ length: 1010 }, (_, n) =>
    request(minutesBefore(1 + (n % 600)), {
      path: `/f${n % 110}/e${n}`,
      route: `/f${n % 110}/e${n}`,
      consumer_id: `c${String(n % 210).padStart(3, "0")}`,
    }),
  );
  const one = Array.from({ length: 110 }, (_, n) =>
    request(minutesBefore(1 + n), {
      path: "/one",
      status_code: 200 + (n % 60),
      consumer_id: `c${String(n % 60).padStart(3, "0")}`,
      request_payload: `{"n":${n}}`,
    }),
  );
  return [...spread, ...one];
}

describe.each(eventsBackends())("analytics list sizes on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const size = async (url: string, params: Record<string, string | number> = {}): Promise<number> => {
    const response = await fx.owner.get(`${url}${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<unknown[] | { items: unknown[] }>();
    return Array.isArray(body) ? body.length : body.items.length;
  };

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", records(), fx.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("serves each list's default size, and its cap for anything larger", async () => {
    const one = { method: "GET", path: "/one" };
    const cases: Array<[string, Record<string, string | number>, number, number]> = [
      ["/api/v1/apps/checkout/endpoint-options", {}, 500, 1000],
      ["/api/v1/apps/checkout/endpoint-stats", {}, 25, 200],
      ["/api/v1/apps/checkout/consumers", {}, 20, 100],
      ["/api/v1/apps/checkout/analytics/related-apis", {}, 20, 100],
      ["/api/v1/apps/checkout/analytics/endpoint-consumers", one, 10, 50],
      ["/api/v1/apps/checkout/analytics/endpoint-status-codes", one, 20, 50],
      ["/api/v1/apps/checkout/analytics/endpoint-payloads", one, 20, 100],
      ["/api/v1/projects/shop/analytics/consumers", {}, 50, 200],
      ["/api/v1/projects/shop/analytics/endpoints", {}, 25, 200],
    ];
    for (const [url, params, fallback, cap] of cases) {
      const paged = ["endpoints", "endpoint-stats", "/projects/shop/analytics/consumers"];
      const key = paged.some((end) => url.endsWith(end)) ? "page_size" : "limit";
      const sizes = [await size(url, params), await size(url, { ...params, [key]: 1_000_000 })];
      expect({ url, sizes }).toEqual({ url, sizes: [fallback, cap] });
      expect(await size(url, { ...params, [key]: 3 })).toBe(3);
    }
  });

  it("counts every endpoint in total_count however small the page", async () => {
    const response = await fx.owner.get("/api/v1/apps/checkout/endpoint-stats?page_size=1&page=1012");
    expect(response.json()).toEqual({ items: [], total_count: 1011, page: 1012, page_size: 1 });
  });
});
