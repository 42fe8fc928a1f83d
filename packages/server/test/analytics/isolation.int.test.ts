// Tenant isolation and injection safety of the data and analytics routes: crafted filters never
// reach another project's records; hostile text in every string parameter is data (no match, or a
// 422), never SQL; and an unavailable events store answers 503 rather than an empty 200. That
// every route answers a non-member 404 is shown, route by route from the route table, by
// test/access/role-matrix.int.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
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

const ATTACKS = [
  "' OR '1'='1",
  "%' OR 1=1 --",
  "x'); DROP TABLE api_requests; --",
  "{p0:String}",
  "\\' OR 1=1 --",
  "production' UNION SELECT * FROM system.tables --",
];

/** Every events backend on SQLite, and chDB on every metadata backend (PostgreSQL when set). */
const backends: Array<[string, EventsBackend, MetadataBackend]> = [
  ...eventsBackends().map((events): [string, EventsBackend, MetadataBackend] => [
    `${events.name} + sqlite`,
    events,
    { name: "sqlite" },
  ]),
  ...metadataBackends()
    .filter((metadata) => metadata.name !== "sqlite")
    .map((metadata): [string, EventsBackend, MetadataBackend] => [
      `chdb + ${metadata.name}`,
      eventsBackends()[0] as EventsBackend,
      metadata,
    ]),
];

