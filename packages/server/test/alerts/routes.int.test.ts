// The alert rule and notification channel routes, on SQLite and PostgreSQL: what they answer,
// every bad input as a problem (never a 500), secrets shown once, private webhook targets
// refused, changes recorded in the audit log, and a condition change restarting evaluation.
import type { AlertRule, AuditLogPage, Channel, ChannelWithSecret } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { created } from "./helpers.js";

const P = "/api/v1/projects/shop";
const valid = { name: "Errors", metric: "error_rate", comparator: "gt", threshold: 5, window_seconds: 300 };

describe.each(metadataBackends())("alert routes on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let owner: Client;

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend });
    owner = clientFor(ctx.app, (await signIn(ctx, "owner@routes.test")).headers);
    await created(owner, "/api/v1/projects", { name: "Shop", slug: "shop" });
    await created(owner, `${P}/apps`, { name: "Checkout", slug: "checkout" });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("creates, lists, reads, changes and deletes a rule, each change in the audit log", async () => {
    const channel = await created<ChannelWithSecret>(owner, `${P}/notification-channels`, {
      name: "Ops",
      type: "email",
      addresses: ["Ops@Shop.test"],
    });
    expect(channel).toMatchObject({
      type: "email",
      addresses: ["ops@shop.test"],
      all_members: false,
      url: null,
    });
    expect(channel.secret).toBeUndefined();
    const rule = await created<AlertRule>(owner, `${P}/alerts`, {
      ...valid,
      scope: {
        app: "checkout",
        environment: " Production",
        endpoint: { method: "post", route: "/orders/:id" },
      },
      min_requests: 10,
      for_evaluations: 3,
      channel_ids: [channel.id],
    });
    expect(rule).toMatchObject({
      name: "Errors",
      enabled: true,
      scope: {
        app: { slug: "checkout", name: "Checkout" },
        environment: "production",
        endpoint: { method: "POST", route: "/orders/{id}" },
      },
      metric: "error_rate",
      error_status_from: 500,
      status: null,
      state: "ok",
      last_evaluated_at: null,
      channel_ids: [channel.id],
    });
    expect((await owner.get(`${P}/alerts`)).json<AlertRule[]>().map((r) => r.id)).toContain(rule.id);
    expect((await owner.get(`${P}/alerts/${rule.id}`)).json()).toEqual(rule);

    const changed = await owner.patch(`${P}/alerts/${rule.id}`, { metric: "status_count", status: "5xx" });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<AlertRule>()).toMatchObject({
      metric: "status_count",
      status: "5xx",
      error_status_from: null,
    });
    const cleared = await owner.patch(`${P}/alerts/${rule.id}`, {
      scope: {},
      channel_ids: [],
    });
    expect(cleared.json<AlertRule>()).toMatchObject({
      scope: { app: null, environment: null, endpoint: null },
      channel_ids: [],
    });

    expect((await owner.delete(`${P}/alerts/${rule.id}`)).statusCode).toBe(200);
    expectProblem(await owner.get(`${P}/alerts/${rule.id}`), "not_found");
    expectProblem(await owner.get(`${P}/alerts/${rule.id}/events`), "not_found");

    const audit = (await owner.get(`${P}/audit-log?page_size=200`)).json<AuditLogPage>();
    const mine = audit.items.filter((event) => [rule.id, channel.id].includes(event.target.id));
    expect(mine.map((event) => event.action).reverse()).toEqual([
      "notification_channel.created",
      "alert_rule.created",
      "alert_rule.updated",
      "alert_rule.updated",
      "alert_rule.deleted",
    ]);
    expect(mine.find((event) => event.action === "alert_rule.updated")?.details).toEqual({
      changed: ["app", "environment", "endpoint", "channels"],
    });
  });

  it("answers every bad rule with a problem naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "/name"],
      [{ ...valid, name: "  " }, "/name"],
      [{ ...valid, metric: "apdex" }, "/metric"],
      [{ ...valid, comparator: "eq" }, "/comparator"],
      [{ ...valid, threshold: -1 }, "/threshold"],
      [{ ...valid, threshold: "5" }, "/threshold"],
      [{ ...valid, threshold: 150 }, "/threshold"],
      [{ ...valid, window_seconds: 59 }, "/window_seconds"],
      [{ ...valid, window_seconds: 86_401 }, "/window_seconds"],
      [{ ...valid, for_evaluations: 0 }, "/for_evaluations"],
      [{ ...valid, min_requests: 1.5 }, "/min_requests"],
      [{ ...valid, error_status_from: 404 }, "/error_status_from"],
      [{ ...valid, metric: "p95_latency_ms", error_status_from: 500 }, "/error_status_from"],
      [{ ...valid, metric: "status_count" }, "/status"],
      [{ ...valid, metric: "status_count", status: "6xx" }, "/status"],
      [{ ...valid, status: "503" }, "/status"],
      [{ ...valid, metric: "request_count", min_requests: 5 }, "/min_requests"],
      [{ ...valid, scope: { environment: "production" } }, "/scope/environment"],
      [{ ...valid, scope: { endpoint: { method: "GET", route: "/x" } } }, "/scope/endpoint"],
      [
        { ...valid, scope: { app: "checkout", endpoint: { method: "GET", route: "x" } } },
        "/scope/endpoint/route",
      ],
      [{ ...valid, scope: { app: "nope" } }, "/scope/app"],
      [{ ...valid, scope: { project: "shop" } }, "/scope/project"],
      [{ ...valid, muted_until: "tomorrow" }, "/muted_until"],
      [{ ...valid, muted_until: "2026-06-30T23:59:60Z" }, "/muted_until"],
      [{ ...valid, channel_ids: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }, "/channel_ids/0"],
      [{ ...valid, channel_ids: ["not-a-uuid"] }, "/channel_ids/0"],
      [{ ...valid, extra: true }, "/extra"],
      [[valid], "/"],
    ];
    for (const [body, pointer] of cases) {
      const response = await owner.post(`${P}/alerts`, body);
      const problem = expectProblem(response, "validation_error");
      expect(
        { body, pointers: (problem.errors ?? []).map((error) => error.pointer) },
        response.body,
      ).toMatchObject({ body, pointers: expect.arrayContaining([pointer]) });
    }
    const rule = await created<AlertRule>(owner, `${P}/alerts`, valid);
    expectProblem(await owner.patch(`${P}/alerts/${rule.id}`, { threshold: 101 }), "validation_error");
    expectProblem(
      await owner.patch(`${P}/alerts/${rule.id}`, { metric: "status_count" }),
      "validation_error",
    );
    expectProblem(await owner.get(`${P}/alerts/not-a-uuid`), "validation_error");
    expectProblem(await owner.get(`${P}/alerts/${rule.id}/events?page=0`), "validation_error");
    expectProblem(await owner.get(`${P}/alerts/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21`), "not_found");
    const malformed = await ctx.app.inject({
      method: "POST",
      url: `${P}/alerts`,
      headers: { ...(await bearer()), "content-type": "application/json" },
      payload: "{",
    });
    expectProblem(malformed, "invalid_json");
  });

  async function bearer(): Promise<Record<string, string>> {
    return (await signIn(ctx, "owner@routes.test")).headers;
  }

  it("shows a webhook secret once, masks Slack URLs, and rotates secrets", async () => {
    const hook = await created<ChannelWithSecret>(owner, `${P}/notification-channels`, {
      name: "Hook",
      type: "webhook",
      url: "https://hooks.example.com/sightline?token=abc",
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = (await owner.get(`${P}/notification-channels`)).json<Channel[]>();
    expect(JSON.stringify(listed)).not.toContain(hook.secret as string);
    expect((await owner.get(`${P}/notification-channels/${hook.id}`)).json()).not.toHaveProperty("secret");

    const rotated = (
      await owner.patch(`${P}/notification-channels/${hook.id}`, { rotate_secret: true })
    ).json<ChannelWithSecret>();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(hook.secret);

    const slack = await created<Channel>(owner, `${P}/notification-channels`, {
      name: "Slack",
      type: "slack",
      url: "https://hooks.slack.com/services/T000/B000/XXXXSECRET",
    });
    expect(slack.url).toBe("https://hooks.slack.com/services/…");
    expect(JSON.stringify((await owner.get(`${P}/notification-channels`)).json())).not.toContain(
      "XXXXSECRET",
    );
  });

  it("refuses bad channels, and loopback, link-local and private targets", async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: "x", type: "sms" }, "/type"],
      [{ name: "x", type: "email" }, "/addresses"],
      [{ name: "x", type: "email", addresses: ["not-an-address"] }, "/addresses/0"],
      [{ name: "x", type: "email", addresses: ["a@b.test"], url: "https://example.com" }, "/url"],
      [{ name: "x", type: "webhook" }, "/url"],
      [{ name: "x", type: "webhook", url: "https://example.com", addresses: ["a@b.test"] }, "/addresses"],
      [{ name: "x", type: "webhook", url: "ftp://example.com/x" }, "/url"],
      [{ name: "x", type: "webhook", url: "http://127.0.0.1:8080/internal" }, "/url"],
      [{ name: "x", type: "webhook", url: "http://localhost/x" }, "/url"],
      [{ name: "x", type: "webhook", url: "http://169.254.169.254/latest/meta-data" }, "/url"],
      [{ name: "x", type: "slack", url: "http://10.0.0.7/hook" }, "/url"],
      [{ name: "x", type: "webhook", url: "http://[::1]:9000/" }, "/url"],
      // Private IPv4 inside IPv6: compatible, translated, 6to4, NAT64 local-use.
      [{ name: "x", type: "webhook", url: "http://[::127.0.0.1]:9000/" }, "/url"],
      [{ name: "x", type: "webhook", url: "http://[::ffff:0:a9fe:a9fe]/latest" }, "/url"],
      [{ name: "x", type: "slack", url: "http://[2002:a00:7::1]/hook" }, "/url"],
      [{ name: "x", type: "webhook", url: "http://[64:ff9b:1::c0a8:101]/" }, "/url"],
      [{ name: "x", type: "webhook", url: "https://user:pw@example.com/" }, "/url"],
      [{ name: " ", type: "email", addresses: ["a@b.test"] }, "/name"],
    ];
    for (const [body, pointer] of cases) {
      const response = await owner.post(`${P}/notification-channels`, body);
      const problem = expectProblem(response, "validation_error");
      expect({ body, pointers: (problem.errors ?? []).map((e) => e.pointer) }, response.body).toMatchObject({
        body,
        pointers: expect.arrayContaining([pointer]),
      });
    }
    const mail = await created<Channel>(owner, `${P}/notification-channels`, {
      name: "m",
      type: "email",
      all_members: true,
    });
    expectProblem(
      await owner.patch(`${P}/notification-channels/${mail.id}`, { rotate_secret: true }),
      "validation_error",
    );
    expectProblem(
      await owner.patch(`${P}/notification-channels/${mail.id}`, { url: "https://x.test" }),
      "validation_error",
    );
    expectProblem(
      await owner.patch(`${P}/notification-channels/${mail.id}`, { all_members: false }),
      "validation_error",
    );
    expectProblem(
      await owner.get(`${P}/notification-channels/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21`),
      "not_found",
    );
  });

  it("restarts a firing rule from ok when its condition changes, and records why", async () => {
    const rule = await created<AlertRule>(owner, `${P}/alerts`, {
      ...valid,
      metric: "request_count",
      comparator: "lt",
      threshold: 1,
      window_seconds: 60,
    });
    // No traffic at all: the evaluator (ticked by hand here) fires it at once.
    await ctx.deps.alerts.scheduler.tick();
    expect((await owner.get(`${P}/alerts/${rule.id}`)).json<AlertRule>().state).toBe("firing");
    const renamed = await owner.patch(`${P}/alerts/${rule.id}`, { name: "No orders", muted_until: null });
    expect(renamed.json<AlertRule>().state).toBe("firing");
    const changed = await owner.patch(`${P}/alerts/${rule.id}`, { threshold: 2 });
    expect(changed.json<AlertRule>().state).toBe("ok");
    const events = (await owner.get(`${P}/alerts/${rule.id}/events`)).json<{
      items: Array<Record<string, unknown>>;
    }>();
    expect(events.items.map((event) => [event.from_state, event.to_state, event.reason])).toEqual([
      ["firing", "ok", "rule_changed"],
      ["ok", "firing", "evaluation"],
    ]);
  });
});
