// SLO burn-rate alerts end to end, on SQLite and PostgreSQL: records through the real ingest
// route, the manual clock driving the alert scheduler's ticks (the SLO pass runs under its lease),
// notifications arriving at a real HTTP receiver (webhook with its signature checked, Slack) and
// a real SMTP server. Fast burn fires, slows to a slow burn without notifying, and resolves;
// configured rates and windows are honoured; disabled alerting is not evaluated; the history
// shows every change with each notification's outcome.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Slo, SloEventsPage } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAlertsFixture, created, type AlertsFixture } from "../alerts/helpers.js";
import type { ReceivedRequest } from "../support/http-receiver.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";

const MINUTE = 60_000;

function verifySignature(request: ReceivedRequest, secret: string): boolean {
  const timestamp = String(request.headers["x-sightline-timestamp"]);
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest("hex")}`;
  const given = String(request.headers["x-sightline-signature"]);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe.each(metadataBackends())("SLO burn-rate alerts on $name", (backend: MetadataBackend) => {
  let fx: AlertsFixture;
  const P = "/api/v1/projects/shop";

  beforeAll(async () => {
    fx = await createAlertsFixture(backend);
  });
  afterAll(async () => {
    await fx?.close();
  });

  const slo = (body: Record<string, unknown>) => created<Slo>(fx.owner, `${P}/slos`, body);
  const stateOf = async (id: string) => (await fx.owner.get(`${P}/slos/${id}`)).json<Slo>().state;
  const history = async (id: string) => {
    const response = await fx.owner.get(`${P}/slos/${id}/events`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SloEventsPage>().items;
  };
  const body = (request: ReceivedRequest | undefined) =>
    JSON.parse(request?.body ?? "null") as Record<string, unknown>;

  it("fires on a fast burn, turns slow without notifying, and resolves when the short window recovers", async () => {
    const hook = await created<{ id: string; secret: string }>(fx.owner, `${P}/notification-channels`, {
      name: "slo hook",
      type: "webhook",
      url: `${fx.receiver.url}/hooks/slo`,
    });
    const slack = await created(fx.owner, `${P}/notification-channels`, {
      name: "slo slack",
      type: "slack",
      url: `${fx.receiver.url}/services/T000/B000/slo`,
    });
    const mail = await created(fx.owner, `${P}/notification-channels`, {
      name: "slo mail",
      type: "email",
      addresses: ["sre@shop.test"],
    });
    const available = await slo({
      name: "Checkout available",
      scope: { app: "checkout" },
      sli: { kind: "availability" },
      target: 99,
      window_days: 30,
      channel_ids: [hook.id, slack.id, mail.id],
    });
    // Alerting off: never evaluated, whatever burns.
    const silent = await slo({
      name: "Silent",
      scope: { app: "checkout" },
      sli: { kind: "availability" },
      target: 99,
      window_days: 30,
      alerting: { enabled: false },
      channel_ids: [hook.id],
    });

    await fx.tick();
    expect(await stateOf(available.id)).toBe("ok");

    // 20 failures of 100: 20% against 1% allowed, 20x over both the 1 h and the 5 min window.
    fx.clock.advance(MINUTE);
    await fx.send(80, { app_id: "checkout", status_code: 200 });
    await fx.send(20, { app_id: "checkout", status_code: 500 });
    await fx.tick();
    expect(await stateOf(available.id)).toBe("fast_burn");
    expect(await stateOf(silent.id)).toBe("ok");
    expect((await fx.owner.get(`${P}/slos/${silent.id}`)).json<Slo>().last_evaluated_at).toBeNull();

    const calls = fx.receiver.on("/hooks/slo");
    expect(calls).toHaveLength(1);
    expect(verifySignature(calls[0] as ReceivedRequest, hook.secret)).toBe(true);
    expect(calls[0]?.headers["x-sightline-event"]).toBe("slo.firing");
    expect(body(calls[0])).toMatchObject({
      type: "slo.firing",
      subject: "slo",
      kind: "firing",
      project: { slug: "shop", name: "Shop" },
      slo: { id: available.id, name: "Checkout available", sli: "availability", target: 99, window_days: 30 },
      from_state: "ok",
      to_state: "fast_burn",
      condition: { severity: "fast", burn_rate: 14.4, long_window_minutes: 60, short_window_minutes: 5 },
      burn_rates: { long: 20, short: 20 },
      links: { slo: `https://sightline.example.com/projects/shop/slos/${available.id}` },
    });
    const slackMessage = body(fx.receiver.on("/services/T000/B000/slo")[0]) as {
      text: string;
      blocks: Array<{ type: string; elements?: Array<{ url?: string }> }>;
    };
    expect(slackMessage.text).toContain("[FIRING] SLO Checkout available: fast burn");
    expect(slackMessage.blocks.find((block) => block.type === "actions")?.elements?.[0]?.url).toBe(
      `https://sightline.example.com/projects/shop/slos/${available.id}`,
    );
    const email = await fx.smtp.waitForMail("sre@shop.test");
    expect(email.raw).toMatch(/Subject: \[FIRING\] SLO Checkout available: fast burn/);

    // Ten minutes on: 10 of 100 fail now (10x over 5 min, below 14.4), 30 of 200 over the hour
    // and the last 30 minutes (15x): the fast condition stops holding, the slow one holds.
    fx.clock.advance(10 * MINUTE);
    await fx.send(90, { app_id: "checkout", status_code: 200 });
    await fx.send(10, { app_id: "checkout", status_code: 503 });
    await fx.tick();
    expect(await stateOf(available.id)).toBe("slow_burn");
    expect(fx.receiver.on("/hooks/slo")).toHaveLength(1);

    // 31 minutes on, only good requests in the last 30: the slow condition stops holding.
    fx.clock.advance(31 * MINUTE);
    await fx.send(1000, { app_id: "checkout", status_code: 200 });
    await fx.tick();
    expect(await stateOf(available.id)).toBe("ok");
    const resolved = fx.receiver.on("/hooks/slo");
    expect(resolved).toHaveLength(2);
    // 30 bad of 1200 over 6 h: 2.5%, 2.5x; none of the last 30 minutes' 1000.
    expect(body(resolved[1])).toMatchObject({
      type: "slo.resolved",
      from_state: "slow_burn",
      to_state: "ok",
      condition: { severity: "slow", burn_rate: 6, long_window_minutes: 360, short_window_minutes: 30 },
      burn_rates: { long: 2.5, short: 0 },
    });
    await fx.smtp.waitForMail("sre@shop.test", { after: 1 });

    const events = await history(available.id);
    expect(events.map((event) => `${event.from_state}->${event.to_state}`)).toEqual([
      "slow_burn->ok",
      "fast_burn->slow_burn",
      "ok->fast_burn",
    ]);
    expect(events[2]).toMatchObject({
      reason: "evaluation",
      long_burn_rate: 20,
      short_burn_rate: 20,
      threshold: 14.4,
    });
    expect(events[2]?.notifications.map((n) => `${n.type}:${n.status}`).sort()).toEqual([
      "email:delivered",
      "slack:delivered",
      "webhook:delivered",
    ]);
    expect(events[1]?.notifications).toEqual([]);
    expect(events[1]).toMatchObject({ long_burn_rate: 15, short_burn_rate: 15, threshold: 6 });
    expect(events[0]?.notifications).toHaveLength(3);
  });

  it("honours configured rates and windows, and an edit restarts a burning SLO from ok", async () => {
    const hook = await created<{ id: string; secret: string }>(fx.owner, `${P}/notification-channels`, {
      name: "billing hook",
      type: "webhook",
      url: `${fx.receiver.url}/hooks/billing`,
    });
    const billing = await slo({
      name: "Billing",
      scope: { app: "billing" },
      sli: { kind: "availability", also_bad: ["429"] },
      target: 90,
      window_days: 7,
      alerting: {
        fast: { burn_rate: 100, long_window_minutes: 60, short_window_minutes: 5 },
        slow: { burn_rate: 2, long_window_minutes: 20, short_window_minutes: 2 },
      },
      channel_ids: [hook.id],
    });
    // 3 throttled of 10: 30% against 10% allowed, 3x — not fast (100x), slow (above 2x).
    fx.clock.advance(MINUTE);
    await fx.send(7, { app_id: "billing", status_code: 200 });
    await fx.send(3, { app_id: "billing", status_code: 429 });
    await fx.tick();
    expect(await stateOf(billing.id)).toBe("slow_burn");
    expect(body(fx.receiver.on("/hooks/billing")[0])).toMatchObject({
      type: "slo.firing",
      condition: { severity: "slow", burn_rate: 2, long_window_minutes: 20, short_window_minutes: 2 },
      burn_rates: { long: 3, short: 3 },
    });

    // The target changes: the state starts again from ok, recorded without notifying.
    const changed = await fx.owner.patch(`${P}/slos/${billing.id}`, { target: 50 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Slo>().state).toBe("ok");
    const events = await history(billing.id);
    expect(events[0]).toMatchObject({ from_state: "slow_burn", to_state: "ok", reason: "slo_changed" });
    expect(events[0]?.notifications).toEqual([]);
    // 30% against 50% allowed burns at 0.6x: stays ok on the next pass.
    fx.clock.advance(MINUTE);
    await fx.tick();
    expect(await stateOf(billing.id)).toBe("ok");
    expect(fx.receiver.on("/hooks/billing")).toHaveLength(1);

    // Deleting it takes its history along.
    expect((await fx.owner.delete(`${P}/slos/${billing.id}`)).statusCode).toBe(200);
    expect((await fx.owner.get(`${P}/slos/${billing.id}/events`)).statusCode).toBe(404);
  });
});