describe.each(backends)("query isolation and injection on %s", (_name, backend, metadata) => {
  let fx: QueryFixture;
  let ownRecordId: string;
  let ownCount: number;

  const ok = async <T>(url: string): Promise<T> => {
    const response = await fx.owner.get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json<T>();
  };

  beforeAll(async () => {
    fx = await createQueryFixture(backend, metadata);
    await ingest(fx.ctx, "requests", [...checkoutRecords(), ...billingRecords()], fx.key);
    await ingest(fx.ctx, "logs", [log(minutesBefore(2), { message: "ours" })], fx.key);
    await ingest(fx.ctx, "requests", strangerRecords(), fx.elsewhere.key);
    await ingest(
      fx.ctx,
      "logs",
      [log(minutesBefore(2), { message: "theirs", environment: "secret-env" })],
      fx.elsewhere.key,
    );
    const page = await ok<{ items: Array<{ id: string }>; total_count: number }>(
      "/api/v1/projects/shop/data/requests",
    );
    ownRecordId = page.items[0]?.id as string;
    ownCount = page.total_count;
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("shows each user only their own records under the same app slug", async () => {
    const theirs = (await fx.stranger.get("/api/v1/apps/checkout/analytics/summary")).json<
      Record<string, number>
    >();
    const ours = await ok<Record<string, number>>("/api/v1/apps/checkout/analytics/summary");
    expect([theirs.total_requests, ours.total_requests]).toEqual([5, 7]);
    expect(ours.p99_response_time_ms).toBeLessThan(9999);
    const consumers = await ok<Array<{ consumer: string }>>("/api/v1/apps/checkout/consumers");
    expect(consumers.map((consumer) => consumer.consumer)).not.toContain("Stranger");
    const payloads = await ok<Array<{ request_payload: string }>>(
      `/api/v1/apps/checkout/analytics/endpoint-payloads?method=GET&path=${encodeURIComponent("/users/{id}")}`,
    );
    expect(payloads).toEqual([]);
  });

  it("never reaches another project's records with crafted filters", async () => {
    const everything = await ok<{ total_count: number }>(
      `/api/v1/projects/shop/data/requests${qs({ path_filter: "*" })}`,
    );
    expect(everything.total_count).toBe(ownCount);
    const secret = await ok<{ total_count: number }>(
      `/api/v1/projects/shop/data/requests${qs({ environment: "secret-env" })}`,
    );
    expect(secret.total_count).toBe(0);
    expect(await ok("/api/v1/projects/shop/analytics/environments")).toEqual({
      environments: ["production", "staging"],
    });
    const logs = await ok<{ items: Array<{ message: string }> }>(
      `/api/v1/projects/shop/data/logs${qs({ search: "theirs" })}`,
    );
    expect(logs.items).toEqual([]);
    // Their app's UUID is not a slug of ours; their project is not ours to name.
    expectProblem(
      await fx.owner.get(`/api/v1/projects/shop/data/requests${qs({ app_slugs: fx.elsewhere.app.id })}`),
      "validation_error",
    );
    expectProblem(
      await fx.owner.get("/api/v1/apps/checkout/analytics/summary?project=elsewhere"),
      "not_found",
    );
    expectProblem(await fx.owner.get("/api/v1/projects/elsewhere/data/requests"), "not_found");
  });

  it("treats hostile text in every free-text parameter as data", async () => {
    for (const attack of ATTACKS) {
      const none = async (url: string, count: (body: never) => number) => {
        const body = await ok<never>(url);
        expect({ url, matched: count(body) }).toEqual({ url, matched: 0 });
      };
      const total = (body: { total_count: number }) => body.total_count;
      const length = (body: unknown[]) => body.length;
      const requests = (params: Record<string, string>) => `/api/v1/projects/shop/data/requests${qs(params)}`;
      const logs = (params: Record<string, string>) => `/api/v1/projects/shop/data/logs${qs(params)}`;
      await none(requests({ path_filter: attack }), total);
      await none(requests({ methods: attack }), total);
      await none(requests({ environment: attack }), total);
      await none(logs({ search: attack }), total);
      await none(logs({ loggers: attack }), total);
      await none(logs({ environment: attack }), total);
      await none(`/api/v1/projects/shop/analytics/endpoints${qs({ q: attack })}`, total);
      await none(`/api/v1/projects/shop/analytics/consumers${qs({ environment: attack })}`, total);
      await none(`/api/v1/projects/shop/analytics/consumers${qs({ q: attack })}`, total);
      await none(requests({ consumer: attack }), total);
      await none(requests({ route: attack }), total);
      await none(`/api/v1/projects/shop/analytics/endpoints${qs({ consumer: attack })}`, total);
      await none(`/api/v1/projects/shop/analytics/errors${qs({ q: attack, consumer: attack })}`, total);
      await none(
        `/api/v1/apps/checkout/endpoint-stats${qs({ q: attack, paths: attack, methods: attack })}`,
        total,
      );
      await none(`/api/v1/apps/checkout/endpoint-stats${qs({ endpoint: `GET /${attack}` })}`, total);
      await none(`/api/v1/apps/checkout/endpoint-options${qs({ q: attack })}`, length);
      await none(`/api/v1/apps/checkout/consumers${qs({ environment: attack })}`, length);
      await none(`/api/v1/apps/checkout/analytics/related-apis${qs({ environment: attack })}`, length);
      const detail = await ok<{ total_requests: number }>(
        `/api/v1/apps/checkout/analytics/endpoint-detail${qs({ method: attack.slice(0, 16), path: attack })}`,
      );
      expect(detail.total_requests).toBe(0);
      const summary = await ok<{ total_requests: number }>(
        `/api/v1/projects/shop/analytics/summary${qs({ environment: attack })}`,
      );
      expect(summary.total_requests).toBe(0);
      const consumerSummary = await ok<{ total_requests: number }>(
        `/api/v1/projects/shop/analytics/summary${qs({ consumer: attack })}`,
      );
      expect(consumerSummary.total_requests).toBe(0);
      // Parameters with a grammar refuse the text instead, naming the parameter.
      for (const [url, name] of [
        [requests({ app_slugs: attack }), "app_slugs"],
        [requests({ status_codes: attack }), "status_codes"],
        [requests({ since: attack }), "since"],
        [logs({ levels: attack }), "levels"],
        [logs({ trace_id: attack }), "trace_id"],
        [requests({ trace_id: attack }), "trace_id"],
        [requests({ status_classes: attack }), "status_classes"],
        [`/api/v1/projects/shop/analytics/errors${qs({ status_codes: attack })}`, "status_codes"],
        [`/api/v1/projects/shop/analytics/timeseries${qs({ timezone: attack })}`, "timezone"],
        [`/api/v1/apps/checkout/endpoint-stats${qs({ status_classes: attack })}`, "status_classes"],
      ] as const) {
        const problem = expectProblem(await fx.owner.get(url), "validation_error");
        expect((problem.errors as Array<{ pointer: string }>).map((error) => error.pointer)).toContain(
          `#/query/${name}`,
        );
      }
      expectProblem(
        await fx.owner.get(`/api/v1/apps/checkout/analytics/summary${qs({ project: attack })}`),
        "not_found",
      );
    }
    // Nothing was dropped or changed.
    expect((await ok<{ total_count: number }>("/api/v1/projects/shop/data/requests")).total_count).toBe(
      ownCount,
    );
  });

  it("answers 503 on analytics routes when the events store is down", async () => {
    await fx.ctx.deps.events.close();
    for (const url of [
      "/api/v1/projects/shop/analytics/summary?consumer=c1",
      "/api/v1/projects/shop/analytics/environments",
      "/api/v1/projects/shop/analytics/consumers?q=acme",
      "/api/v1/projects/shop/analytics/errors",
      "/api/v1/projects/shop/analytics/endpoints?consumer=c1",
      "/api/v1/projects/shop/data/requests?consumer=c1&status_classes=4xx",
      "/api/v1/projects/shop/data/logs",
      `/api/v1/projects/shop/data/requests/${ownRecordId}`,
      "/api/v1/apps/checkout/endpoint-stats",
      "/api/v1/apps/checkout/analytics/timeseries",
    ]) {
      expectProblem(await fx.owner.get(url), "service_unavailable");
    }
  });
});
