// Detection latency at the default settings (issue 24: a breaking change in traffic is detected
// and notified within 2 minutes). A real server on a real port takes calls over HTTP; the
// contract's scheduler runs its passes by its own trigger (tick) at the times its interval puts
// them, on a manual clock, so the test needs no two-minute sleep: the worst case — the changed
// calls stored just too late for one pass — is played out, and the bound lateness + pass +
// interval + pass, with the two passes' real durations (webhook delivery included), is checked
// against the target. No CONTRACT_* variable is set: the defaults are what is measured.
import type { AddressInfo } from "node:net";
import type { ContractChange } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DETECTION_TARGET_MS,
  detectionBoundMs,
  LATE_DATA_MARGIN_MS,
} from "../../src/modules/contract/contract.module.js";
import { signWebhook } from "../../src/modules/alerts/index.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type HttpReceiver, startHttpReceiver } from "../support/http-receiver.js";
import { request } from "../support/query-fixture.js";

/** Calls per consumer in the first pass (≥ 100 sampled: the operation is learnt) and in the
 *  second (100: folded at once, so the changed calls are judged on their own). */
const FIRST = { acme: 50, globex: 50, initech: 10 } as const;
const SECOND = { acme: 50, globex: 30, initech: 20 } as const;

function order(id: number, withDate: boolean): string {
  return JSON.stringify({
    id,
    status: "paid",
    total: id + 0.5,
    ...(withDate ? { placed_on: "2026-03-01" } : {}),
  });
}

describe("contract change detection latency at the defaults", () => {
  let ctx: TestContext;
  let clock: ManualClock;
  let url: string;
  let auth: Record<string, string>;
  let key: string;
  let receiver: HttpReceiver;
  let secret: string;

  /** Posts calls through the real ingest route over HTTP. */
  async function send(consumer: string, count: number, withDate: boolean, at: Date): Promise<void> {
    const requests = Array.from({ length: count }, (_, index) =>
      request(at, {
        method: "GET",
        path: `/v1/orders/${index + 1}`,
        route: "/v1/orders/:id",
        consumer_id: consumer,
        response_headers: { "content-type": "application/json" },
        response_payload: order(index + 1, withDate),
      }),
    );
    const reply = await fetch(`${url}/api/v1/ingest/requests`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ requests }),
    });
    expect(reply.status, await reply.clone().text()).toBe(200);
    expect(((await reply.json()) as { accepted: number }).accepted).toBe(count);
  }

  async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const reply = await fetch(`${url}/api/v1${path}`, {
      method: init.method ?? "GET",
      headers: { ...auth, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await reply.text();
    expect(reply.ok, text).toBe(true);
    return JSON.parse(text) as T;
  }

  /** One pass by the scheduler's own trigger; its real duration. */
  async function pass(): Promise<number> {
    const started = performance.now();
    const summary = await ctx.deps.contract.scheduler.tick();
    expect(summary).toBeDefined();
    return performance.now() - started;
  }

  beforeAll(async () => {
    // From the real time: records are kept by their age (retention) on the real clock too.
    clock = manualClock(new Date());
    receiver = await startHttpReceiver();
    // Only what a loopback receiver needs; the contract and ingest settings stay at their defaults.
    ctx = await createTestContext({ clock, env: { ALERTS_ALLOW_PRIVATE_TARGETS: "true" } });
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    auth = (await signIn(ctx, "owner@shop.test")).headers;
    await api("/projects", { method: "POST", body: { name: "Shop", slug: "shop" } });
    await api("/projects/shop/apps", { method: "POST", body: { name: "Checkout", slug: "checkout" } });
    key = (await api<{ key: string }>("/projects/shop/api-keys", { method: "POST", body: { name: "in" } }))
      .key;
    const hook = await api<{ id: string; secret: string }>("/projects/shop/notification-channels", {
      method: "POST",
      body: { name: "hook", type: "webhook", url: `${receiver.url}/hook` },
    });
    secret = hook.secret;
    await api("/projects/shop/api/alert-rules", {
      method: "POST",
      body: { name: "Breaking", channel_ids: [hook.id] },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await receiver?.close();
  });

  it("runs at the default interval and lateness", () => {
    expect(ctx.config.contract.intervalSeconds).toBe(60);
    expect(ctx.deps.contract.timing).toEqual({
      intervalMs: 60_000,
      latenessMs: ctx.config.ingest.flushIntervalMs + LATE_DATA_MARGIN_MS,
    });
    expect(ctx.deps.contract.timing.latenessMs).toBe(5_050);
  });

  it("notifies a field gone from traffic within two minutes, and nothing while traffic keeps its shape", async () => {
    const { intervalMs, latenessMs } = ctx.deps.contract.timing;
    // The baseline: three consumers, then a pass an interval later with the same shape.
    for (const [consumer, count] of Object.entries(FIRST)) {
      await send(consumer, count, true, new Date(clock.now().getTime() - 30_000));
    }
    await pass();
    clock.advance(intervalMs);
    for (const [consumer, count] of Object.entries(SECOND)) {
      await send(consumer, count, true, new Date(clock.now().getTime() - 30_000));
    }
    await pass();
    const baseline = await api<Array<{ version: number }>>(
      "/projects/shop/api/contract/versions?app=checkout&environment=production",
    );
    expect(baseline.map((version) => version.version)).toEqual([1]);
    expect(receiver.on("/hook")).toEqual([]);

    // The change: placed_on is no longer returned, to Acme and Globex, from now on.
    const changedAt = clock.now().getTime();
    await send("acme", 15, false, new Date(changedAt));
    await send("globex", 10, false, new Date(changedAt));
    // The worst case: a pass starts just before the changed calls are old enough to be read.
    clock.advance(latenessMs - 1);
    const early = await pass();
    expect(receiver.on("/hook")).toEqual([]);
    // The scheduler's next pass starts an interval after that one ended.
    clock.advance(Math.ceil(early) + intervalMs);
    const detecting = await pass();

    const [hook, ...more] = receiver.on("/hook");
    expect(more).toEqual([]);
    const timestamp = Number(hook?.headers["x-sightline-timestamp"]);
    expect(hook?.headers["x-sightline-signature"]).toBe(signWebhook(secret, timestamp, hook?.body ?? ""));
    const body = JSON.parse(hook?.body ?? "{}") as {
      version: number;
      breaking_changes: number;
      changes: Array<{ kind: string; operation: string; consumers_total: number; consumers: unknown[] }>;
    };
    expect(body.version).toBe(2);
    expect(body.breaking_changes).toBe(1);
    expect(body.changes[0]).toMatchObject({
      kind: "response_field_removed",
      operation: "GET /v1/orders/{id}",
      consumers_total: 3,
      consumers: [
        { consumer_id: "acme", consumer_name: "", requests: 100 },
        { consumer_id: "globex", consumer_name: "", requests: 80 },
        { consumer_id: "initech", consumer_name: "", requests: 30 },
      ],
    });
    const changes = await api<{ data: ContractChange[] }>("/projects/shop/api/changes?breaking=true");
    expect(changes.data.map((change) => [change.kind, change.field, change.consumers_total])).toEqual([
      ["response_field_removed", "/placed_on", 3],
    ]);

    // Detected on the manual clock at changedAt + lateness - 1 + pass + interval, notified before
    // the detecting pass ended; with the passes' real durations that is the bound, and it holds.
    const bound = detectionBoundMs({ intervalMs, latenessMs }, [early, detecting]);
    expect(clock.now().getTime() - changedAt + detecting).toBeLessThanOrEqual(bound);
    expect(bound).toBeLessThanOrEqual(DETECTION_TARGET_MS);
  });
});
