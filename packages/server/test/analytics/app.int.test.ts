// The app routes of spec 4.5 over the hand-checked dataset (see dataset.ts for the arithmetic):
// endpoint-stats with every filter, sort key, tie-breaker and the page cap; endpoint-options;
// consumers; summary; related-apis; endpoint detail, consumers, status codes and payloads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  type QueryFixture,
  qs,
} from "../support/query-fixture.js";
import { billingRecords, checkoutRecords, strangerRecords } from "./dataset.js";

type Params = Record<string, string | number | readonly string[] | undefined>;
interface Stats {
  method: string;
  path: string;
  total_requests: number;
  [figure: string]: unknown;
}

const at = (minutes: number) => minutesBefore(minutes).toISOString();

describe.each(eventsBackends())("app analytics on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const get = async <T>(route: string, params: Params = {}): Promise<T> => {
    const response = await fx.owner.get(`/api/v1/apps/checkout/${route}${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const stats = (params: Params = {}) =>
    get<{ items: Stats[]; total_count: number; page: number; page_size: number }>("endpoint-stats", params);
  const endpoints = async (params: Params = {}) =>
    (await stats(params)).items.map((item) => `${item.method} ${item.path}`);

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", [...checkoutRecords(), ...billingRecords()], fx.key);
    await ingest(fx.ctx, "requests", strangerRecords(), fx.elsewhere.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("computes each endpoint's figures over the last 24 hours, busiest first", async () => {
    const page = await stats();
    expect({ total: page.total_count, page: page.page, page_size: page.page_size }).toEqual({
      total: 4,
      page: 1,
      page_size: 25,
    });
    expect(page.items).toEqual([
      {
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
        last_seen_at: at(10),
      },
      {
        method: "POST",
        path: "/orders",
        total_requests: 2,
        error_count: 1,
        client_errors: 0,
        server_errors: 1,
        error_rate: 50,
        avg_response_time_ms: 150,
        p50_response_time_ms: 150,
        p95_response_time_ms: expect.closeTo(195, 9),
        p99_response_time_ms: expect.closeTo(199, 9),
        total_request_bytes: 900,
        total_response_bytes: 300,
        last_seen_at: at(40),
      },
      expect.objectContaining({
        method: "GET",
        path: "/",
        total_requests: 1,
        error_rate: 0,
        p95_response_time_ms: 40,
      }),
      expect.objectContaining({
        method: "GET",
        path: "/orders/{id}/items",
        total_requests: 1,
        server_errors: 1,
        error_rate: 100,
        last_seen_at: at(120),
      }),
    ]);
  });

  it("sorts by every documented key, breaking ties by method then path", async () => {
    const users = "GET /users/{id}";
    const orders = "POST /orders";
    const root = "GET /";
    const items = "GET /orders/{id}/items";
    expect(await endpoints({ sort_by: "endpoint" })).toEqual([root, items, users, orders]);
    expect(await endpoints({ sort_by: "endpoint", sort_dir: "desc" })).toEqual([orders, users, items, root]);
    expect(await endpoints({ sort_by: "total_requests", sort_dir: "asc" })).toEqual([
      root,
      items,
      orders,
      users,
    ]);
    expect(await endpoints({ sort_by: "error_count" })).toEqual([items, users, orders, root]);
    expect(await endpoints({ sort_by: "error_rate" })).toEqual([items, orders, users, root]);
    expect(await endpoints({ sort_by: "avg_response_time_ms", sort_dir: "asc" })).toEqual([
      users,
      root,
      items,
      orders,
    ]);
    expect(await endpoints({ sort_by: "p50_response_time_ms" })).toEqual([orders, items, root, users]);
    expect(await endpoints({ sort_by: "p95_response_time_ms" })).toEqual([orders, items, root, users]);
    expect(await endpoints({ sort_by: "p99_response_time_ms", sort_dir: "asc" })).toEqual([
      users,
      root,
      items,
      orders,
    ]);
    expect(await endpoints({ sort_by: "data_transfer" })).toEqual([users, orders, items, root]);
    expect(await endpoints({ sort_by: "last_seen_at" })).toEqual([users, orders, root, items]);
  });

  it("pages with a stable order and serves page_size above 200 as 200", async () => {
    expect(await endpoints({ page_size: 2 })).toEqual(["GET /users/{id}", "POST /orders"]);
    const second = await stats({ page_size: 2, page: 2 });
    expect(second.items.map((item) => `${item.method} ${item.path}`)).toEqual([
      "GET /",
      "GET /orders/{id}/items",
    ]);
    expect(second.total_count).toBe(4);
    expect(await stats({ page_size: 2, page: 3 })).toEqual({
      items: [],
      total_count: 4,
      page: 3,
      page_size: 2,
    });
    expect((await stats({ page_size: 5000 })).page_size).toBe(200);
  });

  it("filters status classes and codes (OR-ed), methods, paths, endpoints, q and environment", async () => {
    expect(await endpoints({ status_classes: "5xx" })).toEqual(["GET /orders/{id}/items", "POST /orders"]);
    expect(await endpoints({ status_class: "4XX", status_codes: "500", sort_by: "endpoint" })).toEqual([
      "GET /users/{id}",
      "POST /orders",
    ]);
    expect(await endpoints({ status_code: 301 })).toEqual(["GET /"]);
    expect((await stats({ status_classes: "2xx" })).items[0]).toMatchObject({
      path: "/users/{id}",
      total_requests: 2,
    });
    expect(await endpoints({ methods: "post" })).toEqual(["POST /orders"]);
    expect(await endpoints({ paths: "/users/{id},/", sort_by: "endpoint" })).toEqual([
      "GET /",
      "GET /users/{id}",
    ]);
    expect(
      await endpoints({
        endpoint: ["post /orders", "GET /orders/{id}/items", "GET /orders"],
        sort_by: "endpoint",
      }),
    ).toEqual(["GET /orders/{id}/items", "POST /orders"]);
    expect(await endpoints({ q: "ORD", sort_by: "endpoint" })).toEqual([
      "GET /orders/{id}/items",
      "POST /orders",
    ]);
    expect(await endpoints({ q: "pos" })).toEqual(["POST /orders"]);
    expect(await endpoints({ environment: "STAGING" })).toEqual(["GET /orders/{id}/items"]);
    expect(await endpoints({ since: at(35), until: at(10) })).toEqual(["GET /users/{id}"]);
    expect((await stats({ since: at(26 * 60) })).items[0]).toMatchObject({
      path: "/users/{id}",
      total_requests: 4,
    });
  });

  it("answers 422 naming each bad parameter", async () => {
    const cases: Array<[Params, string[]]> = [
      [{ status_classes: "5xx,6xx" }, ["#/query/status_classes"]],
      [{ status_codes: "5o0" }, ["#/query/status_codes"]],
      [{ status_code: 99 }, ["#/query/status_code"]],
      [{ endpoint: "orders" }, ["#/query/endpoint"]],
      [{ sort_by: "popularity" }, ["#/query/sort_by"]],
      [{ sort_dir: "up" }, ["#/query/sort_dir"]],
      [{ page: 0, page_size: -1 }, ["#/query/page", "#/query/page_size"]],
      [{ until: "soon" }, ["#/query/until"]],
      [{ since: at(-120) }, ["#/query/since"]],
      [{ app_slugs: "checkout" }, ["#/query/app_slugs"]],
    ];
    for (const [params, pointers] of cases) {
      const response = await fx.owner.get(`/api/v1/apps/checkout/endpoint-stats${qs(params)}`);
      const problem = expectProblem(response, "validation_error");
      const found = (problem.errors as { pointer: string }[]).map((error) => error.pointer).sort();
      expect(found, JSON.stringify(params)).toEqual(pointers);
    }
  });

  it("lists endpoint options by requests, honouring limits up to 1000", async () => {
    expect(await get("endpoint-options")).toEqual([
      { method: "GET", path: "/users/{id}", total_requests: 3 },
      { method: "POST", path: "/orders", total_requests: 2 },
      { method: "GET", path: "/", total_requests: 1 },
      { method: "GET", path: "/orders/{id}/items", total_requests: 1 },
    ]);
    expect(await get("endpoint-options", { limit: 2, status_classes: "4xx,5xx" })).toEqual([
      { method: "GET", path: "/orders/{id}/items", total_requests: 1 },
      { method: "GET", path: "/users/{id}", total_requests: 1 },
    ]);
    expect(await get<unknown[]>("endpoint-options", { limit: 999_999 })).toHaveLength(4);
  });

  it("labels consumers by name, else id, else unknown, carrying the newest name and group", async () => {
    expect(await get("consumers")).toEqual([
      {
        consumer: "unknown",
        consumer_id: "",
        consumer_name: "",
        consumer_group: "",
        total_requests: 2,
        error_count: 2,
        client_errors: 0,
        server_errors: 2,
        error_rate: 100,
        avg_response_time_ms: 125,
        last_seen_at: at(50),
      },
      {
        consumer: "Acme",
        consumer_id: "c1",
        consumer_name: "Acme",
        consumer_group: "gold",
        total_requests: 2,
        error_count: 0,
        client_errors: 0,
        server_errors: 0,
        error_rate: 0,
        avg_response_time_ms: 15,
        last_seen_at: at(10),
      },
      expect.objectContaining({ consumer: "c2", consumer_id: "c2", consumer_group: "free", error_rate: 50 }),
      expect.objectContaining({
        consumer: "Beta",
        consumer_id: "c3",
        consumer_group: "silver",
        total_requests: 1,
      }),
    ]);
    expect((await get<unknown[]>("consumers", { limit: 1 })).length).toBe(1);
  });

  it("summarises the app, and gives zeros, never NaN or null, for an empty window", async () => {
    expect(await get("analytics/summary")).toEqual({
      total_requests: 7,
      error_count: 3,
      client_errors: 1,
      server_errors: 2,
      error_rate: expect.closeTo(300 / 7, 9),
      avg_response_time_ms: expect.closeTo(450 / 7, 9),
      p50_response_time_ms: 40,
      p95_response_time_ms: expect.closeTo(170, 9),
      p99_response_time_ms: expect.closeTo(194, 9),
      total_request_bytes: 1100,
      total_response_bytes: 3360,
      unique_endpoints: 4,
      unique_consumers: 3,
    });
    const empty = await get("analytics/summary", { since: "2020-01-01", until: "2020-01-02" });
    expect(empty).toEqual({
      total_requests: 0,
      error_count: 0,
      client_errors: 0,
      server_errors: 0,
      error_rate: 0,
      avg_response_time_ms: 0,
      p50_response_time_ms: 0,
      p95_response_time_ms: 0,
      p99_response_time_ms: 0,
      total_request_bytes: 0,
      total_response_bytes: 0,
      unique_endpoints: 0,
      unique_consumers: 0,
    });
  });

  it("groups related APIs by the first segment of the route template", async () => {
    expect(await get("analytics/related-apis")).toEqual([
      {
        family: "/orders",
        endpoint_count: 2,
        total_requests: 3,
        error_count: 2,
        client_errors: 0,
        server_errors: 2,
        error_rate: expect.closeTo(200 / 3, 9),
        avg_response_time_ms: expect.closeTo(350 / 3, 9),
      },
      expect.objectContaining({ family: "/users", endpoint_count: 1, total_requests: 3, client_errors: 1 }),
      expect.objectContaining({ family: "/", endpoint_count: 1, total_requests: 1, error_rate: 0 }),
    ]);
    expect(await get<unknown[]>("analytics/related-apis", { limit: 1 })).toHaveLength(1);
  });

  it("details one endpoint, with zeros and a null last_seen_at when it had no traffic", async () => {
    expect(await get("analytics/endpoint-detail", { method: "get", path: "/users/{id}" })).toEqual({
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
      last_seen_at: at(10),
    });
    expect(await get("analytics/endpoint-detail", { method: "GET", path: "/nowhere" })).toMatchObject({
      total_requests: 0,
      error_rate: 0,
      avg_response_time_ms: 0,
      p95_response_time_ms: 0,
      last_seen_at: null,
    });
    const problem = expectProblem(
      await fx.owner.get("/api/v1/apps/checkout/analytics/endpoint-detail?path=/users/{id}"),
      "validation_error",
    );
    expect(problem.errors).toEqual([{ pointer: "#/query/method", message: "is required" }]);
  });

  it("lists one endpoint's consumers and status codes, busiest first", async () => {
    const endpoint = { method: "GET", path: "/users/{id}" };
    expect(await get("analytics/endpoint-consumers", endpoint)).toEqual([
      {
        consumer: "Acme",
        consumer_id: "c1",
        consumer_name: "Acme",
        consumer_group: "gold",
        total_requests: 2,
        error_count: 0,
        client_errors: 0,
        server_errors: 0,
        error_rate: 0,
        avg_response_time_ms: 15,
      },
      expect.objectContaining({ consumer: "c2", total_requests: 1, client_errors: 1, error_rate: 100 }),
    ]);
    expect(await get("analytics/endpoint-status-codes", endpoint)).toEqual([
      { status_code: 200, total_requests: 2 },
      { status_code: 404, total_requests: 1 },
    ]);
    expect(await get("analytics/endpoint-status-codes", { method: "POST", path: "/orders" })).toEqual([
      { status_code: 201, total_requests: 1 },
      { status_code: 500, total_requests: 1 },
    ]);
    expect(await get<unknown[]>("analytics/endpoint-status-codes", { ...endpoint, limit: 1 })).toHaveLength(
      1,
    );
  });

  it("samples the newest payloads of one endpoint", async () => {
    const samples = await get<Array<Record<string, unknown>>>("analytics/endpoint-payloads", {
      method: "POST",
      path: "/orders",
    });
    expect(samples).toEqual([
      {
        id: expect.any(String),
        timestamp: at(40),
        environment: "production",
        method: "POST",
        path: "/orders",
        route: "/orders",
        status_code: 201,
        response_time_ms: 100,
        ip_address: "",
        user_agent: "",
        consumer_id: "c2",
        consumer_name: "",
        consumer_group: "",
        request_payload: '{"sku":"A-1"}',
        response_payload: '{"id":1}',
      },
      expect.objectContaining({
        timestamp: at(50),
        request_payload: "",
        response_payload: '{"error":"boom"}',
      }),
    ]);
    expect(await get("analytics/endpoint-payloads", { method: "GET", path: "/users/{id}" })).toEqual([]);
    expect(
      await get<unknown[]>("analytics/endpoint-payloads", { method: "POST", path: "/orders", limit: 1 }),
    ).toHaveLength(1);
  });
});
