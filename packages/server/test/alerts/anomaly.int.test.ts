// Anomaly alert rules end to end, on chDB and the test ClickHouse server: four weeks of traffic
// ingested through the real route at the same time of week, the manual clock driving evaluator
// ticks, and the webhook arriving at a real HTTP receiver. A steady rule stays ok with the band
// the history implies; a spike fires after `for`; a scope with one week of history warms up and
// never fires; the band route gives the rule page's chart; threshold-only fields and anomaly-only
// fields are refused on the wrong kind.
import type { AlertBand, AlertEvent, AlertEventsPage, AlertRule } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import { ingest, request } from "../support/query-fixture.js";
import { type AlertsFixture, createAlertsFixture, created, T0 } from "./helpers.js";

const MINUTE = 60_000;
const WEEK = 7 * 86_400_000;
/** One request every 15 s: every 5-minute window, wherever it starts, holds exactly 20. */
const STEP_MS = 15_000;
const PER_WINDOW = 20;

/** Requests on the 15-second grid over [fromMs, toMs). */
function grid(app: string, fromMs: number, toMs: number): Array<Record<string, unknown>> {
  const records: Array<Record<string, unknown>> = [];
  for (let at = fromMs; at < toMs; at += STEP_MS) records.push(request(new Date(at), { app_id: app }));
  return records;
}

