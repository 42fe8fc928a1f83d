// What the dashboard's pages add to the query routes (issue 12): the request search's consumer,
// route, status class and trace filters; the consumer filter of the project summary, timeseries
// and endpoints; the paged, searchable, sortable consumers list; the errors breakdown; and the
// app slug on project-level rows. Over the hand-checked dataset (dataset.ts) plus the older
// records below, ingested through the real route, next to a stranger's look-alike records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  type QueryFixture,
  qs,
  request,
} from "../support/query-fixture.js";
import { billingRecords, checkoutRecords, strangerRecords } from "./dataset.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const hoursBefore = (hours: number) => minutesBefore(hours * 60);

/**
 * Outside the default window (so the figures of dataset.ts stand), inside [-31h, -26h]:
 *   T1 -30h   checkout GET /users/77   500  c2, trace TRACE
 *   E1 -29h   billing  GET /invoices   502  c1
 *   E2 -28h   billing  GET /invoices   502  c4
 *   E3 -27.5h billing  GET /invoices   502  no consumer
 *   E4 -27h   checkout GET /users/78   404  c2
 */
const olderRecords = (): Record<string, unknown>[] => [
  request(hoursBefore(30), { path: "/users/77", status_code: 500, consumer_id: "c2", trace_id: TRACE }),
  request(hoursBefore(29), { app_id: "billing", path: "/invoices", status_code: 502, consumer_id: "c1" }),
  request(hoursBefore(28), { app_id: "billing", path: "/invoices", status_code: 502, consumer_id: "c4" }),
  request(hoursBefore(27.5), { app_id: "billing", path: "/invoices", status_code: 502 }),
  request(hoursBefore(27), { path: "/users/78", status_code: 404, consumer_id: "c2" }),
];
const OLDER = { since: hoursBefore(31).toISOString(), until: hoursBefore(26).toISOString() };

type Params = Record<string, string | number | undefined>;
interface Paged<T> {
  items: T[];
  total_count: number;
  page: number;
  page_size: number;
}
type Row = Record<string, unknown>;

