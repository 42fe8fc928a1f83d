// The trace routes over real ingest on every events backend: the span tree with depths and
// offsets, the requests and logs that share the trace id, recent traces with their root, service,
// duration, span count and error flag (the detail's over the whole trace even when its tree is
// cut, and from its requests and logs when it has no spans), every filter, stable paging, tenant isolation, 404/422,
// and 503 (never an empty answer) when the events store is down.
import { TRACE_LIMITS } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  log,
  minutesBefore,
  qs,
  type QueryFixture,
  request,
} from "../support/query-fixture.js";

const CHECKOUT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SLOW_TRACE = "5b8efff798038103d269b633813fc60c";
const BILLING_TRACE = "0af7651916cd43dd8448eb211c80319c";

/** A span of the APILens SDK's shape starting at `at` plus `offsetMs`. */
function span(at: Date, offsetMs: number, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: new Date(at.getTime() + offsetMs).toISOString(),
    environment: "production",
    kind: "internal",
    service_name: "checkout-api",
    status: "ok",
    status_code: 0,
    ...fields,
  };
}

interface Summary {
  trace_id: string;
  started_at: string;
  duration_ms: number;
  span_count: number;
  error: boolean;
  root: {
    span_id: string;
    name: string;
    kind: string;
    service_name: string;
    app_id: string;
    environment: string;
  };
}
interface SummaryPage {
  items: Summary[];
  total_count: number;
  page: number;
  page_size: number;
}

