// The Uptime section and the apps' liveness against the real server, whose uptime runner ticks
// every 5 s: a check against a real local HTTP target that answers, then fails; the list shows
// state and uptime, the check page its latency chart and failures; an app that sent a heartbeat
// shows as alive in the apps list, one that never did as without heartbeat. Axe and screenshots
// in light and dark.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { UptimeCheck, UptimeCheckWithUptime, UptimeResults } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Opened } from "./support/browser";
import { type Api, seedCheckout } from "./support/seed";
import { inBothThemes, signedInApi } from "./support/people";
import { browserSuite } from "./support/suite";
import { checkPage, openFromSidebar } from "./support/check-page";

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe.skipIf(inject("browserSkipReason") !== "")("uptime", () => {
  const suite = browserSuite({ env: { ALERTS_ALLOW_PRIVATE_TARGETS: "true" } });
  let owner: Opened;
  let api: Api;
  let target: Server;
  let status = 200;
  let checkId = "";

  beforeAll(async () => {
    target = createServer((_request, response) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(status === 200 ? '{"status":"ok"}' : '{"status":"maintenance"}');
    });
    target.listen(0, "127.0.0.1");
    await once(target, "listening");
    owner = await suite.open();
    api = await signedInApi(suite, owner, "owner@example.com");
    const key = await seedCheckout(api, { more: [{ name: "Billing", framework: "express" }] });
    const beat = await owner.context.request.post("/api/v1/ingest/heartbeat", {
      data: {
        app_id: "checkout-api",
        environment: "production",
        instance_id: "e2e-instance-1",
        sdk: "sightline-node",
        sdk_version: "0.1.0",
        runtime: "node v20.19.0",
      },
      headers: { "x-api-key": key.key },
    });
    expect(beat.ok(), await beat.text()).toBe(true);
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
    checkId = (
      await api.post<UptimeCheck>("/projects/shop/uptime-checks", {
        name: "Checkout health",
        url,
        interval_seconds: 30,
        timeout_ms: 2_000,
        body_contains: '"status":"ok"',
        failure_threshold: 1,
      })
    ).id;
  });

  afterAll(async () => {
    target?.closeAllConnections();
    target?.close();
  });

  it("lists checks with state and uptime, and shows a check's latency and failures", async () => {
    const read = () => api.get<UptimeCheckWithUptime>(`/projects/shop/uptime-checks/${checkId}`);
    await waitFor(read, (item) => item.check.state === "up", "the first good run");
    // The next run (30 s on) fails: wrong body and status, the check goes down (threshold 1).
    status = 503;
    const down = await waitFor(read, (item) => item.check.state === "down", "the failing run");
    expect(down.uptime.last_24h).toBe(50);

    const { page } = owner;
    await openFromSidebar(page, "Uptime");
    const row = page.getByRole("row", { name: /Checkout health/ });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain("Down");
    expect(text).toContain("50 %");

    await page.getByRole("link", { name: "Checkout health" }).click();
    await page.getByRole("heading", { name: "Checkout health" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/shop/uptime/${checkId}`);
    await page.locator("figure[data-chart] canvas").first().waitFor();
    const failures = page.getByRole("table", { name: "Recent failures" });
    await failures.waitFor();
    expect(await failures.innerText()).toContain("answered HTTP 503, expected 200");
    const results = await api.get<UptimeResults>(`/projects/shop/uptime-checks/${checkId}/results`);
    expect(results.items.map((item) => item.ok)).toEqual([false, true]);
  });

  it("shows which apps are alive in the apps list", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/settings/apps");
    await page.getByTestId("alive-checkout-api").waitFor();
    expect(await page.getByTestId("alive-checkout-api").innerText()).toMatch(/Alive\s+last beat/);
    expect(await page.getByTestId("alive-billing").innerText()).toContain("No heartbeat");
  });

  it("has the uptime pages and the apps list accessible in light and dark", async () => {
    for (const [theme, { page }] of await inBothThemes(suite, owner, "owner@example.com")) {
      await page.goto("/projects/shop/uptime");
      await page.getByRole("row", { name: /Checkout health/ }).waitFor();
      await checkPage(page, "uptime", theme);
      await page.goto(`/projects/shop/uptime/${checkId}`);
      await page.locator("figure[data-chart] canvas").first().waitFor();
      await page.getByRole("table", { name: "Recent failures" }).waitFor();
      await checkPage(page, "uptime-check", theme);
      await page.goto("/projects/shop/settings/apps");
      await page.getByTestId("alive-checkout-api").waitFor();
      await checkPage(page, "apps-alive", theme);
    }
  });
});
