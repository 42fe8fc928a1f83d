// GET /metrics on the real app and stores: the token guards it (404 unset, 401 missing or wrong),
// and each series moves by what was done — records accepted and rejected by kind and reason,
// inserts per table, query times by class, answers under their route pattern only, 429 and 503
// answers, alert evaluation lag and duration, the notification outbox's depth and failed sends.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlertsFixture, type AlertsFixture, created } from "../alerts/helpers.js";
import type { IngestIdempotencyTable } from "../../src/stores/metadata/repos/ingest-idempotency.repo.js";
import { createTestContext } from "../support/app.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { log, request } from "../support/query-fixture.js";

const TOKEN = "metrics-token-0123456789";
const MINUTE = 60_000;

/** One scrape: every sample by name and label set. */
class Scrape {
  private readonly samples = new Map<string, number>();

  constructor(readonly text: string) {
    for (const line of text.split("\n")) {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
      if (match === null) continue;
      const labels = [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [
        k as string,
        v as string,
      ]);
      this.samples.set(Scrape.key(match[1] as string, Object.fromEntries(labels)), Number(match[3]));
    }
  }

  /** The sample's value; 0 when the series is absent (a counter never incremented). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples.get(Scrape.key(name, labels)) ?? 0;
  }

  has(name: string, labels: Record<string, string> = {}): boolean {
    return this.samples.has(Scrape.key(name, labels));
  }

  private static key(name: string, labels: Record<string, string>): string {
    const sorted = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
    return `${name}{${sorted.map(([k, v]) => `${k}=${v}`).join(",")}}`;
  }
}

describe("GET /metrics without METRICS_TOKEN", () => {
  it("answers 404 problem+json, not the dashboard", async () => {
    const ctx = await createTestContext();
    try {
      const response = await ctx.app.inject({ method: "GET", url: "/metrics" });
      expectProblem(response, "not_found");
    } finally {
      await ctx.close();
    }
  });
});

describe.each(metadataBackends())("metrics on $name", (backend: MetadataBackend) => {
  let fx: AlertsFixture;
  const P = "/api/v1/projects/shop";

  beforeAll(async () => {
    fx = await createAlertsFixture(backend, { METRICS_TOKEN: TOKEN, INGEST_MAX_BATCH: "5" });
  });
  afterAll(async () => {
    await fx?.close();
  });

  const scrape = async (): Promise<Scrape> => {
    const response = await fx.ctx.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    return new Scrape(response.body);
  };
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    fx.ctx.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json", "x-api-key": fx.key, ...headers },
      payload: JSON.stringify(payload),
    });
  const records = (count: number) =>
    Array.from({ length: count }, () => request(new Date(fx.clock.now().getTime() - 30_000)));

  it("refuses a missing or wrong token with 401 problem+json", async () => {
    const missing = await fx.ctx.app.inject({ method: "GET", url: "/metrics" });
    expectProblem(missing, "authentication_error");
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer /);
    const wrong = await fx.ctx.app.inject({
      method: "GET",
      url: "/metrics",
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expectProblem(wrong, "authentication_error");
    expect(wrong.body).not.toContain("sightline_");
  });

  it("exposes the process's memory, CPU and event-loop lag", async () => {
    const metrics = await scrape();
    expect(metrics.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(metrics.has("nodejs_eventloop_lag_p99_seconds")).toBe(true);
    expect(metrics.has("process_cpu_seconds_total")).toBe(true);
  });

  it("counts ingested records by kind and reason, and each insert's rows per table", async () => {
    const before = await scrape();
    const batch = [...records(2), request(fx.clock.now(), { status_code: "teapot" })];
    const partial = await post("/api/v1/ingest/requests", { requests: batch });
    expect(partial.json()).toMatchObject({ accepted: 2, rejected: 1 });
    const tooLarge = await post("/api/v1/ingest/requests", { requests: records(6) });
    expect(tooLarge.statusCode).toBe(413);
    const logs = await post("/api/v1/ingest/logs", { logs: [log(fx.clock.now())] });
    expect(logs.statusCode, logs.body).toBe(200);
    // A replay stores nothing: it counts nothing.
    for (let i = 0; i < 2; i++) {
      const keyed = await post(
        "/api/v1/ingest/requests",
        { requests: records(3) },
        { "idempotency-key": "k-1" },
      );
      expect(keyed.statusCode, keyed.body).toBe(200);
    }

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      after.value(name, labels) - before.value(name, labels);
    expect(moved("sightline_ingest_records_accepted_total", { kind: "requests" })).toBe(5);
    expect(moved("sightline_ingest_records_accepted_total", { kind: "logs" })).toBe(1);
    expect(moved("sightline_ingest_records_rejected_total", { kind: "requests", reason: "invalid" })).toBe(1);
    // A body over a cap is refused before its records are read (ADR 0016): it shows as a 413
    // answer (below), not as records.
    expect(moved("sightline_ingest_records_rejected_total", { kind: "requests", reason: "too_large" })).toBe(
      0,
    );
    const inserts = { table: "api_requests", outcome: "ok" };
    expect(moved("sightline_events_insert_rows_count", inserts)).toBe(2);
    expect(moved("sightline_events_insert_rows_sum", inserts)).toBe(5);
    expect(moved("sightline_events_insert_duration_seconds_count", inserts)).toBe(2);
    expect(moved("sightline_events_insert_rows_sum", { table: "api_logs", outcome: "ok" })).toBe(1);
    for (const table of ["api_requests", "api_logs", "api_spans"]) {
      expect(after.has("sightline_ingest_pending_rows", { table })).toBe(true);
      expect(after.value("sightline_ingest_pending_rows", { table })).toBe(0);
    }
    const route = "/api/v1/ingest/requests";
    expect(moved("sightline_http_requests_total", { route, method: "POST", status: "200" })).toBe(3);
    expect(moved("sightline_http_requests_total", { route, method: "POST", status: "413" })).toBe(1);
    expect(
      moved("sightline_http_request_duration_seconds_count", { route, method: "POST", status: "413" }),
    ).toBe(1);
  });

  it("times the probe settling an interrupted Idempotency-Key attempt under the ingest class", async () => {
    const url = "/api/v1/ingest/requests";
    const body = { requests: records(2) };
    const first = await post(url, body, { "idempotency-key": "k-probe" });
    expect(first.statusCode, first.body).toBe(200);
    // What a process killed between its insert and recording the answer leaves behind.
    await fx.ctx.deps.metadata.db
      .withTables<{ ingest_idempotency_keys: IngestIdempotencyTable }>()
      .updateTable("ingest_idempotency_keys")
      .set({ state: "pending", owner: "a-process-that-died" })
      .where("idempotency_key", "=", "k-probe")
      .execute();
    const before = await scrape();
    const again = await post(url, body, { "idempotency-key": "k-probe" });
    expect(again.headers["idempotent-replayed"]).toBe("true");

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(moved("sightline_events_query_duration_seconds_count", { class: "ingest", outcome: "ok" })).toBe(
      1,
    );
    expect(moved("sightline_ingest_records_accepted_total", { kind: "requests" })).toBe(0);
  });

  it("times dashboard reads under their class, and labels answers by route pattern only", async () => {
    const before = await scrape();
    const list = await fx.owner.get(`${P}/data/requests`);
    expect(list.statusCode, list.body).toBe(200);
    const stranger = `p-${randomBytes(8).toString("hex")}`;
    const unknown = await fx.owner.get(`/api/v1/projects/${stranger}/data/requests`);
    expect(unknown.statusCode).toBe(404);
    const nowhere = await fx.owner.get(`/api/v1/${stranger}`);
    expect(nowhere.statusCode).toBe(404);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    const dashboard = { class: "dashboard", outcome: "ok" };
    expect(moved("sightline_events_query_duration_seconds_count", dashboard)).toBeGreaterThan(0);
    expect(moved("sightline_events_query_duration_seconds_count", { class: "alerts", outcome: "ok" })).toBe(
      0,
    );
    const route = "/api/v1/projects/:project_slug/data/requests";
    expect(moved("sightline_http_requests_total", { route, method: "GET", status: "200" })).toBe(1);
    expect(moved("sightline_http_requests_total", { route, method: "GET", status: "404" })).toBe(1);
    expect(
      moved("sightline_http_requests_total", { route: "(unmatched)", method: "GET", status: "404" }),
    ).toBe(1);
    expect(after.text).not.toContain(stranger);
  });

  it("counts 429 answers by route", async () => {
    const before = await scrape();
    const ask = () =>
      fx.ctx.app.inject({
        method: "POST",
        url: "/api/v1/auth/magic-link",
        payload: { email: "limited@shop.test" },
      });
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200);
    expectProblem(await ask(), "rate_limited");
    await fx.ctx.deps.mail.flush();

    const after = await scrape();
    const labels = { route: "/api/v1/auth/magic-link", status: "429" };
    expect(
      after.value("sightline_http_refused_total", labels) -
        before.value("sightline_http_refused_total", labels),
    ).toBe(1);
  });

  it("reports evaluation lag and duration, the outbox's depth and failed sends", async () => {
    const idle = await scrape();
    expect(idle.value("sightline_alert_evaluation_lag_seconds")).toBe(0);
    const hook = await created(fx.owner, `${P}/notification-channels`, {
      name: "metrics hook",
      type: "webhook",
      url: `${fx.receiver.url}/hooks/metrics`,
    });
    await created(fx.owner, `${P}/alerts`, {
      name: "Any traffic",
      scope: { app: "checkout" },
      metric: "request_count",
      comparator: "gt",
      threshold: 0,
      window_seconds: 60,
      for_evaluations: 1,
      channel_ids: [hook.id],
    });
    fx.clock.advance(MINUTE);
    await fx.send(3, { app_id: "checkout" });
    fx.receiver.failNext(1, "/hooks/metrics");
    const before = await scrape();

    await fx.ctx.deps.alerts.scheduler.tick();
    await fx.ctx.deps.alerts.deliveries.runDue();
    const failed = await scrape();
    const attempts = (outcome: string) => ({ channel_type: "webhook", outcome });
    expect(
      failed.value("sightline_alert_evaluation_duration_seconds_count") -
        before.value("sightline_alert_evaluation_duration_seconds_count"),
    ).toBe(1);
    expect(failed.value("sightline_alert_evaluation_lag_seconds")).toBe(0);
    expect(
      failed.value("sightline_alert_delivery_attempts_total", attempts("retrying")) -
        before.value("sightline_alert_delivery_attempts_total", attempts("retrying")),
    ).toBe(1);
    expect(failed.value("sightline_alert_delivery_queue_depth", { state: "due" })).toBe(0);
    expect(failed.value("sightline_alert_delivery_queue_depth", { state: "waiting" })).toBe(1);
    expect(
      failed.value("sightline_events_query_duration_seconds_count", { class: "alerts", outcome: "ok" }) -
        before.value("sightline_events_query_duration_seconds_count", { class: "alerts", outcome: "ok" }),
    ).toBeGreaterThan(0);

    // Past the first retry's pause (30 s), with no evaluation since.
    fx.clock.advance(31_000);
    const late = await scrape();
    expect(late.value("sightline_alert_evaluation_lag_seconds")).toBe(31);
    expect(late.value("sightline_alert_delivery_queue_depth", { state: "due" })).toBe(1);
    expect(late.value("sightline_alert_delivery_queue_depth", { state: "waiting" })).toBe(0);

    await fx.ctx.deps.alerts.deliveries.runDue();
    const delivered = await scrape();
    expect(
      delivered.value("sightline_alert_delivery_attempts_total", attempts("delivered")) -
        late.value("sightline_alert_delivery_attempts_total", attempts("delivered")),
    ).toBe(1);
    expect(delivered.value("sightline_alert_delivery_queue_depth", { state: "due" })).toBe(0);
  });

  // Last: it closes the events store.
  it("counts 503 answers and the records they refused when the events store is down", async () => {
    const before = await scrape();
    await fx.ctx.deps.events.close();
    const refused = await post("/api/v1/ingest/requests", { requests: records(4) });
    expectProblem(refused, "service_unavailable");

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(
      moved("sightline_ingest_records_rejected_total", { kind: "requests", reason: "unavailable" }),
    ).toBe(4);
    expect(moved("sightline_http_refused_total", { route: "/api/v1/ingest/requests", status: "503" })).toBe(
      1,
    );
    expect(moved("sightline_events_insert_rows_sum", { table: "api_requests", outcome: "error" })).toBe(4);
  });
});