describe.each(eventsBackends())("trace routes on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const t0 = minutesBefore(30);
  const list = async (params: Record<string, string | number | undefined> = {}) => {
    const response = await fx.owner.get(`/api/v1/projects/shop/data/traces${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SummaryPage>();
  };

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    const root = "b7ad6b7169203331";
    await ingest(
      fx.ctx,
      "traces",
      [
        // Child first in the batch: the tree comes from the ids, not the order of arrival.
        span(t0, 5, {
          trace_id: CHECKOUT_TRACE,
          span_id: "00f067aa0ba902b7",
          parent_span_id: root,
          name: "load order",
          kind: "db",
          duration_ms: 20,
        }),
        span(t0, 0, {
          trace_id: CHECKOUT_TRACE,
          span_id: root,
          parent_span_id: "",
          name: "GET /orders/{id}",
          kind: "server",
          duration_ms: 100,
          status_code: 200,
        }),
        span(t0, 30, {
          trace_id: CHECKOUT_TRACE,
          span_id: "1111111111111111",
          parent_span_id: root,
          name: "charge card",
          kind: "http",
          duration_ms: 60,
          status: "error",
          status_code: 502,
        }),
        span(t0, 35, {
          trace_id: CHECKOUT_TRACE,
          span_id: "2222222222222222",
          parent_span_id: "1111111111111111",
          name: "POST psp",
          duration_ms: 50,
        }),
        // A span whose parent never arrived: a root of its own, after the real one.
        span(t0, 40, {
          trace_id: CHECKOUT_TRACE,
          span_id: "3333333333333333",
          parent_span_id: "9999999999999999",
          name: "orphan",
          duration_ms: 1,
        }),
        span(minutesBefore(20), 0, {
          trace_id: SLOW_TRACE,
          span_id: "4444444444444444",
          name: "nightly export",
          duration_ms: 5000,
          environment: "staging",
        }),
        span(minutesBefore(10), 0, {
          app_id: "billing",
          service_name: "billing",
          trace_id: BILLING_TRACE,
          span_id: "5555555555555555",
          name: "GET /invoices",
          kind: "server",
          duration_ms: 7,
        }),
      ],
      fx.key,
    );
    await ingest(
      fx.ctx,
      "requests",
      [request(t0, { path: "/orders/42?x=1", trace_id: CHECKOUT_TRACE, span_id: root })],
      fx.key,
    );
    await ingest(
      fx.ctx,
      "logs",
      [
        log(new Date(t0.getTime() + 31), {
          message: "card declined",
          level: "ERROR",
          trace_id: CHECKOUT_TRACE,
        }),
        log(new Date(t0.getTime() + 50), { message: "unrelated" }),
      ],
      fx.key,
    );
    // The stranger's project has a span with the same trace id: never visible in "shop".
    await ingest(
      fx.ctx,
      "traces",
      [span(t0, 0, { trace_id: CHECKOUT_TRACE, span_id: "6666666666666666", name: "theirs" })],
      fx.elsewhere.key,
    );
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("returns one trace as a depth-first span tree with offsets, and its requests and logs", async () => {
    const response = await fx.owner.get(`/api/v1/projects/shop/data/traces/${CHECKOUT_TRACE.toUpperCase()}`);
    expect(response.statusCode, response.body).toBe(200);
    const trace = response.json<{
      trace_id: string;
      started_at: string;
      duration_ms: number;
      span_count: number;
      error: boolean;
      spans: Array<{ span_id: string; name: string; depth: number; offset_ms: number; status: string }>;
      requests: Array<{ path: string; query: string; span_id: string }>;
      logs: Array<{ message: string }>;
    }>();
    expect(trace).toMatchObject({
      trace_id: CHECKOUT_TRACE,
      started_at: t0.toISOString(),
      duration_ms: 100,
      span_count: 5,
      error: true,
    });
    expect(trace.spans.map(({ name, depth, offset_ms }) => [name, depth, offset_ms])).toEqual([
      ["GET /orders/{id}", 0, 0],
      ["load order", 1, 5],
      ["charge card", 1, 30],
      ["POST psp", 2, 35],
      ["orphan", 0, 40],
    ]);
    expect(trace.spans.every((s) => s.name !== "theirs")).toBe(true);
    expect(trace.requests).toEqual([
      expect.objectContaining({ path: "/orders/42", query: "x=1", span_id: "b7ad6b7169203331" }),
    ]);
    expect(trace.logs.map((entry) => entry.message)).toEqual(["card declined"]);
  });

  it("answers 404 for a trace id the project has nothing of, and 422 for a malformed one", async () => {
    expectProblem(await fx.owner.get(`/api/v1/projects/shop/data/traces/${"a".repeat(32)}`), "not_found");
    // Only the stranger's project has it: 404 in theirs is not ours, and ours hides theirs.
    const theirs = await fx.stranger.get(`/api/v1/projects/elsewhere/data/traces/${CHECKOUT_TRACE}`);
    expect(theirs.json<{ spans: Array<{ name: string }> }>().spans.map((s) => s.name)).toEqual(["theirs"]);
    expectProblem(await fx.stranger.get(`/api/v1/projects/shop/data/traces/${CHECKOUT_TRACE}`), "not_found");
    expectProblem(await fx.owner.get("/api/v1/projects/shop/data/traces/not-a-trace"), "validation_error");
  });

  it("lists recent traces with root, service, duration, span count and error flag, newest first", async () => {
    const page = await list();
    expect(page.total_count).toBe(3);
    expect(page.items.map((item) => item.trace_id)).toEqual([BILLING_TRACE, SLOW_TRACE, CHECKOUT_TRACE]);
    expect(page.items[2]).toEqual({
      trace_id: CHECKOUT_TRACE,
      started_at: t0.toISOString(),
      duration_ms: 100,
      span_count: 5,
      error: true,
      root: {
        span_id: "b7ad6b7169203331",
        name: "GET /orders/{id}",
        kind: "server",
        service_name: "checkout-api",
        app_id: fx.checkout.id,
        environment: "production",
      },
    });
    expect(page.items[0]).toMatchObject({ error: false, span_count: 1, root: { app_id: fx.billing.id } });
  });

  it("filters by app, environment, time and minimum duration, and pages without overlap", async () => {
    const ids = (page: SummaryPage) => page.items.map((item) => item.trace_id);
    expect(ids(await list({ app_slugs: "billing" }))).toEqual([BILLING_TRACE]);
    expect(ids(await list({ environment: "Staging" }))).toEqual([SLOW_TRACE]);
    expect(ids(await list({ min_duration: 100 }))).toEqual([SLOW_TRACE, CHECKOUT_TRACE]);
    expect(ids(await list({ min_duration: 101 }))).toEqual([SLOW_TRACE]);
    expect(ids(await list({ since: minutesBefore(25).toISOString() }))).toEqual([BILLING_TRACE, SLOW_TRACE]);
    expect(ids(await list({ until: minutesBefore(15).toISOString() }))).toEqual([SLOW_TRACE, CHECKOUT_TRACE]);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => list({ page_size: 1, page })));
    expect(pages.map(ids)).toEqual([[BILLING_TRACE], [SLOW_TRACE], [CHECKOUT_TRACE], []]);
    expect(pages.map((page) => page.total_count)).toEqual([3, 3, 3, 3]);
    const bad = expectProblem(
      await fx.owner.get(`/api/v1/projects/shop/data/traces${qs({ app_slugs: "nope", since: "soon" })}`),
      "validation_error",
    );
    expect((bad.errors as Array<{ pointer: string }>).map((error) => error.pointer).sort()).toEqual([
      "#/query/app_slugs",
      "#/query/since",
    ]);
  });

  it("figures a trace over all its spans when its tree is cut, and says so", async () => {
    const BIG_TRACE = "7c1e0f3a9b2d4e5f8a6b7c8d9e0f1a2b";
    const at = minutesBefore(40);
    const total = TRACE_LIMITS.spans + 1;
    // The last span to start is past the tree's cut: it alone errs and ends the trace.
    const spans = Array.from({ length: total }, (_, i) =>
      span(at, i, {
        trace_id: BIG_TRACE,
        span_id: (i + 1).toString(16).padStart(16, "0"),
        parent_span_id: i === 0 ? "" : "0000000000000001",
        name: `step ${i}`,
        duration_ms: i === 0 ? total - 1 : 1,
        ...(i === total - 1 ? { status: "error", duration_ms: 500 } : {}),
      }),
    );
    await ingest(fx.ctx, "traces", spans, fx.key);
    const listed = (await list({ until: minutesBefore(35).toISOString() })).items.find(
      (item) => item.trace_id === BIG_TRACE,
    );
    expect(listed).toMatchObject({ span_count: total, error: true, duration_ms: total - 1 + 500 });
    const response = await fx.owner.get(`/api/v1/projects/shop/data/traces/${BIG_TRACE}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<Summary & { truncated: boolean; spans: unknown[] }>();
    expect(detail).toMatchObject({
      span_count: total,
      error: true,
      duration_ms: total - 1 + 500,
      truncated: true,
      started_at: at.toISOString(),
    });
    expect(detail.spans).toHaveLength(TRACE_LIMITS.spans);
    const whole = await fx.owner.get(`/api/v1/projects/shop/data/traces/${CHECKOUT_TRACE}`);
    expect(whole.json()).toMatchObject({ span_count: 5, truncated: false });
  });

  it("figures a trace without spans from its requests and logs", async () => {
    const FAILED = "8d2c4e6f0a1b3c5d7e9f1a2b3c4d5e6f";
    const QUIET = "9e3d5f7a1b2c4d6e8f0a2b3c4d5e6f70";
    const at = minutesBefore(45);
    const later = (ms: number) => new Date(at.getTime() + ms);
    await ingest(
      fx.ctx,
      "requests",
      [
        request(at, { trace_id: FAILED, response_time_ms: 40 }),
        request(later(100), { trace_id: FAILED, status_code: 500, response_time_ms: 250 }),
        request(at, { trace_id: QUIET, response_time_ms: 12 }),
      ],
      fx.key,
    );
    await ingest(
      fx.ctx,
      "logs",
      [
        log(later(120), { trace_id: FAILED, level: "ERROR", message: "boom" }),
        log(later(5), { trace_id: QUIET, level: "WARNING", message: "slow cache" }),
      ],
      fx.key,
    );
    const failed = await fx.owner.get(`/api/v1/projects/shop/data/traces/${FAILED}`);
    expect(failed.statusCode, failed.body).toBe(200);
    expect(failed.json()).toMatchObject({
      span_count: 0,
      spans: [],
      truncated: false,
      error: true,
      // The first request's start to the second's end.
      duration_ms: 350,
      started_at: at.toISOString(),
    });
    const quiet = await fx.owner.get(`/api/v1/projects/shop/data/traces/${QUIET}`);
    expect(quiet.json()).toMatchObject({ span_count: 0, error: false, duration_ms: 12 });
    // A log alone: an ERROR fails the trace, starting at the log.
    const LOG_ONLY = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5";
    await ingest(fx.ctx, "logs", [log(at, { trace_id: LOG_ONLY, level: "CRITICAL" })], fx.key);
    const lone = await fx.owner.get(`/api/v1/projects/shop/data/traces/${LOG_ONLY}`);
    expect(lone.json()).toMatchObject({ error: true, duration_ms: 0, started_at: at.toISOString() });
  });

  it("answers 503, not an empty answer, when the events store is down", async () => {
    await fx.ctx.deps.events.close();
    for (const url of [
      "/api/v1/projects/shop/data/traces",
      `/api/v1/projects/shop/data/traces/${CHECKOUT_TRACE}`,
    ]) {
      const response = await fx.owner.get(url);
      expectProblem(response, "service_unavailable");
      expect(response.headers["retry-after"]).toBe("5");
    }
  });
});
