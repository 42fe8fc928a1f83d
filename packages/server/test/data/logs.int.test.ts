// GET /projects/{slug}/data/logs over records ingested through the real route: fields with
// attributes as an object, level aliases (never a silent INFO), the literal case-insensitive
// search over message, logger and attribute keys and values, loggers, trace correlation, paging.
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

interface Page {
  items: Array<{ message: string; [field: string]: unknown }>;
  total_count: number;
  page: number;
  page_size: number;
}

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

const dataset = () => [
  log(minutesBefore(1), {
    level: "warn",
    message: "Payment provider timed out",
    logger_name: "app.payments",
    payload: '{"attempt":3}',
    attributes: { order_id: "o-17", attempt: 3, retry: false },
    trace_id: TRACE.toUpperCase(),
    span_id: "00f067aa0ba902b7",
    endpoint_method: "post",
    endpoint_path: "/orders/17/pay",
  }),
  log(minutesBefore(2), {
    level: "fatal",
    message: "disk full",
    logger_name: "app.Storage",
    environment: " Staging ",
  }),
  log(minutesBefore(3), { level: "error", message: "50% off coupon failed", logger_name: "app.coupons" }),
  log(minutesBefore(4), {
    level: "INFO",
    message: "500 off applied",
    logger_name: "app.coupons",
    attributes: { Customer_Tier: "Gold" },
  }),
  log(minutesBefore(5), { level: "trace", message: "cache miss", logger_name: "app.cache", trace_id: TRACE }),
  log(minutesBefore(6), {
    level: "debug",
    message: "warming",
    payload: "timed out, but only in the payload",
  }),
  log(minutesBefore(7), { level: "Info", message: "retrying", attributes: { note: "TIMED OUT again" } }),
  log(minutesBefore(8), { app_id: "billing", level: "critical", message: "billing down" }),
];

describe.each(eventsBackends())("log search on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const url = (params: Record<string, string | number | undefined> = {}) =>
    `/api/v1/projects/shop/data/logs${qs(params)}`;
  const search = async (params: Record<string, string | number | undefined> = {}): Promise<Page> => {
    const response = await fx.owner.get(url(params));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };
  const messages = async (params: Record<string, string | number | undefined>) =>
    (await search(params)).items.map((item) => item.message);

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "logs", dataset(), fx.key);
    await ingest(
      fx.ctx,
      "logs",
      [log(minutesBefore(1), { message: "Payment provider timed out", trace_id: TRACE, level: "warn" })],
      fx.elsewhere.key,
    );
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("returns spec 2.9 fields with attributes as an object, newest first, page 1 of 50", async () => {
    const page = await search();
    expect({ total: page.total_count, page: page.page, page_size: page.page_size }).toEqual({
      total: 8,
      page: 1,
      page_size: 50,
    });
    expect(page.items[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      timestamp: minutesBefore(1).toISOString(),
      app_id: fx.checkout.id,
      environment: "production",
      level: "WARNING",
      message: "Payment provider timed out",
      logger_name: "app.payments",
      payload: '{"attempt":3}',
      attributes: { order_id: "o-17", attempt: "3", retry: "false" },
      trace_id: TRACE,
      span_id: "00f067aa0ba902b7",
      // The request it was logged in, as the SDK sent it (method upper-cased at ingest).
      endpoint_method: "POST",
      endpoint_path: "/orders/17/pay",
    });
    expect(page.items.map((item) => item.message)).toEqual(dataset().map((record) => record.message));
  });

  it("accepts the ingest level aliases in any case and never reads an unknown level as INFO", async () => {
    expect(await messages({ levels: "warn" })).toEqual(["Payment provider timed out"]);
    expect(await messages({ levels: "FATAL" })).toEqual(["disk full", "billing down"]);
    expect(await messages({ levels: "Trace" })).toEqual(["cache miss", "warming"]);
    expect(await messages({ levels: "info, warning" })).toEqual([
      "Payment provider timed out",
      "500 off applied",
      "retrying",
    ]);
    const problem = expectProblem(await fx.owner.get(url({ levels: "error,verbose" })), "validation_error");
    expect(problem.errors).toEqual([
      {
        pointer: "#/query/levels",
        message: '"verbose" is not a level (DEBUG, INFO, WARNING, ERROR, CRITICAL, TRACE, WARN, FATAL)',
      },
    ]);
  });

  it("searches message, logger name, attribute keys and values, case-insensitively, but not payloads", async () => {
    expect(await messages({ search: "TIMED out" })).toEqual(["Payment provider timed out", "retrying"]);
    expect(await messages({ search: "APP.PAY" })).toEqual(["Payment provider timed out"]);
    expect(await messages({ search: "customer_tier" })).toEqual(["500 off applied"]);
    expect(await messages({ search: "gold" })).toEqual(["500 off applied"]);
    expect(await messages({ search: "o-17" })).toEqual(["Payment provider timed out"]);
    expect((await search({ search: "   " })).total_count).toBe(8);
  });

  it("treats % and _ in search as themselves", async () => {
    expect(await messages({ search: "50%" })).toEqual(["50% off coupon failed"]);
    expect(await messages({ search: "r_t" })).toEqual(["500 off applied"]);
    expect(await messages({ search: "%" })).toEqual(["50% off coupon failed"]);
    expect(await messages({ search: "_" })).toEqual(["Payment provider timed out", "500 off applied"]);
  });

  it("filters loggers exactly and case-sensitively", async () => {
    expect(await messages({ loggers: "app.coupons" })).toEqual(["50% off coupon failed", "500 off applied"]);
    expect(await messages({ loggers: "APP.COUPONS" })).toEqual([]);
    expect(await messages({ loggers: "app.coupons,app.cache" })).toEqual([
      "50% off coupon failed",
      "500 off applied",
      "cache miss",
    ]);
  });

  it("lists the logs of one trace, whatever the case of the id, and only this project's", async () => {
    expect(await messages({ trace_id: TRACE.toUpperCase() })).toEqual([
      "Payment provider timed out",
      "cache miss",
    ]);
    const problem = expectProblem(await fx.owner.get(url({ trace_id: "not-a-trace" })), "validation_error");
    expect(problem.errors).toEqual([
      { pointer: "#/query/trace_id", message: "must be 32 hexadecimal digits" },
    ]);
  });

  it("narrows by app, normalised environment and inclusive time bounds", async () => {
    expect(await messages({ app_slugs: "billing" })).toEqual(["billing down"]);
    expect(await messages({ environment: "STAGING" })).toEqual(["disk full"]);
    expect(
      await messages({ since: minutesBefore(4).toISOString(), until: minutesBefore(2).toISOString() }),
    ).toEqual(["disk full", "50% off coupon failed", "500 off applied"]);
    expectProblem(await fx.owner.get(url({ app_slugs: "ghost" })), "validation_error");
    expectProblem(await fx.owner.get(url({ since: "last week" })), "validation_error");
  });

  it("pages stably and serves page_size above 200 as 200", async () => {
    const second = await search({ page_size: 3, page: 2 });
    expect(second.items.map((item) => item.message)).toEqual(["500 off applied", "cache miss", "warming"]);
    expect(second.total_count).toBe(8);
    const capped = await search({ page_size: 900 });
    expect({ size: capped.page_size, items: capped.items.length }).toEqual({ size: 200, items: 8 });
    expect(await search({ page: 4, page_size: 3 })).toEqual({
      items: [],
      total_count: 8,
      page: 4,
      page_size: 3,
      retention: { days: 3650, beyond: false },
    });
    const problem = expectProblem(await fx.owner.get(url({ page: 0 })), "validation_error");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "#/query/page" })]);
  });
});
