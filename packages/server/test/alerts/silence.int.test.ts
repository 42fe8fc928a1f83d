// "App silent for N minutes" rules end to end, on SQLite and PostgreSQL: heartbeats through the
// real ingest route, a manual clock driving evaluator ticks, and the firing and resolved
// notifications arriving at a real HTTP receiver (webhook with its signature, Slack) and a real
// SMTP server. Figures are exact: the clock decides how long each scope has been silent.
import { createHmac } from "node:crypto";
import type { AlertEvent, AlertEventsPage, AlertRule } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceivedRequest } from "../support/http-receiver.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { type AlertsFixture, createAlertsFixture, created } from "./helpers.js";

const MINUTE = 60_000;
const P = "/api/v1/projects/shop";

describe.each(metadataBackends())("silence rules on $name", (backend: MetadataBackend) => {
  let fx: AlertsFixture;

  beforeAll(async () => {
    fx = await createAlertsFixture(backend);
  });
  afterAll(async () => {
    await fx?.close();
  });

  const rule = (body: Record<string, unknown>) =>
    created<AlertRule>(fx.owner, `${P}/alerts`, { kind: "silence", metric: "silent_minutes", ...body });
  const stateOf = async (id: string) => (await fx.owner.get(`${P}/alerts/${id}`)).json<AlertRule>();
  const history = async (id: string): Promise<AlertEvent[]> =>
    (await fx.owner.get(`${P}/alerts/${id}/events`)).json<AlertEventsPage>().items;
  /** One heartbeat of `app`'s instance `instance` at the clock's now. */
  const beat = async (app: string, environment = "production", instance = `${app}-${environment}`) => {
    const response = await fx.ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/heartbeat",
      headers: { "content-type": "application/json", "x-api-key": fx.key },
      payload: JSON.stringify({
        app_id: app,
        environment,
        instance_id: instance,
        sdk: "sightline-node",
        sdk_version: "0.1.0",
        runtime: "node v20",
        interval_s: 60,
      }),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const advance = (minutes: number) => fx.clock.advance(minutes * MINUTE);

  it("refuses what a silence rule cannot watch, each with its pointer", async () => {
    const response = await fx.owner.post(`${P}/alerts`, {
      name: "Bad silence",
      kind: "silence",
      metric: "error_rate",
      scope: { app: "checkout", endpoint: { method: "GET", route: "/x" } },
      comparator: "gt",
      threshold: 3,
      sensitivity: "high",
      min_requests: 5,
      window_seconds: 90,
    });
    const problem = expectProblem(response, "validation_error");
    expect((problem.errors as Array<{ pointer: string }>).map((error) => error.pointer).sort()).toEqual([
      "/comparator",
      "/metric",
      "/min_requests",
      "/scope/endpoint",
      "/sensitivity",
      "/threshold",
      "/window_seconds",
    ]);
    const threshold = await fx.owner.post(`${P}/alerts`, {
      name: "Threshold on silence",
      metric: "silent_minutes",
      comparator: "gt",
      threshold: 5,
      window_seconds: 300,
    });
    expect(expectProblem(threshold, "validation_error").errors).toEqual([
      { pointer: "/metric", message: "applies to silence rules only" },
    ]);
    const short = await fx.owner.post(`${P}/alerts`, {
      name: "Too short",
      kind: "silence",
      metric: "silent_minutes",
      window_seconds: 60,
    });
    expect(expectProblem(short, "validation_error").errors).toEqual([
      {
        pointer: "/window_seconds",
        message:
          "must be whole minutes, at least 2 minutes (120 s) for silence rules: the SDK beats every minute",
      },
    ]);
  });

  it("fires when an app is silent for its window, notifies every channel, and resolves on the next beat", async () => {
    const hook = await created<{ id: string; secret: string }>(fx.owner, `${P}/notification-channels`, {
      name: "hook silence",
      type: "webhook",
      url: `${fx.receiver.url}/hooks/silence`,
    });
    const slack = await created(fx.owner, `${P}/notification-channels`, {
      name: "slack silence",
      type: "slack",
      url: `${fx.receiver.url}/services/T000/B000/silence`,
    });
    const mail = await created(fx.owner, `${P}/notification-channels`, {
      name: "on-call silence",
      type: "email",
      addresses: ["silence@shop.test"],
    });
    const start = fx.clock.now().getTime();
    await beat("checkout");
    const silent = await rule({
      name: "Checkout silent",
      scope: { app: "checkout" },
      window_seconds: 600,
      channel_ids: [hook.id, slack.id, mail.id],
    });
    expect(silent).toMatchObject({
      kind: "silence",
      metric: "silent_minutes",
      comparator: null,
      threshold: null,
      sensitivity: null,
      direction: null,
      window_seconds: 600,
      min_requests: 0,
      for_evaluations: 1,
    });
    // An app that never sent a heartbeat is not judged: apps on SDKs without heartbeats never fire.
    const never = await rule({ name: "Quiet silent", scope: { app: "quiet" }, window_seconds: 120 });

    advance(9.5);
    await fx.tick();
    expect(await stateOf(silent.id)).toMatchObject({ state: "ok", last_value: 9.5 });
    expect(await stateOf(never.id)).toMatchObject({ state: "ok", last_value: null });
    expect(fx.receiver.on("/hooks/silence")).toHaveLength(0);

    advance(0.5);
    await fx.tick();
    expect(await stateOf(silent.id)).toMatchObject({ state: "firing", last_value: 10 });
    const [call] = fx.receiver.on("/hooks/silence");
    const request = call as ReceivedRequest;
    const timestamp = String(request.headers["x-sightline-timestamp"]);
    expect(request.headers["x-sightline-signature"]).toBe(
      `sha256=${createHmac("sha256", hook.secret).update(`${timestamp}.${request.body}`).digest("hex")}`,
    );
    const firedAt = new Date(start + 10 * MINUTE).toISOString();
    expect(JSON.parse(request.body)).toMatchObject({
      type: "alert.firing",
      kind: "firing",
      rule: {
        id: silent.id,
        kind: "silence",
        metric: "silent_minutes",
        window_seconds: 600,
        scope: { app: "checkout", environment: null, endpoint: null },
      },
      value: 10,
      request_count: 0,
      silence: { last_heartbeat_at: new Date(start).toISOString(), silent_apps: ["checkout"] },
      window: { start: new Date(start).toISOString(), end: firedAt },
    });
    const [slackCall] = fx.receiver.on("/services/T000/B000/silence");
    expect(JSON.parse((slackCall as ReceivedRequest).body).text).toBe(
      "[FIRING] Checkout silent: no heartbeat for 10 min (fires after 10 min); silent: checkout",
    );
    const email = await fx.smtp.waitForMail("silence@shop.test");
    expect(email.raw).toMatch(/Subject: \[FIRING\] Checkout silent: time without a heartbeat 10 min/);

    advance(1);
    await fx.tick();
    expect(await stateOf(silent.id)).toMatchObject({ state: "firing", last_value: 11 });
    expect(fx.receiver.on("/hooks/silence")).toHaveLength(1);

    advance(1.5);
    await beat("checkout");
    advance(0.25);
    await fx.tick();
    expect(await stateOf(silent.id)).toMatchObject({ state: "ok", last_value: 0.25 });
    const calls = fx.receiver.on("/hooks/silence");
    expect(calls).toHaveLength(2);
    expect(JSON.parse((calls[1] as ReceivedRequest).body)).toMatchObject({
      type: "alert.resolved",
      value: 0.25,
      silence: { silent_apps: [] },
    });
    await fx.smtp.waitForMail("silence@shop.test", { after: 1 });

    const events = await history(silent.id);
    expect(events.map((event) => `${event.from_state}->${event.to_state}`)).toEqual([
      "firing->ok",
      "ok->firing",
    ]);
    expect(events[1]).toMatchObject({ value: 10, comparator: "gte", threshold: 10, request_count: 0 });
    expect(events[1]?.notifications.map((n) => [n.type, n.status])).toEqual([
      ["webhook", "delivered"],
      ["slack", "delivered"],
      ["email", "delivered"],
    ]);
    await fx.owner.delete(`${P}/alerts/${silent.id}`);
    await fx.owner.delete(`${P}/alerts/${never.id}`);
  });

  it("watches each app of a project on its own, and an environment apart from its app", async () => {
    const project = await rule({ name: "Any app silent", window_seconds: 300, for_evaluations: 2 });
    const staging = await rule({
      name: "Billing staging silent",
      scope: { app: "billing", environment: "Staging" },
      window_seconds: 180,
    });
    const billing = await rule({ name: "Billing silent", scope: { app: "billing" }, window_seconds: 180 });
    expect(staging.scope.environment).toBe("staging");

    // search beats once, billing's production keeps beating, billing's staging stops.
    await beat("search");
    await beat("billing", "staging");
    await beat("checkout");
    for (let minute = 1; minute <= 4; minute += 1) {
      advance(1);
      await beat("billing");
      await beat("checkout");
    }
    await fx.tick();
    // At +4 min: search silent 4 min (< 5), billing staging 4 min (>= 3), billing itself 0.
    expect(await stateOf(project.id)).toMatchObject({ state: "ok", last_value: 4 });
    expect(await stateOf(staging.id)).toMatchObject({ state: "firing", last_value: 4 });
    expect(await stateOf(billing.id)).toMatchObject({ state: "ok", last_value: 0 });

    advance(1);
    await beat("billing");
    await beat("checkout");
    await fx.tick();
    // search reaches 5 min: pending (two evaluations in a row are asked for).
    expect(await stateOf(project.id)).toMatchObject({ state: "pending", last_value: 5 });
    advance(1);
    await beat("billing");
    await fx.tick();
    expect(await stateOf(project.id)).toMatchObject({ state: "firing", last_value: 6 });
    expect(await stateOf(staging.id)).toMatchObject({ state: "firing", last_value: 6 });

    // search comes back; checkout (silent 1 min) is not yet silent for 5: resolved.
    await beat("search");
    advance(1);
    await fx.tick();
    expect(await stateOf(project.id)).toMatchObject({ state: "ok", last_value: 2 });
  });
});