describe.each(eventsBackends())("dashboard query additions on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const get = async <T>(url: string, params: Params = {}): Promise<T> => {
    const response = await fx.owner.get(`/api/v1/projects/shop/${url}${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  /** The request search as "app path status" lines, newest first. */
  const requests = async (params: Params): Promise<string[]> => {
    const page = await get<Paged<Row>>("data/requests", params);
    expect(page.total_count).toBe(page.items.length);
    return page.items.map(
      (item) => `${item.app_id === fx.checkout.id ? "checkout" : "billing"} ${item.path} ${item.status_code}`,
    );
  };
  const pointers = async (url: string): Promise<string[]> => {
    const problem = expectProblem(await fx.owner.get(`/api/v1/projects/shop/${url}`), "validation_error");
    return (problem.errors as Array<{ pointer: string }>).map((error) => error.pointer);
  };

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", [...checkoutRecords(), ...billingRecords(), ...olderRecords()], fx.key);
    // The stranger's records use consumer c1, route /users/{id}, status 500: never ours.
    await ingest(fx.ctx, "requests", strangerRecords(), fx.elsewhere.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  describe("data/requests", () => {
    it("filters by consumer id, exactly, within the project", async () => {
      expect(await requests({ consumer: "c1" })).toEqual([
        "billing /invoices 200",
        "checkout /users/42 200",
        "checkout /users/7 200",
        "billing /invoices 502",
      ]);
      expect(await requests({ consumer: "c2" })).toEqual([
        "checkout /users/9 404",
        "checkout /orders 201",
        "checkout /users/78 404",
        "checkout /users/77 500",
      ]);
      expect(await requests({ consumer: "C1" })).toEqual([]);
      // Empty means any.
      expect((await get<Paged<Row>>("data/requests", { consumer: "" })).total_count).toBe(15);
    });

    it("filters by route template, every raw path it grouped", async () => {
      expect(await requests({ route: "/users/{id}" })).toEqual([
        "billing /users/5 200",
        "checkout /users/42 200",
        "checkout /users/7 200",
        "checkout /users/9 404",
        "checkout /users/1 200",
        "checkout /users/78 404",
        "checkout /users/77 500",
      ]);
      expect(await requests({ route: "/users/{id}", app_slugs: "checkout", methods: "post" })).toEqual([]);
      expect(await requests({ route: "/users/*" })).toEqual([]);
    });

    it("filters by status classes, OR-ed with status codes", async () => {
      const errors = [
        "checkout /users/9 404",
        "checkout /orders 500",
        "checkout /orders/17/items 503",
        "checkout /users/78 404",
        "billing /invoices 502",
        "billing /invoices 502",
        "billing /invoices 502",
        "checkout /users/77 500",
      ];
      expect(await requests({ status_classes: "4xx, 5XX" })).toEqual(errors);
      expect(await requests({ status_classes: "5xx", status_codes: "404" })).toEqual(errors);
      expect(await requests({ status_classes: "3xx" })).toEqual(["checkout / 301"]);
    });

    it("finds one trace in any letter case, and combines every filter with AND", async () => {
      expect(await requests({ trace_id: TRACE.toUpperCase() })).toEqual(["checkout /users/77 500"]);
      expect(await requests({ trace_id: ` ${TRACE} `, consumer: "c1" })).toEqual([]);
      expect(
        await requests({ consumer: "c2", status_classes: "4xx,5xx", route: "/users/{id}", ...OLDER }),
      ).toEqual(["checkout /users/78 404", "checkout /users/77 500"]);
    });

    it("answers 422 naming each bad new parameter, and for unknown ones", async () => {
      expect(await pointers("data/requests?status_classes=6xx&trace_id=xyz")).toEqual([
        "#/query/status_classes",
        "#/query/trace_id",
      ]);
      expectProblem(
        await fx.owner.get("/api/v1/projects/shop/data/requests?consumers=c1"),
        "validation_error",
      );
    });
  });

  describe("consumer filter of the project analytics", () => {
    it("summarises one consumer's traffic across apps", async () => {
      // c1: A1 10 ms, A2 20 ms (checkout GET /users/{id}), B1 5 ms (billing GET /invoices).
      expect(await get("analytics/summary", { consumer: "c1" })).toEqual({
        total_requests: 3,
        error_count: 0,
        client_errors: 0,
        server_errors: 0,
        error_rate: 0,
        avg_response_time_ms: expect.closeTo(35 / 3, 9),
        p50_response_time_ms: 10,
        p95_response_time_ms: expect.closeTo(19, 9),
        p99_response_time_ms: expect.closeTo(19.8, 9),
        total_request_bytes: 210,
        total_response_bytes: 3020,
        unique_endpoints: 2,
        unique_consumers: 1,
      });
      expect(await get("analytics/summary", { consumer: "c2", app_slugs: "checkout" })).toMatchObject({
        total_requests: 2,
        error_count: 1,
        client_errors: 1,
        avg_response_time_ms: 65,
      });
      expect(await get("analytics/summary", { consumer: "c2", ...OLDER })).toMatchObject({
        total_requests: 2,
        server_errors: 1,
      });
    });

    it("gives one consumer's timeseries, zero-filled", async () => {
      const series = await get<{ points: Array<{ bucket: string; total_requests: number }> }>(
        "analytics/timeseries",
        { consumer: "c2", interval: "1h", timezone: "UTC" },
      );
      expect(series.points).toHaveLength(25);
      expect(series.points.filter((point) => point.total_requests > 0)).toEqual([
        expect.objectContaining({ bucket: "2026-03-30T11:00:00.000Z", total_requests: 2, client_errors: 1 }),
      ]);
    });

    it("lists the endpoints one consumer called, each with its app slug", async () => {
      const page = await get<Paged<Row>>("analytics/endpoints", { consumer: "c1" });
      expect(page.total_count).toBe(2);
      expect(
        page.items.map((item) => [item.app_id, item.app_slug, item.method, item.path, item.total_requests]),
      ).toEqual([
        [fx.checkout.id, "checkout", "GET", "/users/{id}", 2],
        [fx.billing.id, "billing", "GET", "/invoices", 1],
      ]);
      expect(Object.keys(page.items[0] as Row).slice(0, 4)).toEqual(["app_id", "app_slug", "method", "path"]);
    });
  });

  describe("analytics/consumers", () => {
    it("pages every consumer with its figures, busiest first, unknown included", async () => {
      const page = await get<Paged<Row>>("analytics/consumers");
      expect(page.items.map((item) => [item.consumer, item.total_requests])).toEqual([
        ["unknown", 3],
        ["Acme", 3],
        ["c2", 2],
        ["Beta", 1],
      ]);
      expect({ total: page.total_count, page: page.page, size: page.page_size }).toEqual({
        total: 4,
        page: 1,
        size: 50,
      });
      expect(page.items[1]).toEqual({
        consumer: "Acme",
        consumer_id: "c1",
        consumer_name: "Acme",
        consumer_group: "gold",
        total_requests: 3,
        error_count: 0,
        client_errors: 0,
        server_errors: 0,
        error_rate: 0,
        avg_response_time_ms: expect.closeTo(35 / 3, 9),
        p50_response_time_ms: 10,
        p95_response_time_ms: expect.closeTo(19, 9),
        p99_response_time_ms: expect.closeTo(19.8, 9),
        total_request_bytes: 210,
        total_response_bytes: 3020,
        last_seen_at: minutesBefore(5).toISOString(),
      });
    });

    it("searches ids, names and groups case-insensitively, never the unknown consumer", async () => {
      const ids = async (q: string) =>
        (await get<Paged<Row>>("analytics/consumers", { q })).items.map((item) => item.consumer_id);
      expect(await ids("acme")).toEqual(["c1"]);
      expect(await ids("GOLD")).toEqual(["c1"]);
      expect(await ids("free")).toEqual(["c2"]);
      expect(await ids("c")).toEqual(["c1", "c2", "c3"]);
      expect(await ids("unknown")).toEqual([]);
      expect(await ids("%")).toEqual([]);
    });

    it("sorts by the documented keys, ties by consumer_id", async () => {
      const labels = async (params: Params) =>
        (await get<Paged<Row>>("analytics/consumers", params)).items.map((item) => item.consumer);
      expect(await labels({ sort_by: "consumer" })).toEqual(["Acme", "Beta", "c2", "unknown"]);
      expect(await labels({ sort_by: "consumer", sort_dir: "desc" })).toEqual([
        "unknown",
        "c2",
        "Beta",
        "Acme",
      ]);
      // p95: unknown 6 50 200 -> 185; c2 30 100 -> 96.5; Beta 40; Acme 5 10 20 -> 19.
      expect(await labels({ sort_by: "p95_response_time_ms" })).toEqual(["unknown", "c2", "Beta", "Acme"]);
      expect(await labels({ sort_by: "total_requests", sort_dir: "asc" })).toEqual([
        "Beta",
        "c2",
        "unknown",
        "Acme",
      ]);
      expect(await labels({ sort_by: "last_seen_at" })).toEqual(["Acme", "unknown", "c2", "Beta"]);
    });

    it("pages with a stable order and tells the total past the end", async () => {
      const pages = await Promise.all(
        [1, 2, 3, 4].map((page) => get<Paged<Row>>("analytics/consumers", { page, page_size: 1 })),
      );
      expect(pages.map((page) => page.items[0]?.consumer)).toEqual(["unknown", "Acme", "c2", "Beta"]);
      expect(await get("analytics/consumers", { page: 5, page_size: 1 })).toEqual({
        items: [],
        total_count: 4,
        page: 5,
        page_size: 1,
      });
      expect(await get("analytics/consumers", { q: "c", page: 9, page_size: 1 })).toMatchObject({
        items: [],
        total_count: 3,
      });
    });

    it("answers 422 for bad sorts and the old limit parameter", async () => {
      expect(await pointers("analytics/consumers?sort_by=bogus")).toEqual(["#/query/sort_by"]);
      expect(await pointers("analytics/consumers?limit=5")).toHaveLength(1);
    });
  });

  describe("analytics/errors", () => {
    it("groups failed requests by endpoint and status code, with consumers and first/last seen", async () => {
      const page = await get<Paged<Row>>("analytics/errors", OLDER);
      expect({ total: page.total_count, size: page.page_size }).toEqual({ total: 3, size: 25 });
      expect(page.items).toEqual([
        {
          app_id: fx.billing.id,
          app_slug: "billing",
          method: "GET",
          path: "/invoices",
          status_code: 502,
          count: 3,
          affected_consumers: 2,
          first_seen_at: hoursBefore(29).toISOString(),
          last_seen_at: hoursBefore(27.5).toISOString(),
          is_new: true,
        },
        {
          app_id: fx.checkout.id,
          app_slug: "checkout",
          method: "GET",
          path: "/users/{id}",
          status_code: 404,
          count: 1,
          affected_consumers: 1,
          first_seen_at: hoursBefore(27).toISOString(),
          last_seen_at: hoursBefore(27).toISOString(),
          is_new: true,
        },
        expect.objectContaining({ path: "/users/{id}", status_code: 500, count: 1, affected_consumers: 1 }),
      ]);
    });

    it("covers the last 24 hours by default and narrows by every filter", async () => {
      const rows = async (params: Params = {}) =>
        (await get<Paged<Row>>("analytics/errors", params)).items.map(
          (item) => `${item.app_slug} ${item.method} ${item.path} ${item.status_code}`,
        );
      const all = [
        "checkout GET /orders/{id}/items 503",
        "checkout GET /users/{id} 404",
        "checkout POST /orders 500",
      ];
      expect(await rows()).toEqual(all);
      expect(await rows({ status_classes: "4xx" })).toEqual(["checkout GET /users/{id} 404"]);
      expect(await rows({ status_codes: "500" })).toEqual(["checkout POST /orders 500"]);
      expect(await rows({ status_classes: "4xx", status_codes: "503" })).toEqual(all.slice(0, 2));
      expect(await rows({ environment: "STAGING" })).toEqual(["checkout GET /orders/{id}/items 503"]);
      expect(await rows({ consumer: "c2" })).toEqual(["checkout GET /users/{id} 404"]);
      expect(await rows({ methods: "post" })).toEqual(["checkout POST /orders 500"]);
      expect(await rows({ q: "ORDERS" })).toEqual([all[0], all[2]]);
      expect(await rows({ app_slugs: "billing" })).toEqual([]);
      expect(await rows({ sort_by: "last_seen_at" })).toEqual([all[1], all[2], all[0]]);
      // The 404 also failed 27 hours ago, before the window: first seen is then, the earliest.
      expect(await rows({ sort_by: "first_seen_at", sort_dir: "asc" })).toEqual([all[1], all[0], all[2]]);
      expect(await rows({ app_slugs: "billing", ...OLDER, sort_by: "affected_consumers" })).toEqual([
        "billing GET /invoices 502",
      ]);
    });

    it("pages with a stable order and tells the total past the end", async () => {
      const pages = await Promise.all(
        [1, 2, 3].map((page) => get<Paged<Row>>("analytics/errors", { page, page_size: 1 })),
      );
      expect(pages.map((page) => page.items[0]?.status_code)).toEqual([503, 404, 500]);
      expect(await get("analytics/errors", { page: 4, page_size: 1 })).toEqual({
        items: [],
        total_count: 3,
        page: 4,
        page_size: 1,
      });
      expect((await get<Paged<Row>>("analytics/errors", { page_size: 1_000_000 })).page_size).toBe(200);
    });

    it("answers 422 for statuses that are not errors and for unknown parameters", async () => {
      expect(await pointers("analytics/errors?status_classes=2xx&status_codes=200,abc")).toEqual([
        "#/query/status_classes",
        "#/query/status_codes",
        "#/query/status_codes",
      ]);
      expect(await pointers("analytics/errors?sort_by=total_requests")).toEqual(["#/query/sort_by"]);
      expect(await pointers("analytics/errors?limit=5")).toHaveLength(1);
    });
  });

  it("gives rows of a deleted app a null app slug (its records remain)", async () => {
    const removed = await fx.owner.delete("/api/v1/apps/billing");
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    const endpoints = await get<Paged<Row>>("analytics/endpoints", { consumer: "c1" });
    expect(endpoints.items.map((item) => [item.path, item.app_slug])).toEqual([
      ["/users/{id}", "checkout"],
      ["/invoices", null],
    ]);
    const errors = await get<Paged<Row>>("analytics/errors", OLDER);
    expect(errors.items[0]).toMatchObject({ app_id: fx.billing.id, app_slug: null });
  });
});
