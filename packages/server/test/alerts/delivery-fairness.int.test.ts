// Alert delivery across tenants, on SQLite and PostgreSQL: one project's receivers hold every
// request they get, and another project's notification must still go out while they do. Until
// then the worker sent the outbox one row at a time, oldest first, for all projects: a slow
// receiver of one project delayed everyone's notifications (0.5 s to 52 s measured).
import type { AlertRule } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { type AlertsFixture, createAlertsFixture, created } from "./helpers.js";

const MINUTE = 60_000;
const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

/**
 * Project `slug` (made unless it exists) with an app that gets no traffic and `rules` rules on it
 * that fire at the next tick, each notifying a webhook channel per path.
 */
async function quietProjectRule(
  fx: AlertsFixture,
  slug: string,
  paths: readonly string[],
  rules = 1,
): Promise<void> {
  const exists = (await fx.owner.get(`/api/v1/projects/${slug}`)).statusCode === 200;
  if (!exists) {
    await created(fx.owner, "/api/v1/projects", { name: slug, slug });
    await created(fx.owner, `/api/v1/projects/${slug}/apps`, { name: "quiet", slug: "quiet" });
  }
  const channelIds: string[] = [];
  for (const path of paths) {
    const channel = await created(fx.owner, `/api/v1/projects/${slug}/notification-channels`, {
      name: `hook ${path}`,
      type: "webhook",
      url: `${fx.receiver.url}${path}`,
    });
    channelIds.push(channel.id);
  }
  for (let rule = 0; rule < rules; rule++) {
    await created<AlertRule>(fx.owner, `/api/v1/projects/${slug}/alerts`, {
      name: `${slug} has no traffic (${paths.join(", ")}, ${rule + 1})`,
      scope: { app: "quiet" },
      metric: "request_count",
      comparator: "lt",
      threshold: 1,
      window_seconds: 60,
      channel_ids: channelIds,
    });
  }
}

describe.each(metadataBackends())("alert delivery across projects on $name", (backend: MetadataBackend) => {
  describe("with the default bounds", () => {
    let fx: AlertsFixture;
    const slow = ["/a/1", "/a/2", "/a/3", "/a/4", "/a/5", "/a/6"];
    // Long enough that no held send reaches its deadline while the test looks.
    beforeAll(async () => {
      fx = await createAlertsFixture(backend, { ALERTS_SEND_TIMEOUT_SECONDS: "60" });
    });
    afterAll(async () => {
      // A failed assertion must not leave sends held until their deadline.
      for (const path of [...slow, "/c/slow"]) fx?.receiver.release(path);
      await fx?.close();
    });

    it("sends another project's notification while one project's receivers hold its sends", async () => {
      for (const path of slow) fx.receiver.hold(path);
      await quietProjectRule(fx, "shop", slow);
      fx.clock.advance(MINUTE);
      await fx.ctx.deps.alerts.scheduler.tick();
      const run = fx.ctx.deps.alerts.deliveries.runDue();
      const holding = () => slow.reduce((sum, path) => sum + fx.receiver.holding(path), 0);
      // Several of its rows at once, but no more than ALERTS_DELIVERY_PER_PROJECT (4).
      await waitFor(() => expect(holding()).toBe(4));

      // The other project's rule fires while all of those are still unanswered.
      await quietProjectRule(fx, "other", ["/b"]);
      fx.clock.advance(MINUTE);
      await fx.ctx.deps.alerts.scheduler.tick();
      await waitFor(() => expect(fx.receiver.on("/b")).toHaveLength(1));
      expect(holding()).toBe(4);
      expect(slow.flatMap((path) => fx.receiver.on(path))).toEqual([]);
      expect(fx.receiver.arrivals.indexOf("/b")).toBe(4);

      for (const path of slow) fx.receiver.release(path);
      await run;
      await fx.ctx.deps.alerts.deliveries.runDue();
      expect(slow.map((path) => fx.receiver.on(path).length)).toEqual([1, 1, 1, 1, 1, 1]);
    });

    it("sends at most two notifications at once to one channel, not holding its project's others", async () => {
      // Three rules notify one slow channel; a fourth, later, another channel of the project.
      fx.receiver.hold("/c/slow");
      await quietProjectRule(fx, "channels", ["/c/slow"], 3);
      fx.clock.advance(MINUTE);
      await fx.ctx.deps.alerts.scheduler.tick();
      const run = fx.ctx.deps.alerts.deliveries.runDue();
      await waitFor(() => expect(fx.receiver.holding("/c/slow")).toBe(2));

      await quietProjectRule(fx, "channels", ["/c/fast"]);
      fx.clock.advance(MINUTE);
      await fx.ctx.deps.alerts.scheduler.tick();
      await waitFor(() => expect(fx.receiver.on("/c/fast")).toHaveLength(1));
      const arrived = () => fx.receiver.arrivals.filter((path) => path.startsWith("/c/"));
      expect(arrived()).toEqual(["/c/slow", "/c/slow", "/c/fast"]);

      fx.receiver.release("/c/slow");
      await run;
      await fx.ctx.deps.alerts.deliveries.runDue();
      expect(fx.receiver.on("/c/slow")).toHaveLength(3);
    });
  });

  describe("when the overall bound is full", () => {
    let fx: AlertsFixture;
    const slow = ["/a/1", "/a/2", "/a/3", "/a/4"];
    beforeAll(async () => {
      fx = await createAlertsFixture(backend, {
        ALERTS_SEND_TIMEOUT_SECONDS: "60",
        ALERTS_DELIVERY_CONCURRENCY: "2",
        ALERTS_DELIVERY_PER_PROJECT: "2",
      });
    });
    afterAll(async () => {
      // A failed assertion must not leave sends held until their deadline.
      for (const path of slow) fx?.receiver.release(path);
      await fx?.close();
    });

    it("gives the next free slot to the project waiting, not to the busy one's backlog", async () => {
      for (const path of slow) fx.receiver.hold(path);
      await quietProjectRule(fx, "shop", slow);
      fx.clock.advance(MINUTE);
      await fx.ctx.deps.alerts.scheduler.tick();
      const run = fx.ctx.deps.alerts.deliveries.runDue();
      await waitFor(() => expect(fx.receiver.arrivals).toHaveLength(2));
      const [first, second] = fx.receiver.arrivals as [string, string];

      await quietProjectRule(fx, "other", ["/b"]);
      fx.clock.advance(MINUTE);
      await fx.ctx.deps.alerts.scheduler.tick();
      expect(fx.receiver.on("/b")).toEqual([]);

      // One of them ends: the slot goes to the other project, although the first has older rows.
      fx.receiver.release(first);
      await waitFor(() => expect(fx.receiver.on("/b")).toHaveLength(1));
      expect(fx.receiver.arrivals.slice(0, 3)).toEqual([first, second, "/b"]);
      expect(fx.receiver.holding(second)).toBe(1);

      for (const path of slow) fx.receiver.release(path);
      await run;
      await fx.ctx.deps.alerts.deliveries.runDue();
      expect(slow.map((path) => fx.receiver.on(path).length)).toEqual([1, 1, 1, 1]);
    });
  });
});
