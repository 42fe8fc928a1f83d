// GET /projects/{slug}/data/requests and /data/requests/{id} over records ingested through the
// real route: every field, each filter and its edge (inclusive bounds, literal path patterns,
// normalised environments), defaults, the page-size cap, stable paging, and 422s with pointers.
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

interface Item {
  id: string;
  timestamp: string;
  app_id: string;
  environment: string;
  method: string;
  path: string;
  route: string;
  status_code: number;
  response_time_ms: number;
  [field: string]: unknown;
}
interface Page {
  items: Item[];
  total_count: number;
  page: number;
  page_size: number;
}

/** Seven records share one millisecond: only the id can order them. */
const TIE = minutesBefore(90);
const SINCE = minutesBefore(60);
const UNTIL = minutesBefore(30);

/** The hand-made records; `bulk` adds 230 older ones so the page-size cap shows. */
function dataset(): Record<string, unknown>[] {
  return [
    request(minutesBefore(1), {
      method: "post",
      path: "/users/42/orders?draft=1",
      status_code: 201,
      response_time_ms: 87.25,
      request_size: 512,
      response_size: 2048,
      ip_address: "203.0.113.7",
      user_agent: "curl/8.5.0",
      consumer_id: "customer-42",
      consumer_name: "Acme Corp",
      consumer_group: "enterprise",
      request_payload: '{"sku":"A-1"}',
      response_payload: '{"id":17}',
      request_headers: { "Content-Type": "application/json", Authorization: "Bearer s3cret" },
      response_headers: { "X-Request-Id": "abc" },
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
    }),
    request(minutesBefore(5), { app_id: "billing", method: "DELETE", path: "/invoices/9", status_code: 204 }),
    request(minutesBefore(10), {
      environment: " Staging ",
      path: "/users",
      status_code: 404,
      response_time_ms: 5,
    }),
    request(minutesBefore(20), { path: "/files/100%_done", status_code: 500, response_time_ms: 250 }),
    request(minutesBefore(25), { path: "/files/1000xdone", status_code: 503, response_time_ms: 1000 }),
    request(UNTIL, { path: "/edge/until", response_time_ms: 100 }),
    request(minutesBefore(45), { path: "/Users/7", response_time_ms: 99.5 }),
    request(SINCE, { path: "/edge/since", response_time_ms: 100.5 }),
    request(minutesBefore(61), { path: "/a_c", method: "PUT" }),
    request(minutesBefore(62), { path: "/abc", method: "PUT" }),
    request(minutesBefore(63), { path: "/x\\y", method: "PATCH" }),
    ...Array.from({ length: 7 }, (_, n) => request(TIE, { path: `/tie/${n}` })),
  ];
}

const bulk = () =>
  Array.from({ length: 230 }, (_, n) =>
    request(minutesBefore(2 * 24 * 60 + n), {
      app_id: "billing",
      path: `/bulk/${n}`,
      response_time_ms: 0.5 + n / 1000,
    }),
  );

