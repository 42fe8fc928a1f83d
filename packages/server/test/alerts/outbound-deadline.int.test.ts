// Every outbound send ends by its deadline, answer included, and reads little of the answer:
// real local receivers that trickle their answer a byte at a time (a socket idle timeout never
// fires: such a receiver held a send for 26 s against a "10 s timeout") or flood a huge body.
// Through postJson, the alert test route and the delivery worker, on SQLite and PostgreSQL.
import type { AlertEvent, AlertEventsPage, AlertRule } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLAIM_MARGIN_MS, createDeliveryWorker } from "../../src/modules/alerts/deliveries.worker.js";
import { postJson } from "../../src/modules/alerts/http-post.js";
import { createOutboxTransport } from "../../src/modules/auth/index.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import {
  type FloodReceiver,
  type SlowReceiver,
  startFloodReceiver,
  startTrickleReceiver,
} from "../support/slow-receivers.js";
import { type AlertsFixture, createAlertsFixture, created } from "./helpers.js";

const P = "/api/v1/projects/shop";
// A byte every 100 ms for 4 s: the old idle timeout (1 s here) never fired, and the send lasted
// until the receiver hung up.
const TRICKLE = { intervalMs: 100, forMs: 4_000 };

describe("postJson", () => {
  let trickle: SlowReceiver;
  let flood: FloodReceiver;
  beforeAll(async () => {
    trickle = await startTrickleReceiver(TRICKLE);
    flood = await startFloodReceiver(256 * 1024 * 1024);
  });
  afterAll(async () => {
    await trickle?.close();
    await flood?.close();
  });

  it("ends the send at its deadline while the receiver trickles its answer, and hangs up", async () => {
    await expect(
      postJson(`${trickle.url}/hook`, "{}", {}, { allowPrivateTargets: true, timeoutMs: 1_000 }),
    ).rejects.toThrow(`${new URL(trickle.url).host} did not answer within 1 s`);
    await vi.waitFor(() => expect(trickle.open).toBe(0));
  });

  it("takes the status of a huge answer and stops reading it after a few KiB", async () => {
    await postJson(`${flood.url}/hook`, "{}", {}, { allowPrivateTargets: true, timeoutMs: 30_000 });
    await vi.waitFor(() => expect(flood.open).toBe(0));
    // 256 MiB were on offer; the connection closed long before the receiver could write them.
    expect(flood.finished).toBe(false);
  });
});

describe.each(metadataBackends())("outbound deadlines on $name", (backend: MetadataBackend) => {
  let fx: AlertsFixture;
  let trickle: SlowReceiver;
  beforeAll(async () => {
    fx = await createAlertsFixture(backend, { ALERTS_SEND_TIMEOUT_SECONDS: "1" });
    trickle = await startTrickleReceiver(TRICKLE);
  });
  afterAll(async () => {
    await fx?.close();
    await trickle?.close();
  });

  const trickleChannel = (name: string) =>
    created(fx.owner, `${P}/notification-channels`, { name, type: "webhook", url: `${trickle.url}/hook` });

  it("answers a test notification by the deadline when a receiver trickles", async () => {
    const channel = await trickleChannel("trickling test");
    const rule = await created<AlertRule>(fx.owner, `${P}/alerts`, {
      name: "Tested against a trickle",
      metric: "error_rate",
      comparator: "gt",
      threshold: 1,
      window_seconds: 300,
      channel_ids: [channel.id],
    });
    const response = await fx.owner.post(`${P}/alerts/${rule.id}/test`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      results: [
        {
          channel_id: channel.id,
          ok: false,
          error: `${new URL(trickle.url).host} did not answer within 1 s`,
        },
      ],
    });
  });

  it("records a trickling delivery as failed at the deadline, its claim outliving the send", async () => {
    const channel = await trickleChannel("trickling hook");
    const rule = await created<AlertRule>(fx.owner, `${P}/alerts`, {
      name: "Quiet has no traffic",
      scope: { app: "quiet" },
      metric: "request_count",
      comparator: "lt",
      threshold: 1,
      window_seconds: 60,
      channel_ids: [channel.id],
    });
    fx.clock.advance(60_000);
    await fx.ctx.deps.alerts.scheduler.tick();
    const accepted = trickle.accepted;
    const sending = fx.ctx.deps.alerts.deliveries.runDue();
    await vi.waitFor(() => expect(trickle.accepted).toBe(accepted + 1));

    // In flight: claimed past its deadline, so another instance leaves it alone.
    const [row] = await fx.ctx.deps.metadata.db
      .selectFrom("notification_deliveries")
      .select("claimed_until")
      .where("channel_id", "=", channel.id)
      .execute();
    expect(Date.parse(row?.claimed_until ?? "")).toBe(fx.clock.now().getTime() + 1_000 + CLAIM_MARGIN_MS);
    const other = createDeliveryWorker(
      {
        db: fx.ctx.deps.metadata.db,
        clock: fx.clock,
        logger: fx.ctx.deps.logger,
        mail: createOutboxTransport(fx.ctx.config.paths.outbox, "alerts@shop.test", fx.ctx.deps.logger),
      },
      { allowPrivateTargets: true, timeoutMs: 1_000 },
    );
    expect(await other.runDue()).toBe(0);
    await other.close();

    await sending;
    expect(trickle.accepted).toBe(accepted + 1);
    const history = await fx.owner.get(`${P}/alerts/${rule.id}/events`);
    const [event] = history.json<AlertEventsPage>().items as AlertEvent[];
    expect(event?.notifications).toEqual([
      expect.objectContaining({
        status: "pending",
        attempts: 1,
        last_error: `${new URL(trickle.url).host} did not answer within 1 s`,
        next_attempt_at: new Date(fx.clock.now().getTime() + 30_000).toISOString(),
      }),
    ]);
  });
});
