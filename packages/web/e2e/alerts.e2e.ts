// The Alerts section against the real server (evaluating every 2 s) and a real webhook receiver:
// channels (a webhook's secret shown once), a rule created with the live preview showing the
// right figures against its threshold, a test notification whose signature verifies, the
// history after an evaluation, edit, mute, delete; what a viewer sees; axe and screenshots.
import { createHmac } from "node:crypto";
import type { AlertRule, Channel, CreatedApiKey } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type HttpReceiver,
  type ReceivedRequest,
  startHttpReceiver,
} from "../../server/test/support/http-receiver";
import { seriousAxeViolations } from "./support/axe";
import { type Opened, sameOriginHeaders } from "./support/browser";
import { type Api, ingest, record, seedCheckout } from "./support/seed";
import { inBothThemes, signedInApi, signedInViewer } from "./support/people";
import { browserSuite } from "./support/suite";
import { checkPage, openFromSidebar } from "./support/check-page";

const dialogOf = (page: Page) => page.getByRole("dialog");
const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"]`).first();

function signatureOf(request: ReceivedRequest, secret: string): string {
  const timestamp = String(request.headers["x-sightline-timestamp"]);
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest("hex")}`;
}

describe.skipIf(inject("browserSkipReason") !== "")("alerts", () => {
  const suite = browserSuite({
    env: { ALERTS_EVAL_INTERVAL_SECONDS: "2", ALERTS_ALLOW_PRIVATE_TARGETS: "true" },
  });
  let receiver: HttpReceiver;
  let owner: Opened;
  let api: Api;
  let secret = "";
  let ruleId = "";

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    owner = await suite.open();
    api = await signedInApi(suite, owner, "owner@example.com");
    const key = await seedCheckout(api);
    // The last minute: 20 requests, 5 of them 500s (a 25 % server error rate); earlier in the day,
    // quiet traffic that stays under any threshold below.
    const now = Date.now();
    await ingest(owner.context.request, key.key, [
      ...Array.from({ length: 15 }, () =>
        record("checkout-api", { timestamp: new Date(now - 20_000).toISOString() }),
      ),
      ...Array.from({ length: 5 }, () =>
        record("checkout-api", { status_code: 500, timestamp: new Date(now - 20_000).toISOString() }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        record("checkout-api", { timestamp: new Date(now - (3 + i) * 3_600_000).toISOString() }),
      ),
    ]);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it("creates channels, showing a webhook's secret once; edits and deletes one", async () => {
    const { page } = owner;
    await openFromSidebar(page, "Alerts");
    expect(new URL(page.url()).pathname).toBe("/projects/shop/alerts");
    await page.getByRole("heading", { name: "No alert rules yet" }).waitFor();

    await page.getByRole("button", { name: "New channel" }).click();
    let dialog = dialogOf(page);
    await dialog.getByLabel("Channel name").fill("On-call hook");
    await dialog.getByLabel("Type").selectOption("webhook");
    await dialog.getByLabel("Webhook URL").fill(`${receiver.url}/hook`);
    await dialog.getByRole("button", { name: "Create channel" }).click();
    secret = (await dialog.locator("[data-secret]").innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole("button", { name: "I've stored it" }).click();
    const row = page.getByRole("row", { name: /On-call hook/ });
    await row.waitFor();
    expect(await row.innerText()).toContain(`${receiver.url}/hook`);
    expect(await page.locator("body").innerText()).not.toContain(secret);
    // Listed without it too: the secret was shown that once.
    const listed = await api.get<Channel[]>("/projects/shop/notification-channels");
    expect(JSON.stringify(listed)).not.toContain(secret);

    await page.getByRole("button", { name: "New channel" }).click();
    dialog = dialogOf(page);
    await dialog.getByLabel("Channel name").fill("Team Slack");
    await dialog.getByLabel("Type").selectOption("slack");
    await dialog.getByLabel("Slack webhook URL").fill(`${receiver.url}/slack/T000/B000/very-secret-path`);
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await page.getByText("Channel “Team Slack” created").waitFor();
    const slackRow = page.getByRole("row", { name: /Team Slack/ });
    await slackRow.waitFor();
    expect(await slackRow.innerText()).not.toContain("very-secret-path");

    await page.getByRole("button", { name: "New channel" }).click();
    dialog = dialogOf(page);
    await dialog.getByLabel("Channel name").fill("Ops mail");
    await dialog.getByLabel("Type").selectOption("email");
    await dialog.getByLabel(/E-mail addresses/).fill("ops@example.com");
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await page.getByText("Channel “Ops mail” created").waitFor();

    await page.getByRole("button", { name: "Edit channel Ops mail" }).click();
    dialog = dialogOf(page);
    await dialog.getByLabel("Channel name").fill("Ops list");
    await dialog.getByLabel(/E-mail addresses/).fill("ops@example.com\noncall@example.com");
    await dialog.getByRole("button", { name: "Save channel" }).click();
    await page.getByText("Channel “Ops list” saved").waitFor();
    const mailRow = page.getByRole("row", { name: /Ops list/ });
    await expect.poll(() => mailRow.innerText()).toContain("oncall@example.com");

    await page.getByRole("button", { name: "Delete channel Ops list" }).click();
    await dialogOf(page).getByRole("button", { name: "Delete channel" }).click();
    await page.getByText("Channel “Ops list” deleted").waitFor();
    await expect.poll(() => page.getByRole("row", { name: /Ops list/ }).count()).toBe(0);
    expect(
      (await api.get<Channel[]>("/projects/shop/notification-channels")).map((c) => c.name).sort(),
    ).toEqual(["On-call hook", "Team Slack"]);
  });

  it("creates a rule with a live preview of its metric against the threshold", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/alerts");
    await page.getByRole("link", { name: "New rule" }).first().click();
    await page.getByRole("heading", { name: "New alert rule" }).waitFor();
    await page.getByLabel("Rule name").fill("Checkout failing");
    await page.getByLabel("App", { exact: true }).selectOption("checkout-api");
    await page.getByLabel("Metric").selectOption("error_rate");
    await page.getByLabel("Counted as errors").selectOption("500");
    await page.getByLabel("Fires when the value is").selectOption("gt");
    // A bad value comes back from the server named on its field, and nothing is created.
    await page.getByLabel("Threshold (%)").fill("");
    await page.getByRole("button", { name: "Create rule" }).click();
    await expect.poll(() => page.getByLabel("Threshold (%)").getAttribute("aria-invalid")).toBe("true");
    expect(await api.get<AlertRule[]>("/projects/shop/alerts")).toEqual([]);
    await page.getByLabel("Threshold (%)").fill("10");
    await page.getByLabel("Window (minutes)").fill("5");
    await page.getByLabel("Minimum requests").fill("10");
    await page.getByLabel("Evaluations in a row").fill("1");
    await page.getByLabel(/On-call hook/).check();

    // 5 of 20 requests in the last 5 minutes failed: 25 %, above the 10 % threshold.
    await expect.poll(() => figure(page, "latest").innerText()).toBe("25.0 %");
    expect(await figure(page, "threshold").innerText()).toBe("> 10.0 %");
    expect(await figure(page, "requests").innerText()).toBe("20");
    expect(await figure(page, "highest").innerText()).toBe("25.0 %");
    // The preview follows the form: a higher threshold is no longer met.
    await page.getByLabel("Threshold (%)").fill("30");
    await expect.poll(() => figure(page, "threshold").innerText()).toBe("> 30.0 %");
    expect(await figure(page, "breaches").innerText()).toBe("never");
    await page.getByLabel("Threshold (%)").fill("10");
    await expect.poll(() => figure(page, "breaches").innerText()).not.toBe("never");
    // The chart: 24 h of one-minute points, the metric and the threshold as two series; its
    // table view holds the same figures, the newest row last.
    const chart = page.getByRole("region", { name: "Preview" }).locator("figure[data-chart]");
    await expect.poll(() => chart.locator("[data-points]").getAttribute("data-points")).toBe("1440");
    expect(await chart.locator("canvas").count()).toBeGreaterThan(0);
    expect(await chart.getByRole("button", { name: "Threshold" }).getAttribute("aria-pressed")).toBe("true");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await chart.getByRole("button", { name: "Show as table" }).click();
    const newest = chart.locator("tbody tr").last();
    expect(await newest.locator("td").allInnerTexts()).toEqual(["25.0 %", "10.0 %"]);
    await chart.getByRole("button", { name: "Show as chart" }).click();

    await page.getByRole("button", { name: "Create rule" }).click();
    await page.getByText("Rule “Checkout failing” created").waitFor();
    await page.waitForURL(/\/projects\/shop\/alerts\/[0-9a-f-]{36}$/);
    ruleId = new URL(page.url()).pathname.split("/").pop() as string;
    const rule = await api.get<AlertRule>(`/projects/shop/alerts/${ruleId}`);
    expect(rule).toMatchObject({
      name: "Checkout failing",
      metric: "error_rate",
      error_status_from: 500,
      comparator: "gt",
      threshold: 10,
      window_seconds: 300,
      min_requests: 10,
      for_evaluations: 1,
      scope: { app: { slug: "checkout-api" }, environment: null, endpoint: null },
    });
    expect(rule.channel_ids).toHaveLength(1);
  });

  it("sends a test notification that a real receiver can verify", async () => {
    const { page } = owner;
    await page.goto(`/projects/shop/alerts/${ruleId}`);
    await page.getByRole("button", { name: "Send test" }).click();
    await page.getByText("Test notification delivered").waitFor();
    expect(await page.getByRole("list", { name: "Test results" }).innerText()).toContain(
      "On-call hook: delivered",
    );
    const test = receiver
      .on("/hook")
      .find((request) => request.headers["x-sightline-event"] === "alert.test");
    expect(test).toBeDefined();
    const received = test as ReceivedRequest;
    expect(received.headers["x-sightline-signature"]).toBe(signatureOf(received, secret));
    expect(received.headers["x-sightline-signature"]).not.toBe(signatureOf(received, "whsec_wrong"));
    expect(JSON.parse(received.body)).toMatchObject({ type: "alert.test", rule: { id: ruleId } });
  });

  it("shows the rule firing in its history after an evaluation, and the notification sent", async () => {
    const { page } = owner;
    await page.goto(`/projects/shop/alerts/${ruleId}`);
    const history = page.getByRole("table", { name: "History" });
    await expect
      .poll(
        async () => {
          if ((await history.count()) === 0) {
            await page.reload();
            await page.getByRole("heading", { name: "History" }).waitFor();
          }
          return history.count();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(1);
    const firing = history.getByRole("row").filter({ hasText: "Firing" }).first();
    await expect.poll(() => firing.innerText(), { timeout: 20_000 }).toContain("25.0 %");
    expect(await firing.innerText()).toContain("20");
    // The webhook hears about it, signed.
    await expect
      .poll(
        () => receiver.on("/hook").filter((r) => r.headers["x-sightline-event"] === "alert.firing").length,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
    await expect.poll(() => firing.innerText(), { timeout: 20_000 }).toMatch(/On-call hook: delivered/);
    const fired = receiver
      .on("/hook")
      .find((r) => r.headers["x-sightline-event"] === "alert.firing") as ReceivedRequest;
    expect(fired.headers["x-sightline-signature"]).toBe(signatureOf(fired, secret));
    await page.getByText("Firing", { exact: true }).first().waitFor();
  });

  it("rotates a webhook's secret: shown once, it signs from then on", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/alerts");
    await page.getByRole("button", { name: "Edit channel On-call hook" }).click();
    const dialog = dialogOf(page);
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await dialog.locator("[data-secret]").innerText()).trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await dialog.getByRole("button", { name: "I've stored it" }).click();
    expect(await page.locator("body").innerText()).not.toContain(rotated);
    const before = receiver.on("/hook").length;
    await page.goto(`/projects/shop/alerts/${ruleId}`);
    await page.getByRole("button", { name: "Send test" }).click();
    await page.getByText("Test notification delivered").waitFor();
    const second = receiver
      .on("/hook")
      .slice(before)
      .find((request) => request.headers["x-sightline-event"] === "alert.test") as ReceivedRequest;
    expect(second.headers["x-sightline-signature"]).toBe(signatureOf(second, rotated));
    expect(second.headers["x-sightline-signature"]).not.toBe(signatureOf(second, secret));
  });

  it("edits the rule, then mutes and unmutes it", async () => {
    const { page } = owner;
    await page.goto(`/projects/shop/alerts/${ruleId}`);
    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await page.getByRole("heading", { name: "Edit “Checkout failing”" }).waitFor();
    expect(await page.getByLabel("Threshold (%)").inputValue()).toBe("10");
    await page.getByLabel("Rule name").fill("Checkout failing badly");
    await page.getByLabel("Threshold (%)").fill("50");
    await expect.poll(() => figure(page, "threshold").innerText()).toBe("> 50.0 %");
    await page.getByRole("button", { name: "Save rule" }).click();
    await page.getByText("Rule “Checkout failing badly” saved").waitFor();
    await page.getByRole("heading", { name: /Checkout failing badly/ }).waitFor();
    expect(await api.get<AlertRule>(`/projects/shop/alerts/${ruleId}`)).toMatchObject({
      name: "Checkout failing badly",
      threshold: 50,
    });
    // A changed condition starts again from OK, recorded in the history.
    await expect
      .poll(async () => page.getByRole("table", { name: "History" }).innerText(), { timeout: 20_000 })
      .toContain("Rule changed");

    await page.getByRole("button", { name: "Mute", exact: true }).click();
    await page.getByRole("menuitem", { name: "Mute for 4 hours" }).click();
    await page
      .getByText(/^Muted until /)
      .first()
      .waitFor();
    const muted = await api.get<AlertRule>(`/projects/shop/alerts/${ruleId}`);
    expect(Date.parse(muted.muted_until as string) - Date.now()).toBeGreaterThan(3.9 * 3_600_000);
    await page.goto("/projects/shop/alerts");
    const row = page.getByRole("row", { name: /Checkout failing badly/ });
    await expect.poll(() => row.innerText()).toContain("Muted");

    await row.getByRole("link", { name: "Checkout failing badly" }).click();
    await page.getByRole("button", { name: "Unmute", exact: true }).click();
    await page.getByText("Rule unmuted").waitFor();
    expect((await api.get<AlertRule>(`/projects/shop/alerts/${ruleId}`)).muted_until).toBeNull();
    await page.getByRole("button", { name: "Mute", exact: true }).waitFor();
  });

  it("shows a state change made on the server while the rule's page stays open", async () => {
    // Its own app, quiet until the page is open: the rule is OK, then traffic arrives, the
    // evaluator (every 2 s) fires it, and the open page must show that without a reload.
    await api.post("/projects/shop/apps", { name: "Live", framework: "fastify" });
    const key = await api.post<CreatedApiKey>("/apps/live/api-keys?project=shop", { name: "ingest" });
    const live = await api.post<AlertRule>("/projects/shop/alerts", {
      name: "Live has traffic",
      scope: { app: "live" },
      metric: "request_count",
      comparator: "gt",
      threshold: 0,
      window_seconds: 120,
      for_evaluations: 1,
      channel_ids: [],
    });
    const { page } = owner;
    await page.goto(`/projects/shop/alerts/${live.id}`);
    const state = page.getByRole("heading", { name: /Live has traffic/ }).locator("[data-state]");
    await expect.poll(() => state.getAttribute("data-state"), { timeout: 10_000 }).toBe("ok");
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    await ingest(owner.context.request, key.key, [record("live")]);
    await expect
      .poll(async () => (await api.get<AlertRule>(`/projects/shop/alerts/${live.id}`)).state, {
        timeout: 20_000,
      })
      .toBe("firing");
    // The rule's query re-reads itself every 15 s; a little more for a loaded machine.
    await expect.poll(() => state.getAttribute("data-state"), { timeout: 25_000 }).toBe("firing");
    expect(await state.innerText()).toContain("Firing");
    expect(navigations, "no reload or navigation").toEqual([]);

    const removed = await owner.context.request.delete(`/api/v1/projects/shop/alerts/${live.id}`, {
      headers: sameOriginHeaders(suite.server),
    });
    expect(removed.ok()).toBe(true);
  });

  it("has every alerts page accessible in light and dark", async () => {
    // One context per theme, as the other page checks do: the same owner in both.
    for (const [theme, { page }] of await inBothThemes(suite, owner, "owner@example.com")) {
      await page.goto("/projects/shop/alerts");
      await page.getByRole("link", { name: "Checkout failing badly" }).waitFor();
      await page.getByRole("row", { name: /On-call hook/ }).waitFor();
      await checkPage(page, "alerts", theme);
      await page.goto(`/projects/shop/alerts/${ruleId}`);
      await page.getByRole("table", { name: "History" }).waitFor();
      await page.locator("figure[data-chart] canvas").first().waitFor();
      await checkPage(page, "alerts-rule", theme);
      await page.goto(`/projects/shop/alerts/${ruleId}/edit`);
      await figure(page, "latest").waitFor();
      await page.locator("figure[data-chart] canvas").first().waitFor();
      await checkPage(page, "alerts-rule-form", theme);
    }
  });

  it("shows a viewer the rules, history and channels without any control", async () => {
    const viewer = await suite.open({ colorScheme: "dark" });
    await signedInViewer(suite, viewer, "viewer@example.com", api);

    const { page } = viewer;
    await page.goto("/projects/shop/alerts");
    await page.getByRole("link", { name: "Checkout failing badly" }).waitFor();
    await page.getByText("Admins and owners of the project change them").waitFor();
    await page.getByRole("row", { name: /On-call hook/ }).waitFor();
    expect(await page.getByRole("link", { name: "New rule" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "New channel" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^(Edit|Delete) channel/ }).count()).toBe(0);
    await checkPage(page, "alerts-viewer", "dark");

    await page.getByRole("link", { name: "Checkout failing badly" }).click();
    await page.getByRole("heading", { name: "History" }).waitFor();
    await page.getByRole("table", { name: "History" }).waitFor();
    for (const name of ["Send test", "Mute", "Unmute", "Delete"]) {
      expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.getByRole("link", { name: "Edit", exact: true }).count()).toBe(0);
    // The server agrees: a viewer's write is refused.
    const refused = await viewer.context.request.delete(`/api/v1/projects/shop/alerts/${ruleId}`, {
      headers: { origin: suite.server.url, "x-sightline-csrf": "1" },
    });
    expect(refused.status()).toBe(403);
  });

  it("deletes the rule", async () => {
    const { page } = owner;
    await page.goto(`/projects/shop/alerts/${ruleId}`);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await dialogOf(page).getByRole("button", { name: "Delete rule" }).click();
    await page.getByText("Rule “Checkout failing badly” deleted").waitFor();
    await page.getByRole("heading", { name: "No alert rules yet" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/alerts");
    const gone = await owner.context.request.get(`/api/v1/projects/shop/alerts/${ruleId}`);
    expect(gone.status()).toBe(404);
    // An old notification's link now says so, instead of showing an empty rule.
    await page.goto(`/projects/shop/alerts/${ruleId}`);
    await page.getByText("Could not load this alert rule").waitFor();
  });
});