describe.each(eventsBackends())("anomaly alert rules on $name", (backend: EventsBackend) => {
  let fx: AlertsFixture;
  const P = "/api/v1/projects/shop";
  const T = T0.getTime();

  beforeAll(async () => {
    fx = await createAlertsFixture(
      { name: "sqlite" },
      backend.options.clickhouseUrl === undefined ? {} : { CLICKHOUSE_URL: backend.options.clickhouseUrl },
    );
    // Checkout: four past weeks and this week, 4 hours before to 10 minutes after T each week.
    // Billing: one past week only.
    const records = [
      ...[1, 2, 3, 4].flatMap((k) =>
        grid("checkout", T - k * WEEK - 4 * 60 * MINUTE, T - k * WEEK + 10 * MINUTE),
      ),
      ...grid("checkout", T - 4 * 60 * MINUTE, T),
      ...grid("billing", T - WEEK - 4 * 60 * MINUTE, T - WEEK + 10 * MINUTE),
      ...grid("billing", T - 4 * 60 * MINUTE, T),
    ];
    await ingest(fx.ctx, "requests", records, fx.key);
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
  });

  const rule = (body: Record<string, unknown>) => created<AlertRule>(fx.owner, `${P}/alerts`, body);
  const stateOf = async (id: string) => (await fx.owner.get(`${P}/alerts/${id}`)).json<AlertRule>();

  it("stays ok on usual traffic, fires on a spike after `for`, and notifies the webhook", async () => {
    const hook = await created<{ id: string }>(fx.owner, `${P}/notification-channels`, {
      name: "anomaly hook",
      type: "webhook",
      url: `${fx.receiver.url}/hooks/anomaly`,
    });
    const traffic = await rule({
      name: "Checkout traffic unusual",
      kind: "anomaly",
      scope: { app: "checkout" },
      metric: "request_count",
      window_seconds: 300,
      min_requests: 10,
      // Two evaluations in a row, to see the pending step (the default for anomaly rules is 1).
      for_evaluations: 2,
      channel_ids: [hook.id],
    });
    expect(traffic).toMatchObject({
      kind: "anomaly",
      comparator: null,
      threshold: null,
      sensitivity: "medium",
      direction: "both",
      for_evaluations: 2,
      last_band: null,
    });

    await fx.tick();
    const steady = await stateOf(traffic.id);
    // Every window of every week holds 20 requests: the baseline is exactly 20.
    expect(steady).toMatchObject({ state: "ok", last_value: PER_WINDOW });
    expect(steady.last_band).toMatchObject({ status: "normal", expected: PER_WINDOW, weeks_used: 4 });
    expect(steady.last_band?.upper).toBeGreaterThan(PER_WINDOW);

    fx.clock.advance(MINUTE);
    const spike = Array.from({ length: 200 }, () => request(new Date(T + 30_000), { app_id: "checkout" }));
    await ingest(fx.ctx, "requests", spike, fx.key);
    await fx.tick();
    const pending = await stateOf(traffic.id);
    expect(pending.state).toBe("pending");
    expect(pending.last_band?.status).toBe("above");
    expect(fx.receiver.on("/hooks/anomaly")).toHaveLength(0);

    fx.clock.advance(MINUTE);
    await fx.tick();
    const firing = await stateOf(traffic.id);
    expect(firing.state).toBe("firing");
    const calls = fx.receiver.on("/hooks/anomaly");
    expect(calls).toHaveLength(1);
    const payload = JSON.parse(calls[0]?.body ?? "{}") as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: "alert.firing",
      rule: { id: traffic.id, kind: "anomaly", metric: "request_count", comparator: null, threshold: null },
      value: firing.last_value,
      band: { expected: PER_WINDOW, upper: firing.last_band?.upper },
    });

    const events = (await fx.owner.get(`${P}/alerts/${traffic.id}/events`)).json<AlertEventsPage>().items;
    expect(events.map((event) => `${event.from_state}->${event.to_state}`)).toEqual([
      "pending->firing",
      "ok->pending",
    ]);
    const fired = events[0] as AlertEvent;
    expect(fired).toMatchObject({
      comparator: "gt",
      threshold: firing.last_band?.upper,
      expected: PER_WINDOW,
    });
    expect(fired.value).toBeGreaterThan(fired.upper as number);
  });

  it("warms up on a scope with one week of history: no band, no alert", async () => {
    const billing = await rule({
      name: "Billing traffic unusual",
      kind: "anomaly",
      scope: { app: "billing" },
      metric: "request_count",
      window_seconds: 300,
    });
    // The default minimum duration of anomaly rules: one evaluation (ADR 0020).
    expect(billing.for_evaluations).toBe(1);
    const spike = Array.from({ length: 500 }, () =>
      request(new Date(fx.clock.now().getTime() - 30_000), { app_id: "billing" }),
    );
    await ingest(fx.ctx, "requests", spike, fx.key);
    fx.clock.advance(MINUTE);
    await fx.tick();
    const state = await stateOf(billing.id);
    expect(state.state).toBe("ok");
    expect(state.last_band).toMatchObject({
      status: "warming_up",
      expected: null,
      upper: null,
      weeks_used: 1,
    });
  });

  it("gives the rule page its chart: value and band per window", async () => {
    const chart = await rule({
      name: "Checkout errors unusual",
      kind: "anomaly",
      scope: { app: "checkout" },
      metric: "request_count",
      window_seconds: 300,
    });
    const since = new Date(T - 60 * MINUTE).toISOString();
    const until = new Date(T).toISOString();
    const response = await fx.owner.get(`${P}/alerts/${chart.id}/band?since=${since}&until=${until}`);
    expect(response.statusCode, response.body).toBe(200);
    const band = response.json<AlertBand>();
    expect(band).toMatchObject({ rule_id: chart.id, metric: "request_count", window_seconds: 300 });
    expect(band.points).toHaveLength(12);
    expect(band.points[0]).toMatchObject({
      window_start: since,
      window_end: new Date(T - 55 * MINUTE).toISOString(),
    });
    expect(band.points[11]?.window_end).toBe(until);
    for (const point of band.points) {
      expect(point).toMatchObject({
        value: PER_WINDOW,
        request_count: PER_WINDOW,
        expected: PER_WINDOW,
        status: "normal",
      });
      expect(point.lower as number).toBeLessThan(PER_WINDOW);
      expect(point.upper as number).toBeGreaterThan(PER_WINDOW);
    }

    const tooLong = await fx.owner.get(
      `${P}/alerts/${chart.id}/band?since=${new Date(T - 8 * 24 * 60 * MINUTE).toISOString()}&until=${until}`,
    );
    expectProblem(tooLong, "validation_error");
    const backwards = await fx.owner.get(`${P}/alerts/${chart.id}/band?since=${until}&until=${since}`);
    expectProblem(backwards, "validation_error");
    const threshold = await rule({
      name: "Checkout slow",
      metric: "p95_latency_ms",
      comparator: "gt",
      threshold: 500,
      window_seconds: 300,
    });
    expect(threshold).toMatchObject({
      kind: "threshold",
      sensitivity: null,
      direction: null,
      last_band: null,
    });
    expectProblem(await fx.owner.get(`${P}/alerts/${threshold.id}/band`), "validation_error");
  });

  it("refuses the fields of the other kind, and what anomaly rules cannot watch", async () => {
    const base = { name: "x", scope: { app: "checkout" }, window_seconds: 300 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, kind: "anomaly", metric: "request_count", threshold: 5 }, "/threshold"],
      [{ ...base, kind: "anomaly", metric: "request_count", comparator: "gt" }, "/comparator"],
      [{ ...base, kind: "anomaly", metric: "status_count", status: "5xx" }, "/metric"],
      [{ ...base, kind: "anomaly", metric: "error_rate", window_seconds: 420 }, "/window_seconds"],
      [{ ...base, metric: "error_rate", threshold: 5 }, "/comparator"],
      [{ ...base, metric: "error_rate", comparator: "gt" }, "/threshold"],
      [
        { ...base, metric: "error_rate", comparator: "gt", threshold: 5, sensitivity: "high" },
        "/sensitivity",
      ],
    ];
    for (const [body, pointer] of cases) {
      const response = await fx.owner.post(`${P}/alerts`, body);
      expectProblem(response, "validation_error");
      expect(response.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer)).toContain(
        pointer,
      );
    }
    const anomaly = await rule({ ...base, kind: "anomaly", metric: "error_rate" });
    expect(anomaly).toMatchObject({ direction: "up", error_status_from: 500, min_requests: 20 });
    const patched = await fx.owner.patch(`${P}/alerts/${anomaly.id}`, {
      metric: "request_count",
      sensitivity: "low",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<AlertRule>()).toMatchObject({
      metric: "request_count",
      direction: "both",
      sensitivity: "low",
    });
    expectProblem(await fx.owner.patch(`${P}/alerts/${anomaly.id}`, { threshold: 3 }), "validation_error");
    expectProblem(
      await fx.owner.patch(`${P}/alerts/${anomaly.id}`, { kind: "threshold" }),
      "validation_error",
    );
  });
});