describe.each(eventsBackends())("request search on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const url = (params: Record<string, string | number | undefined> = {}) =>
    `/api/v1/projects/shop/data/requests${qs(params)}`;
  const search = async (params: Record<string, string | number | undefined> = {}): Promise<Page> => {
    const response = await fx.owner.get(url(params));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };
  /** Each path as it was requested: the stored path and, apart, its query string. */
  const paths = (page: Page) =>
    page.items.map((item) => (item.query === "" ? item.path : `${item.path}?${item.query}`));

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", [...dataset(), ...bulk()], fx.key);
    // The stranger's project has records with the same app slug and paths: never visible here.
    await ingest(
      fx.ctx,
      "requests",
      [
        request(minutesBefore(2), { path: "/users/42/orders?draft=1" }),
        request(minutesBefore(3), { path: "/tie/0" }),
      ],
      fx.elsewhere.key,
    );
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("returns every field of spec 2.7 plus id, route and trace ids, without payloads or headers", async () => {
    const page = await search({ page_size: 1 });
    expect(page).toEqual({
      items: [
        {
          id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
          timestamp: minutesBefore(1).toISOString(),
          app_id: fx.checkout.id,
          environment: "production",
          method: "POST",
          path: "/users/42/orders",
          route: "/users/{id}/orders",
          status_code: 201,
          response_time_ms: 87.25,
          request_size: 512,
          response_size: 2048,
          ip_address: "203.0.113.7",
          user_agent: "curl/8.5.0",
          consumer_id: "customer-42",
          consumer_name: "Acme Corp",
          consumer_group: "enterprise",
          trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
          span_id: "00f067aa0ba902b7",
          query: "draft=1",
        },
      ],
      total_count: 248,
      page: 1,
      page_size: 1,
      retention: { days: 3650, beyond: false },
    });
  });

  it("defaults to page 1 of 50, newest first, over all retained data of the project only", async () => {
    const page = await search();
    expect({ page: page.page, page_size: page.page_size, total: page.total_count }).toEqual({
      page: 1,
      page_size: 50,
      total: 248,
    });
    expect(page.items).toHaveLength(50);
    const times = page.items.map((item) => Date.parse(item.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.items.every((item) => item.app_id !== fx.elsewhere.app.id)).toBe(true);
  });

  it("serves page_size above 200 as 200 and says so", async () => {
    const page = await search({ page_size: 500 });
    expect(page.page_size).toBe(200);
    expect(page.items).toHaveLength(200);
    expect(page.total_count).toBe(248);
  });

  it("pages through records sharing a timestamp without repeating or skipping one", async () => {
    const whole = await search({ path_filter: "/tie/*", page_size: 10 });
    expect(whole.total_count).toBe(7);
    const pages = [1, 2, 3].map((page) => search({ path_filter: "/tie/*", page_size: 3, page }));
    const ids = (await Promise.all(pages)).flatMap((page) => page.items.map((item) => item.id));
    expect(ids).toEqual(whole.items.map((item) => item.id));
    expect(new Set(ids).size).toBe(7);
  });

  it("pages through every record in order, each exactly once, and answers past the end with the total", async () => {
    const seen: Item[] = [];
    for (let page = 1; page <= 7; page += 1) seen.push(...(await search({ page_size: 37, page })).items);
    expect(seen).toHaveLength(248);
    expect(new Set(seen.map((item) => item.id)).size).toBe(248);
    const times = seen.map((item) => Date.parse(item.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await search({ page_size: 37, page: 8 })).toEqual({
      items: [],
      total_count: 248,
      page: 8,
      page_size: 37,
      retention: { days: 3650, beyond: false },
    });
  });

  it("narrows to apps by slug and refuses an unknown slug by name", async () => {
    const billing = await search({ app_slugs: "billing", page_size: 200 });
    expect(billing.total_count).toBe(231);
    expect(billing.items.every((item) => item.app_id === fx.billing.id)).toBe(true);
    expect((await search({ app_slugs: " checkout , billing ," })).total_count).toBe(248);
    const problem = expectProblem(
      await fx.owner.get(url({ app_slugs: "checkout,nope" })),
      "validation_error",
    );
    expect(problem.errors).toEqual([
      { pointer: "#/query/app_slugs", message: 'no app "nope" in project "shop"' },
    ]);
  });

  it("matches the environment as ingest normalised it", async () => {
    expect(paths(await search({ environment: " STAGING " }))).toEqual(["/users"]);
    expect((await search({ environment: "production" })).total_count).toBe(247);
    expect((await search({ environment: "" })).total_count).toBe(248);
  });

  it("includes records exactly at since and until", async () => {
    const page = await search({ since: SINCE.toISOString(), until: UNTIL.toISOString() });
    expect(paths(page)).toEqual(["/edge/until", "/Users/7", "/edge/since"]);
    // The same instants written with an offset and without one (UTC) select the same records.
    const offset = await search({ since: "2026-03-30T12:00:00+01:00", until: "2026-03-30T11:30:00" });
    expect(paths(offset)).toEqual(["/edge/until", "/Users/7", "/edge/since"]);
  });

  it("reads date-only bounds as whole days", async () => {
    expect((await search({ since: "2026-03-30", until: "2026-03-30" })).total_count).toBe(18);
    expect((await search({ until: "2026-03-28" })).total_count).toBe(230);
  });

  it("filters methods in any case, status codes, and inclusive response-time bounds", async () => {
    expect(paths(await search({ methods: "put,Patch" }))).toEqual(["/a_c", "/abc", "/x\\y"]);
    expect(paths(await search({ status_codes: "500, 503" }))).toEqual([
      "/files/100%_done",
      "/files/1000xdone",
    ]);
    expect(paths(await search({ min_response_time: 99.5, max_response_time: 100.5 }))).toEqual([
      "/edge/until",
      "/Users/7",
      "/edge/since",
    ]);
    expect(paths(await search({ min_response_time: 250 }))).toEqual(["/files/100%_done", "/files/1000xdone"]);
  });

  it("matches path_filter whole and case-insensitively, with * as the only wildcard", async () => {
    expect(paths(await search({ path_filter: "/users" }))).toEqual(["/users"]);
    expect(paths(await search({ path_filter: "/users/*" }))).toEqual([
      "/users/42/orders?draft=1",
      "/Users/7",
    ]);
    expect(paths(await search({ path_filter: "/files/100%*" }))).toEqual(["/files/100%_done"]);
    expect(paths(await search({ path_filter: "/files/100%_done" }))).toEqual(["/files/100%_done"]);
    expect(paths(await search({ path_filter: "/a_c" }))).toEqual(["/a_c"]);
    expect(paths(await search({ path_filter: "/x\\y" }))).toEqual(["/x\\y"]);
    expect(paths(await search({ path_filter: "*orders?draft=*" }))).toEqual(["/users/42/orders?draft=1"]);
  });

  it("answers 422 with a pointer for each bad parameter", async () => {
    const cases: Array<[Record<string, string | number>, string[]]> = [
      [{ since: "yesterday" }, ["#/query/since"]],
      [{ until: "2026-02-30T00:00:00Z" }, ["#/query/until"]],
      [{ since: "2026-03-30T12:00:00Z", until: "2026-03-30T11:00:00Z" }, ["#/query/since"]],
      [{ page: 0 }, ["#/query/page"]],
      [{ page_size: 0 }, ["#/query/page_size"]],
      [{ page: "two" }, ["#/query/page"]],
      [{ min_response_time: -1 }, ["#/query/min_response_time"]],
      [{ max_response_time: -0.5 }, ["#/query/max_response_time"]],
      [{ min_response_time: 10, max_response_time: 5 }, ["#/query/min_response_time"]],
      [{ status_codes: "500,abc,2000" }, ["#/query/status_codes", "#/query/status_codes"]],
      [{ status: "500" }, ["#/query/status"]],
      [
        { since: "nope", status_codes: "x", app_slugs: "ghost" },
        ["#/query/app_slugs", "#/query/since", "#/query/status_codes"],
      ],
    ];
    for (const [params, pointers] of cases) {
      const problem = expectProblem(await fx.owner.get(url(params)), "validation_error");
      expect(
        (problem.errors as { pointer: string }[]).map((error) => error.pointer).sort(),
        JSON.stringify(params),
      ).toEqual(pointers);
    }
  });

  it("returns one request in full by id, payloads and redacted headers included", async () => {
    const [first] = (await search({ page_size: 1 })).items;
    const response = await fx.owner.get(`/api/v1/projects/shop/data/requests/${first?.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...first,
      base_url: "",
      scheme: "",
      validation_errors: [],
      request_payload: '{"sku":"A-1"}',
      response_payload: '{"id":17}',
      request_headers: { "content-type": "application/json", authorization: "[REDACTED]" },
      response_headers: { "x-request-id": "abc" },
    });
  });

  it("answers 404 for an id of another project or none, and 422 for a non-UUID", async () => {
    const theirs = (
      await fx.stranger.get(`/api/v1/projects/elsewhere/data/requests${qs({ path_filter: "/tie/0" })}`)
    ).json<Page>().items[0] as Item;
    expectProblem(await fx.owner.get(`/api/v1/projects/shop/data/requests/${theirs.id}`), "not_found");
    expectProblem(
      await fx.owner.get("/api/v1/projects/shop/data/requests/0192f3c4-5b6a-7d8e-9f01-23456789abcd"),
      "not_found",
    );
    expectProblem(
      await fx.owner.get("/api/v1/projects/shop/data/requests/7c9e6679-7425-40de-944b-e07fc1f90ae7"),
      "not_found",
    );
    const problem = expectProblem(
      await fx.owner.get("/api/v1/projects/shop/data/requests/42"),
      "validation_error",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "#/path/id" })]);
  });

  it("answers 503, not an empty page, when the events store is down", async () => {
    await fx.ctx.deps.events.close();
    const response = await fx.owner.get(url());
    expectProblem(response, "service_unavailable");
    expect(response.headers["retry-after"]).toBe("5");
  });
});
