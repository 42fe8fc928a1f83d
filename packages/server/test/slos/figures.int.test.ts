// SLO figures on both events backends, against figures worked out by hand: attainment, error
// budget, burn rates over 5/30/60/360 minutes, the daily burn-down, scopes (app, endpoint group,
// consumer, consumer group, environment), both indicators, and the failing requests' search
// answering exactly the bad requests. Records go through the real ingest route.
import type { Slo, SloBurnDown, SloStatus, SloWithStatus } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countWindows } from "../../src/stores/events/queries/slos/slo.js";
import { delegatingExecutor, type EventsBackend, eventsBackends } from "../support/events.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  type QueryFixture,
  request,
} from "../support/query-fixture.js";

const P = "/api/v1/projects/shop";
const DAY = 24 * 60;

/** `count` copies of a request record at `at`. */
const many = (count: number, at: Date, fields: Record<string, unknown> = {}) =>
  Array.from({ length: count }, () => request(at, { route: "/users/{id}", ...fields }));

describe.each(eventsBackends())("SLO figures on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const create = async (body: Record<string, unknown>): Promise<Slo> => {
    const response = await fx.owner.post(`${P}/slos`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Slo>();
  };
  const get = async <T>(url: string): Promise<T> => {
    const response = await fx.owner.get(url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const status = (slo: Slo) => get<SloStatus>(`${P}/slos/${slo.id}/status`);

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    const threeDaysAgo = minutesBefore(3 * DAY);
    const dayAgo = minutesBefore(DAY);
    await ingest(
      fx.ctx,
      "requests",
      [
        // In checkout's 7-day window: 1000 requests, 5 bad for availability (5xx and 429).
        // 3 days ago: 496 ok, one 500, one 429, two 404 (not bad).
        ...many(496, threeDaysAgo),
        ...many(1, threeDaysAgo, { status_code: 500 }),
        ...many(1, threeDaysAgo, { status_code: 429 }),
        ...many(2, threeDaysAgo, { status_code: 404 }),
        // A day ago: 398 ok of which 46 slow (250 ms) and 2 at exactly 100 ms, and two 503s.
        ...many(350, dayAgo),
        ...many(46, dayAgo, { response_time_ms: 250 }),
        ...many(2, dayAgo, { response_time_ms: 100 }),
        ...many(2, dayAgo, { status_code: 503, method: "POST", path: "/orders", route: "/orders" }),
        // The last hour, consumer acme: 90 ok 20 minutes ago, 9 ok and one 500 2 minutes ago.
        ...many(90, minutesBefore(20), { consumer_id: "acme", consumer_group: "enterprise" }),
        ...many(9, minutesBefore(2), { consumer_id: "acme", consumer_group: "enterprise" }),
        ...many(1, minutesBefore(2), { consumer_id: "acme", consumer_group: "enterprise", status_code: 500 }),
        // Outside the scope or the window: 8 days ago, another app, another environment.
        ...many(50, minutesBefore(8 * DAY), { status_code: 500 }),
        ...many(100, minutesBefore(60), { app_id: "billing", status_code: 500 }),
        ...many(30, minutesBefore(60), { environment: "staging", status_code: 500 }),
      ],
      fx.key,
    );
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("computes attainment, error budget and burn rates of an availability SLO", async () => {
    const slo = await create({
      name: "Checkout available",
      scope: { app: "checkout", environment: "production" },
      sli: { kind: "availability", also_bad: ["429"] },
      target: 99,
      window_days: 7,
    });
    const figures = await status(slo);
    expect(figures).toMatchObject({
      window_start: "2026-03-23T12:00:00.000Z",
      window_end: "2026-03-30T12:00:00.000Z",
      requests: 1000,
      bad: 5,
      attainment: 99.5,
      meeting: true,
      error_budget: { allowed_bad: 10, remaining: 50 },
      state: "ok",
    });
    expect(figures.burn_rates).toEqual([
      // 1 bad of 10 is 10%, ten times the 1% allowed.
      { minutes: 5, requests: 10, bad: 1, burn_rate: 10 },
      { minutes: 30, requests: 100, bad: 1, burn_rate: 1 },
      { minutes: 60, requests: 100, bad: 1, burn_rate: 1 },
      { minutes: 360, requests: 100, bad: 1, burn_rate: 1 },
    ]);

    // The failing requests as a search answer exactly the 5 bad ones.
    expect(figures.bad_requests.exact).toBe(true);
    expect(figures.bad_requests.query).toMatchObject({
      app_slugs: "checkout",
      environment: "production",
      status_classes: "5xx",
      status_codes: "429",
    });
    expect(figures.bad_requests.dashboard_path).toBe(
      "/projects/shop/requests?since=2026-03-23T12%3A00%3A00.000Z&until=2026-03-30T11%3A59%3A59.999Z" +
        "&app=checkout&env=production&status=5xx&codes=429",
    );
    const found = await get<{ total_count: number; items: Array<{ status_code: number }> }>(
      figures.bad_requests.api_path,
    );
    expect(found.total_count).toBe(5);
    expect(found.items.map((item) => item.status_code).sort()).toEqual([429, 500, 500, 503, 503]);

    // Without 429 counted, only the four 5xx are bad.
    const strict = await fx.owner.patch(`${P}/slos/${slo.id}`, { sli: { kind: "availability" } });
    expect(strict.statusCode, strict.body).toBe(200);
    expect(await status(slo)).toMatchObject({ bad: 4, error_budget: { remaining: 60 } });
  });

  it("draws the burn-down per UTC day of the window", async () => {
    const slo = await create({
      name: "Burn-down",
      scope: { app: "checkout", environment: "production" },
      sli: { kind: "availability", also_bad: ["429"] },
      target: 99,
      window_days: 7,
    });
    const down = await get<SloBurnDown>(`${P}/slos/${slo.id}/burn-down`);
    expect(down.allowed_bad).toBe(10);
    expect(down.days.map((day) => day.date)).toEqual([
      "2026-03-23",
      "2026-03-24",
      "2026-03-25",
      "2026-03-26",
      "2026-03-27",
      "2026-03-28",
      "2026-03-29",
      "2026-03-30",
    ]);
    const byDate = new Map(down.days.map((day) => [day.date, day]));
    expect(byDate.get("2026-03-24")).toEqual({
      date: "2026-03-24",
      requests: 0,
      bad: 0,
      budget_spent: 0,
      budget_remaining: 100,
      burn_rate: null,
    });
    // 2 bad of 500: 20% of the budget (10), burning at 0.4%/1% = 0.4x.
    expect(byDate.get("2026-03-27")).toMatchObject({
      requests: 500,
      bad: 2,
      budget_spent: 20,
      budget_remaining: 80,
    });
    expect(byDate.get("2026-03-27")?.burn_rate).toBeCloseTo(0.4, 12);
    expect(byDate.get("2026-03-29")).toMatchObject({
      requests: 400,
      bad: 2,
      budget_spent: 20,
      budget_remaining: 60,
    });
    expect(byDate.get("2026-03-30")).toMatchObject({
      requests: 100,
      bad: 1,
      budget_spent: 10,
      budget_remaining: 50,
    });
  });

  it("counts a latency SLO's slow requests, the threshold itself included", async () => {
    const slo = await create({
      name: "Checkout fast",
      scope: { app: "checkout", environment: "production" },
      sli: { kind: "latency", threshold_ms: 100 },
      target: 95,
      window_days: 7,
    });
    // 48 of 1000 at 100 ms or more: 95.2%, 48 of the 50 allowed spent.
    const figures = await status(slo);
    expect(figures).toMatchObject({ requests: 1000, bad: 48, attainment: 95.2, meeting: true });
    expect(figures.error_budget.allowed_bad).toBe(50);
    expect(figures.error_budget.remaining).toBeCloseTo(4, 10);
    expect(figures.bad_requests.query.min_response_time).toBe("100");
    const found = await get<{ total_count: number }>(figures.bad_requests.api_path);
    expect(found.total_count).toBe(48);
  });

  it("narrows to an endpoint group, a consumer, a consumer group; the project scope takes every app", async () => {
    const group = await create({
      name: "Group",
      scope: {
        app: "checkout",
        endpoints: [
          { method: "post", route: "/orders" },
          { method: "GET", route: "/users/:id" },
        ],
      },
      sli: { kind: "availability" },
      target: 99,
      window_days: 7,
    });
    expect(group.scope.endpoints).toEqual([
      { method: "POST", route: "/orders" },
      { method: "GET", route: "/users/{id}" },
    ]);
    // Every checkout request is on one of the two endpoints, staging included (30 bad more).
    expect(await status(group)).toMatchObject({ requests: 1030, bad: 34 });
    expect((await status(group)).bad_requests.exact).toBe(false);

    const orders = await create({
      name: "Orders",
      scope: { app: "checkout", endpoints: [{ method: "POST", route: "/orders" }] },
      sli: { kind: "availability" },
      target: 99,
      window_days: 7,
    });
    const ordersStatus = await status(orders);
    expect(ordersStatus).toMatchObject({ requests: 2, bad: 2, attainment: 0, meeting: false });
    expect(ordersStatus.error_budget.remaining).toBeCloseTo(-9900, 8);
    expect(ordersStatus.bad_requests).toMatchObject({
      exact: true,
      query: { methods: "POST", route: "/orders" },
    });
    expect((await get<{ total_count: number }>(ordersStatus.bad_requests.api_path)).total_count).toBe(2);

    const acme = await create({
      name: "Acme",
      scope: { app: "checkout", consumer: "acme" },
      sli: { kind: "availability" },
      target: 99,
      window_days: 7,
    });
    expect(await status(acme)).toMatchObject({ requests: 100, bad: 1, attainment: 99, meeting: true });
    const enterprise = await create({
      name: "Enterprise",
      scope: { consumer_group: "enterprise" },
      sli: { kind: "availability" },
      target: 99,
      window_days: 28,
    });
    expect(await status(enterprise)).toMatchObject({ requests: 100, bad: 1 });

    // The whole project over 28 days: checkout 1030 (8 days ago too: 50 more) and billing's 100.
    const project = await create({ name: "All", sli: { kind: "availability" }, target: 90, window_days: 28 });
    expect(await status(project)).toMatchObject({ requests: 1180, bad: 184 });

    // The list reads every status in one statement and agrees with each.
    const listed = await get<SloWithStatus[]>(`${P}/slos?include_status=true`);
    for (const item of listed) {
      expect(item.status).toEqual(await status(item.slo));
    }
    // Covering queries: the consumer acme is covered by SLOs without a consumer or with acme.
    const forAcme = await get<SloWithStatus[]>(`${P}/slos?consumer=acme`);
    expect(forAcme.map((item) => item.slo.name)).not.toContain("Enterprise");
    expect(forAcme.map((item) => item.slo.name)).toContain("Acme");
    expect(forAcme.every((item) => item.status === null)).toBe(true);
    const forOrders = await get<SloWithStatus[]>(`${P}/slos?app=checkout&method=POST&route=/orders`);
    expect(forOrders.map((item) => item.slo.name)).toContain("Orders");
    expect(forOrders.map((item) => item.slo.name)).toContain("Group");
    const forUsers = await get<SloWithStatus[]>(`${P}/slos?app=checkout&method=GET&route=/users/{id}`);
    expect(forUsers.map((item) => item.slo.name)).not.toContain("Orders");
  });

  it("reads a project's 200 SLOs in one statement, or a few when their scopes are long", async () => {
    let statements = 0;
    const events = delegatingExecutor(fx.ctx.deps.events, {
      query: (sql, params, lane) => {
        statements += 1;
        return fx.ctx.deps.events.query(sql, params, lane);
      },
    });
    const windows = [7 * DAY, 5, 30, 60, 360].map((minutes) => minutes * 60_000);
    // Each SLO different (its own endpoints and bad codes), so none is read twice.
    const read = async (endpointsOf: (i: number) => Array<{ method: string; route: string }>) => {
      statements = 0;
      return countWindows(
        events,
        fx.project.id,
        Date.parse("2026-03-30T12:00:00.000Z"),
        Array.from({ length: 200 }, (_, i) => ({
          scope: {
            appId: fx.checkout.id,
            environment: "production",
            endpoints: endpointsOf(i),
            consumerId: null,
            consumerGroup: null,
          },
          sli: { kind: "availability" as const, alsoBadCodes: [300 + i], alsoBadClasses: [] },
        })),
        Array.from({ length: 200 }, () => windows),
      );
    };
    const zero = { requests: 0, bad: 0 };

    const plain = await read((i) => [
      { method: "POST", route: "/orders" },
      { method: "GET", route: `/other/${i}` },
    ]);
    expect(statements).toBe(1);
    expect(plain).toHaveLength(200);
    for (const slo of plain) expect(slo).toEqual([{ requests: 2, bad: 2 }, zero, zero, zero, zero]);

    // 50 endpoints each: chDB writes bound values into the text, which must stay under
    // max_query_size; the SLOs are split over a few statements with the same answers.
    const long = await read((i) => [
      ...Array.from({ length: 49 }, (_, index) => ({ method: "GET", route: `/other/${i}/${index}` })),
      { method: "POST", route: "/orders" },
    ]);
    expect(statements).toBeGreaterThan(1);
    expect(statements).toBeLessThanOrEqual(10);
    expect(long).toEqual(plain);
  });

  it("makes the template's SLO for the busiest consumers", async () => {
    await ingest(
      fx.ctx,
      "requests",
      [
        ...many(5, minutesBefore(30), { consumer_id: "globex" }),
        ...many(3, minutesBefore(30), { consumer_id: "initech", status_code: 500 }),
      ],
      fx.key,
    );
    const response = await fx.owner.post(`${P}/slos/per-consumer`, {
      template: { name: "Checkout", sli: { kind: "availability" }, target: 99, window_days: 7 },
      scope: { app: "checkout" },
      top: 2,
    });
    expect(response.statusCode, response.body).toBe(201);
    const made = response.json<Slo[]>();
    // acme (100 requests) and globex (5), busiest first; initech (3) is not among the top 2.
    expect(made.map((slo) => [slo.name, slo.scope.consumer])).toEqual([
      ["Checkout · acme", "acme"],
      ["Checkout · globex", "globex"],
    ]);
    expect(await status(made[1] as Slo)).toMatchObject({ requests: 5, bad: 0, attainment: 100 });
  });
});
