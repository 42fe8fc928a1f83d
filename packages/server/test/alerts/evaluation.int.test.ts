// Alert evaluation end to end, on SQLite and PostgreSQL: records ingested through the real route,
// a manual clock driving evaluator ticks, and notifications arriving at a real SMTP server and a
// real HTTP receiver (webhook with its signature checked, Slack Block Kit). Each metric fires,
// "for" holds a rule pending, rules resolve, mute and minimum requests are honoured, failed
// deliveries are retried with backoff and their outcome is visible on the rule's history.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { AlertEvent, AlertEventsPage, AlertRule } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceivedRequest } from "../support/http-receiver.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { type AlertsFixture, createAlertsFixture, created } from "./helpers.js";

const MINUTE = 60_000;

/** What a receiver does with a Sightline webhook: recompute the HMAC and compare in constant time. */
function verifySignature(request: ReceivedRequest, secret: string): boolean {
  const timestamp = String(request.headers["x-sightline-timestamp"]);
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest("hex")}`;
  const given = String(request.headers["x-sightline-signature"]);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

describe.each(metadataBackends())("alert evaluation on $name", (backend: MetadataBackend) => {
  let fx: AlertsFixture;
  const P = "/api/v1/projects/shop";

  beforeAll(async () => {
    fx = await createAlertsFixture(backend);
  });
  afterAll(async () => {
    await fx?.close();
  });

  const rule = (body: Record<string, unknown>) => created<AlertRule>(fx.owner, `${P}/alerts`, body);
  const webhook = async (path: string) =>
    created<{ id: string; secret: string }>(fx.owner, `${P}/notification-channels`, {
      name: `hook ${path}`,
      type: "webhook",
      url: `${fx.receiver.url}${path}`,
    });
  const history = async (id: string): Promise<AlertEvent[]> => {
    const response = await fx.owner.get(`${P}/alerts/${id}/events`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AlertEventsPage>().items;
  };
  const stateOf = async (id: string) => (await fx.owner.get(`${P}/alerts/${id}`)).json<AlertRule>();
  /** Moves the clock a minute on, so the last minute's records leave every 1-minute window. */
  const nextMinute = () => fx.clock.advance(MINUTE);

  it("fires an error-rate rule after its `for`, notifies webhook, Slack and e-mail, and resolves", async () => {
    const hook = await webhook("/hooks/errors");
    const slack = await created(fx.owner, `${P}/notification-channels`, {
      name: "slack",
      type: "slack",
      url: `${fx.receiver.url}/services/T000/B000/errors`,
    });
    const mail = await created(fx.owner, `${P}/notification-channels`, {
      name: "on-call",
      type: "email",
      addresses: ["oncall@shop.test"],
      all_members: true,
    });
    const errors = await rule({
      name: "Checkout failing",
      scope: { app: "checkout" },
      metric: "error_rate",
      error_status_from: 500,
      comparator: "gt",
      threshold: 20,
      window_seconds: 60,
      for_evaluations: 2,
      channel_ids: [hook.id, slack.id, mail.id],
    });

    nextMinute();
    await fx.send(6, { app_id: "checkout", status_code: 200 });
    await fx.send(4, { app_id: "checkout", status_code: 503 });
    await fx.tick();
    expect((await stateOf(errors.id)).state).toBe("pending");
    expect(fx.receiver.on("/hooks/errors")).toHaveLength(0);

    nextMinute();
    await fx.send(5, { app_id: "checkout", status_code: 500 });
    await fx.send(5, { app_id: "checkout", status_code: 404 }); // not an error at >= 500
    await fx.tick();
    const firing = await stateOf(errors.id);
    expect(firing).toMatchObject({ state: "firing", last_value: 50 });

    const [hookCall] = fx.receiver.on("/hooks/errors");
    expect(hookCall).toBeDefined();
    expect(verifySignature(hookCall as ReceivedRequest, hook.secret)).toBe(true);
    expect(verifySignature(hookCall as ReceivedRequest, "whsec_wrong")).toBe(false);
    const payload = JSON.parse((hookCall as ReceivedRequest).body) as Record<string, unknown> & {
      window: { start: string; end: string };
    };
    // The project's overview, filtered to the rule's app over the evaluated window.
    const dashboard =
      "https://sightline.example.com/projects/shop?app=checkout" +
      `&since=${encodeURIComponent(payload.window.start)}&until=${encodeURIComponent(payload.window.end)}`;
    expect(payload).toMatchObject({
      type: "alert.firing",
      kind: "firing",
      project: { slug: "shop", name: "Shop" },
      rule: {
        id: errors.id,
        name: "Checkout failing",
        metric: "error_rate",
        threshold: 20,
        window_seconds: 60,
      },
      value: 50,
      request_count: 10,
      links: {
        rule: `https://sightline.example.com/projects/shop/alerts/${errors.id}`,
        dashboard,
      },
    });
    expect(Number((hookCall as ReceivedRequest).headers["x-sightline-timestamp"])).toBe(
      Math.floor(fx.clock.now().getTime() / 1000),
    );

    const [slackCall] = fx.receiver.on("/services/T000/B000/errors");
    const message = JSON.parse((slackCall as ReceivedRequest).body) as {
      text: string;
      blocks: Array<{ type: string; elements?: Array<{ url?: string }>; fields?: Array<{ text: string }> }>;
    };
    expect(message.text).toContain("Checkout failing");
    expect(message.blocks.map((block) => block.type)).toEqual([
      "header",
      "section",
      "section",
      "actions",
      "context",
    ]);
    expect(message.blocks[2]?.fields?.map((field) => field.text)).toEqual(
      expect.arrayContaining(["*Value*\n50%", "*Threshold*\n&gt; 20%"]),
    );
    expect(message.blocks[3]?.elements?.[0]?.url).toBe(dashboard);

    const email = await fx.smtp.waitForMail("oncall@shop.test");
    expect(email.to).toEqual(expect.arrayContaining(["oncall@shop.test", fx.ownerEmail]));
    expect(email.raw).toMatch(/Subject: \[FIRING\] Checkout failing/);

    nextMinute();
    await fx.send(10, { app_id: "checkout", status_code: 200 });
    await fx.tick();
    expect((await stateOf(errors.id)).state).toBe("ok");
    const resolved = fx.receiver.on("/hooks/errors");
    expect(resolved).toHaveLength(2);
    expect(JSON.parse((resolved[1] as ReceivedRequest).body)).toMatchObject({
      type: "alert.resolved",
      value: 0,
    });
    await fx.smtp.waitForMail("oncall@shop.test", { after: 1 });

    const events = await history(errors.id);
    expect(events.map((event) => `${event.from_state}->${event.to_state}`)).toEqual([
      "firing->ok",
      "pending->firing",
      "ok->pending",
    ]);
    const fired = events[1] as AlertEvent;
    expect(fired).toMatchObject({
      value: 50,
      threshold: 20,
      comparator: "gt",
      request_count: 10,
      muted: false,
    });
    // The window ends the ingest flush interval plus a margin before the tick: late records count.
    expect(Date.parse(fired.window_end)).toBe(fx.clock.now().getTime() - MINUTE - (50 + 5_000));
    expect(Date.parse(fired.window_end) - Date.parse(fired.window_start)).toBe(MINUTE);
    expect(fired.notifications.map((n) => [n.type, n.status, n.attempts])).toEqual([
      ["webhook", "delivered", 1],
      ["slack", "delivered", 1],
      ["email", "delivered", 1],
    ]);
    expect(events[2]?.notifications).toEqual([]);
  });

  it("does not fire below the minimum request count, and fires once traffic is enough", async () => {
    const hook = await webhook("/hooks/min");
    const guarded = await rule({
      name: "Billing errors",
      scope: { app: "billing" },
      metric: "error_rate",
      error_status_from: 400,
      comparator: "gte",
      threshold: 50,
      window_seconds: 60,
      min_requests: 20,
      channel_ids: [hook.id],
    });
    nextMinute();
    await fx.send(1, { app_id: "billing", status_code: 200 });
    await fx.send(1, { app_id: "billing", status_code: 400 });
    await fx.tick();
    expect(await stateOf(guarded.id)).toMatchObject({ state: "ok", last_value: 50 });
    nextMinute();
    await fx.send(10, { app_id: "billing", status_code: 200 });
    await fx.send(10, { app_id: "billing", status_code: 422 });
    await fx.tick();
    expect((await stateOf(guarded.id)).state).toBe("firing");
    expect(fx.receiver.on("/hooks/min")).toHaveLength(1);
  });

  it("fires p95 and p99 latency rules on an endpoint and an environment", async () => {
    const hook = await webhook("/hooks/latency");
    const p95 = await rule({
      name: "Slow search",
      scope: { app: "search", endpoint: { method: "get", route: "/search/{term}" } },
      metric: "p95_latency_ms",
      comparator: "gt",
      threshold: 500,
      window_seconds: 60,
      channel_ids: [hook.id],
    });
    const p99 = await rule({
      name: "Slow staging",
      scope: { app: "search", environment: "staging" },
      metric: "p99_latency_ms",
      comparator: "gt",
      threshold: 900,
      window_seconds: 60,
    });
    nextMinute();
    const route = { app_id: "search", method: "GET", path: "/search/shoes", route: "/search/{term}" };
    await fx.send(19, { ...route, response_time_ms: 100 });
    await fx.send(1, { ...route, response_time_ms: 2000 }); // p95 of 20 values stays near 100
    await fx.send(10, { app_id: "search", environment: "staging", response_time_ms: 1000 });
    await fx.tick();
    expect((await stateOf(p95.id)).state).toBe("ok");
    expect(await stateOf(p99.id)).toMatchObject({ state: "firing", last_value: 1000 });

    nextMinute();
    await fx.send(10, { ...route, response_time_ms: 100 });
    await fx.send(10, { ...route, response_time_ms: 800 });
    await fx.send(10, { ...route, path: "/other", route: "/other", response_time_ms: 5000 }); // another endpoint
    await fx.tick();
    expect((await stateOf(p95.id)).state).toBe("firing");
    expect((await stateOf(p95.id)).last_value).toBe(800);
    const [call] = fx.receiver.on("/hooks/latency");
    const latency = JSON.parse((call as ReceivedRequest).body) as { window: { start: string; end: string } };
    expect(latency).toMatchObject({
      rule: { scope: { app: "search", endpoint: { method: "GET", route: "/search/{term}" } } },
      links: {
        dashboard:
          "https://sightline.example.com/projects/shop/endpoints/detail?app=search&method=GET&path=%2Fsearch%2F%7Bterm%7D" +
          `&since=${encodeURIComponent(latency.window.start)}&until=${encodeURIComponent(latency.window.end)}`,
      },
    });
    expect((await stateOf(p99.id)).state).toBe("ok");
  });

  it("fires on no traffic and on a traffic spike, and resolves when traffic is back to normal", async () => {
    const silent = await rule({
      name: "Quiet has no traffic",
      scope: { app: "quiet" },
      metric: "request_count",
      comparator: "lt",
      threshold: 1,
      window_seconds: 120,
    });
    const spike = await rule({
      name: "Quiet spike",
      scope: { app: "quiet" },
      metric: "request_count",
      comparator: "gt",
      threshold: 15,
      window_seconds: 60,
    });
    nextMinute();
    await fx.tick();
    expect(await stateOf(silent.id)).toMatchObject({ state: "firing", last_value: 0 });
    expect((await stateOf(spike.id)).state).toBe("ok");
    nextMinute();
    await fx.send(20, { app_id: "quiet" });
    await fx.tick();
    expect(await stateOf(silent.id)).toMatchObject({ state: "ok", last_value: 20 });
    expect(await stateOf(spike.id)).toMatchObject({ state: "firing", last_value: 20 });
    nextMinute();
    await fx.send(3, { app_id: "quiet" });
    await fx.tick();
    expect((await stateOf(spike.id)).state).toBe("ok");
  });

  it("counts a status code and a status class", async () => {
    const code = await rule({
      name: "503s",
      scope: { app: "billing" },
      metric: "status_count",
      status: "503",
      comparator: "gte",
      threshold: 3,
      window_seconds: 60,
    });
    const family = await rule({
      name: "4xx",
      metric: "status_count",
      status: "4xx",
      comparator: "gt",
      threshold: 4,
      window_seconds: 60,
    });
    nextMinute();
    await fx.send(3, { app_id: "billing", status_code: 503 });
    await fx.send(2, { app_id: "billing", status_code: 500 });
    await fx.send(3, { app_id: "billing", status_code: 404 });
    await fx.send(2, { app_id: "checkout", status_code: 401 });
    await fx.tick();
    expect(await stateOf(code.id)).toMatchObject({ state: "firing", last_value: 3 });
    expect(await stateOf(family.id)).toMatchObject({ state: "firing", last_value: 5 });
  });

  it("records a muted rule's state changes without notifying anyone", async () => {
    const hook = await webhook("/hooks/muted");
    const muted = await rule({
      name: "Muted",
      scope: { app: "checkout", environment: "production" },
      metric: "request_count",
      comparator: "gt",
      threshold: 0,
      window_seconds: 60,
      muted_until: new Date(fx.clock.now().getTime() + 10 * MINUTE).toISOString(),
      channel_ids: [hook.id],
    });
    nextMinute();
    await fx.send(1, { app_id: "checkout" });
    await fx.tick();
    const [event] = await history(muted.id);
    expect(event).toMatchObject({ to_state: "firing", muted: true, notifications: [] });
    expect(fx.receiver.on("/hooks/muted")).toHaveLength(0);

    const unmuted = await fx.owner.patch(`${P}/alerts/${muted.id}`, { muted_until: null });
    expect(unmuted.json<AlertRule>()).toMatchObject({ state: "firing", muted_until: null });
    nextMinute();
    await fx.tick();
    expect(fx.receiver.on("/hooks/muted")).toHaveLength(1); // resolved, now heard
  });

  it("retries failed deliveries with backoff and shows attempts and errors on the event", async () => {
    const hook = await webhook("/hooks/retry");
    const mail = await created(fx.owner, `${P}/notification-channels`, {
      name: "retry mail",
      type: "email",
      addresses: ["retry@shop.test"],
    });
    const flaky = await rule({
      name: "Flaky targets",
      scope: { app: "billing", environment: "retry" },
      metric: "request_count",
      comparator: "gte",
      threshold: 1,
      window_seconds: 60,
      channel_ids: [hook.id, mail.id],
    });
    fx.receiver.failNext(2, "/hooks/retry");
    fx.smtp.refuseNext(1);
    nextMinute();
    await fx.send(1, { app_id: "billing", environment: "retry" });
    await fx.tick();
    let [event] = await history(flaky.id);
    expect(event?.notifications).toEqual([
      expect.objectContaining({
        type: "webhook",
        status: "pending",
        attempts: 1,
        last_error: `${new URL(fx.receiver.url).host} answered HTTP 500`,
        next_attempt_at: new Date(fx.clock.now().getTime() + 30_000).toISOString(),
      }),
      expect.objectContaining({
        type: "email",
        status: "pending",
        attempts: 1,
        last_error: expect.stringMatching(/451/),
      }),
    ]);

    // Not due yet: nothing is sent again.
    fx.clock.advance(10_000);
    await fx.ctx.deps.alerts.deliveries.runDue();
    expect(fx.receiver.failed.filter((r) => r.path === "/hooks/retry")).toHaveLength(1);

    fx.clock.advance(20_000);
    await fx.ctx.deps.alerts.deliveries.runDue();
    [event] = await history(flaky.id);
    expect(event?.notifications.map((n) => [n.type, n.status, n.attempts])).toEqual([
      ["webhook", "pending", 2],
      ["email", "delivered", 2],
    ]);
    await fx.smtp.waitForMail("retry@shop.test");

    fx.clock.advance(120_000);
    await fx.ctx.deps.alerts.deliveries.runDue();
    [event] = await history(flaky.id);
    expect(event?.notifications[0]).toMatchObject({ status: "delivered", attempts: 3, last_error: null });
    const delivered = fx.receiver.on("/hooks/retry");
    expect(delivered).toHaveLength(1);
    // Every attempt carries the same delivery id, so a receiver can drop duplicates.
    expect(
      fx.receiver.failed
        .filter((r) => r.path === "/hooks/retry")
        .map((r) => r.headers["x-sightline-delivery"]),
    ).toEqual([delivered[0]?.headers["x-sightline-delivery"], delivered[0]?.headers["x-sightline-delivery"]]);
  });

  it("gives up after the last retry and records the failure", async () => {
    const dead = await created(fx.owner, `${P}/notification-channels`, {
      name: "dead end",
      type: "webhook",
      url: "http://127.0.0.1:9/nothing-listens-here",
    });
    const doomed = await rule({
      name: "Doomed",
      scope: { app: "billing", environment: "doomed" },
      metric: "request_count",
      comparator: "gte",
      threshold: 1,
      window_seconds: 60,
      channel_ids: [dead.id],
    });
    nextMinute();
    await fx.send(1, { app_id: "billing", environment: "doomed" });
    await fx.tick();
    for (const pause of [30_000, 120_000, 600_000, 1_800_000, 7_200_000]) {
      fx.clock.advance(pause);
      await fx.ctx.deps.alerts.deliveries.runDue();
    }
    const [event] = await history(doomed.id);
    expect(event?.notifications[0]).toMatchObject({
      status: "failed",
      attempts: 6,
      last_error: "127.0.0.1:9: ECONNREFUSED",
      next_attempt_at: null,
    });
  });

  it("sends a test notification to every channel of a rule and reports each outcome", async () => {
    const hook = await webhook("/hooks/test");
    const broken = await created(fx.owner, `${P}/notification-channels`, {
      name: "broken slack",
      type: "slack",
      url: "http://127.0.0.1:9/services/x",
    });
    const mail = await created(fx.owner, `${P}/notification-channels`, {
      name: "test mail",
      type: "email",
      addresses: ["test@shop.test"],
    });
    const target = await rule({
      name: "Testable",
      metric: "error_rate",
      comparator: "gt",
      threshold: 1,
      window_seconds: 300,
      channel_ids: [hook.id, broken.id, mail.id],
    });
    const response = await fx.owner.post(`${P}/alerts/${target.id}/test`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      results: [
        { channel_id: hook.id, channel_name: "hook /hooks/test", type: "webhook", ok: true, error: null },
        {
          channel_id: broken.id,
          channel_name: "broken slack",
          type: "slack",
          ok: false,
          error: "127.0.0.1:9: ECONNREFUSED",
        },
        { channel_id: mail.id, channel_name: "test mail", type: "email", ok: true, error: null },
      ],
    });
    const [call] = fx.receiver.on("/hooks/test");
    expect(JSON.parse((call as ReceivedRequest).body)).toMatchObject({ type: "alert.test", event_id: null });
    expect((await fx.smtp.waitForMail("test@shop.test")).raw).toMatch(/Subject: \[TEST\] Testable/);
    expect(await history(target.id)).toEqual([]);
  });

  it("cancels what is still queued when the project is deleted", async () => {
    const hook = await webhook("/hooks/deleted");
    const rule = await created<AlertRule>(fx.owner, `${P}/alerts`, {
      name: "Going away",
      scope: { app: "billing", environment: "gone" },
      metric: "request_count",
      comparator: "gte",
      threshold: 1,
      window_seconds: 60,
      channel_ids: [hook.id],
    });
    fx.receiver.failNext(1, "/hooks/deleted");
    nextMinute();
    await fx.send(1, { app_id: "billing", environment: "gone" });
    await fx.tick();
    expect((await history(rule.id))[0]?.notifications[0]).toMatchObject({ status: "pending", attempts: 1 });
    expect((await fx.owner.delete(P)).statusCode).toBe(200);
    fx.clock.advance(60_000);
    await fx.ctx.deps.alerts.deliveries.runDue();
    const rows = await fx.ctx.deps.metadata.db
      .selectFrom("notification_deliveries")
      .select(["status", "last_error", "attempts"])
      .where("channel_id", "=", hook.id)
      .execute();
    expect(rows).toEqual([{ status: "cancelled", last_error: "the project was deleted", attempts: 1 }]);
    expect(fx.receiver.on("/hooks/deleted")).toHaveLength(0);
  });
});
