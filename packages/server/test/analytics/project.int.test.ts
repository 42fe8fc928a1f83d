// The project overview: environments with data, summary, endpoints (one correctly paged list,
// per app) and consumers, over the hand-checked dataset of both apps (see dataset.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  log,
  minutesBefore,
  type QueryFixture,
  qs,
} from "../support/query-fixture.js";
import { billingRecords, checkoutRecords, strangerRecords } from "./dataset.js";

type Params = Record<string, string | number | undefined>;

describe.each(eventsBackends())("project analytics on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const get = async <T>(route: string, params: Params = {}): Promise<T> => {
    const response = await fx.owner.get(`/api/v1/projects/shop/analytics/${route}${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", [...checkoutRecords(), ...billingRecords()], fx.key);
    // An environment seen only in logs still has data.
    await ingest(fx.ctx, "logs", [log(minutesBefore(3), { app_id: "billing", environment: "QA" })], fx.key);
    await ingest(fx.ctx, "requests", strangerRecords(), fx.elsewhere.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("lists the environments with request or log data, sorted, narrowed by app slugs", async () => {
    expect(await get("environments")).toEqual({ environments: ["production", "qa", "staging"] });
    expect(await get("environments", { app_slugs: "checkout" })).toEqual({
      environments: ["production", "staging"],
    });
    expect(await get("environments", { app_slugs: "billing" })).toEqual({
      environments: ["production", "qa"],
    });
    const problem = expectProblem(
      await fx.owner.get("/api/v1/projects/shop/analytics/environments?app_slugs=billing,ghost"),
      "validation_error",
    );
    expect(problem.errors).toEqual([
      { pointer: "#/query/app_slugs", message: 'no app "ghost" in project "shop"' },
    ]);
  });

  it("summarises every app of the project over the last 24 hours", async () => {
    // 9 records: latencies 5 6 10 20 30 40 50 100 200 -> p50 30, p95 160, p99 192.
    expect(await get("summary")).toEqual({
      total_requests: 9,
      error_count: 3,
      client_errors: 1,
      server_errors: 2,
      error_rate: expect.closeTo(100 / 3, 9),
      avg_response_time_ms: expect.closeTo(461 / 9, 9),
      p50_response_time_ms: 30,
      p95_response_time_ms: expect.closeTo(160, 9),
      p99_response_time_ms: expect.closeTo(192, 9),
      total_request_bytes: 1110,
      total_response_bytes: 3380,
      unique_endpoints: 6,
      unique_consumers: 3,
    });
  });

  it("narrows the summary by apps, environment and window", async () => {
    expect(await get("summary", { app_slugs: "billing" })).toMatchObject({
      total_requests: 2,
      avg_response_time_ms: 5.5,
      unique_endpoints: 2,
      unique_consumers: 1,
    });
    expect(await get("summary", { environment: " staging" })).toMatchObject({
      total_requests: 1,
      server_errors: 1,
    });
    expect(await get("summary", { since: minutesBefore(26 * 60).toISOString() })).toMatchObject({
      total_requests: 10,
    });
    expect(
      await get("summary", { since: minutesBefore(6).toISOString(), until: minutesBefore(5).toISOString() }),
    ).toMatchObject({ total_requests: 2, avg_response_time_ms: 5.5 });
    // `until` alone: the 24 hours before it.
    expect(await get("summary", { until: minutesBefore(60).toISOString() })).toMatchObject({
      total_requests: 3,
    });
  });

  it("pages the endpoints of all apps as one list, per app, with a stable order", async () => {
    const first = await get<{
      items: Array<Record<string, unknown>>;
      total_count: number;
      page_size: number;
    }>("endpoints");
    expect({ total: first.total_count, size: first.page_size }).toEqual({ total: 6, size: 25 });
    const key = (item: Record<string, unknown>) =>
      `${item.app_id === fx.checkout.id ? "checkout" : "billing"} ${item.method} ${item.path}`;
    expect(first.items.map(key)).toEqual([
      "checkout GET /users/{id}",
      "checkout POST /orders",
      "checkout GET /",
      "billing GET /invoices",
      "checkout GET /orders/{id}/items",
      "billing GET /users/{id}",
    ]);
    expect(first.items[0]).toEqual({
      app_id: fx.checkout.id,
      app_slug: "checkout",
      method: "GET",
      path: "/users/{id}",
      total_requests: 3,
      error_count: 1,
      client_errors: 1,
      server_errors: 0,
      error_rate: expect.closeTo(100 / 3, 9),
      avg_response_time_ms: 20,
      p50_response_time_ms: 20,
      p95_response_time_ms: expect.closeTo(29, 9),
      p99_response_time_ms: expect.closeTo(29.8, 9),
      total_request_bytes: 200,
      total_response_bytes: 3050,
      last_seen_at: minutesBefore(10).toISOString(),
    });
    const pages = await Promise.all(
      [1, 2, 3].map((page) =>
        get<{ items: Array<Record<string, unknown>> }>("endpoints", { page, page_size: 2 }),
      ),
    );
    expect(pages.flatMap((page) => page.items.map(key))).toEqual(first.items.map(key));
    expect(await get("endpoints", { page: 4, page_size: 2 })).toEqual({
      items: [],
      total_count: 6,
      page: 4,
      page_size: 2,
    });
    expect((await get<{ page_size: number }>("endpoints", { page_size: 201 })).page_size).toBe(200);
    expect(
      (
        await get<{ items: Array<Record<string, unknown>> }>("endpoints", { status_classes: "3xx", q: "/" })
      ).items.map(key),
    ).toEqual(["checkout GET /"]);
    expect(
      (
        await get<{ items: Array<Record<string, unknown>> }>("endpoints", {
          app_slugs: "billing",
          sort_by: "endpoint",
          sort_dir: "desc",
        })
      ).items.map(key),
    ).toEqual(["billing GET /users/{id}", "billing GET /invoices"]);
  });

  it("lists the project's consumers across apps, busiest first, unknown included", async () => {
    const { items: consumers, total_count } = await get<{
      items: Array<Record<string, unknown>>;
      total_count: number;
    }>("consumers");
    expect(total_count).toBe(4);
    expect(consumers.map((consumer) => [consumer.consumer, consumer.total_requests])).toEqual([
      ["unknown", 3],
      ["Acme", 3],
      ["c2", 2],
      ["Beta", 1],
    ]);
    expect(consumers[1]).toMatchObject({
      consumer_id: "c1",
      consumer_name: "Acme",
      consumer_group: "gold",
      avg_response_time_ms: expect.closeTo(35 / 3, 9),
      last_seen_at: minutesBefore(5).toISOString(),
    });
    expect(await get<{ items: unknown[] }>("consumers", { page_size: 2 })).toMatchObject({
      items: [{ consumer: "unknown" }, { consumer: "Acme" }],
      total_count: 4,
      page: 1,
      page_size: 2,
    });
  });
});
