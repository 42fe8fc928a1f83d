// Every link an alert notification carries, for each rule scope (project, app + environment,
// endpoint), opened in the browser as the person who got it would: from the webhook's JSON and
// from the e-mail. Each must land on a dashboard page showing the alert's traffic, never on
// "Page not found".
import type { AlertRule, Channel, CreatedApiKey } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type HttpReceiver, startHttpReceiver } from "../../server/test/support/http-receiver";
import { decodeQuotedPrintable } from "../../server/test/support/mail";
import { seriousAxeViolations } from "./support/axe";
import type { Opened } from "./support/browser";
import { type Api, ingest, record, seedCheckout } from "./support/seed";
import { signedInApi } from "./support/people";
import { browserSuite } from "./support/suite";

const ONCALL = "oncall@example.com";

interface Links {
  readonly rule: string;
  readonly dashboard: string;
}

const kpi = (page: Page, label: string) =>
  page.locator(`dl[aria-label="Key figures"] dt:text-is("${label}") + dd`);

describe.skipIf(inject("browserSkipReason") !== "")("alert notification links", () => {
  const suite = browserSuite({ smtp: true, env: { ALERTS_ALLOW_PRIVATE_TARGETS: "true" } });
  let receiver: HttpReceiver;
  let owner: Opened;
  let api: Api;
  let channelIds: string[] = [];

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    owner = await suite.open();
    api = await signedInApi(suite, owner, "owner@example.com");
    const checkout = await seedCheckout(api, {
      keyName: "c",
      more: [{ name: "Billing", framework: "django" }],
    });
    const billing = await api.post<CreatedApiKey>("/apps/billing/api-keys?project=shop", { name: "b" });
    const at = new Date(Date.now() - 20_000).toISOString();
    // Project: 15 requests; checkout-api in production: 8; its POST /orders: 2, both failing.
    await ingest(owner.context.request, checkout.key, [
      ...Array.from({ length: 6 }, () => record("checkout-api", { timestamp: at })),
      ...Array.from({ length: 2 }, () =>
        record("checkout-api", {
          timestamp: at,
          method: "POST",
          path: "/orders",
          route: "/orders",
          status_code: 500,
        }),
      ),
      ...Array.from({ length: 3 }, () => record("checkout-api", { timestamp: at, environment: "staging" })),
    ]);
    await ingest(
      owner.context.request,
      billing.key,
      Array.from({ length: 4 }, () => record("billing", { timestamp: at })),
    );
    const hook = await api.post<Channel>("/projects/shop/notification-channels", {
      name: "Hook",
      type: "webhook",
      url: `${receiver.url}/hook`,
    });
    const mail = await api.post<Channel>("/projects/shop/notification-channels", {
      name: "Mail",
      type: "email",
      addresses: [ONCALL],
    });
    channelIds = [hook.id, mail.id];
  });

  afterAll(async () => {
    await receiver?.close();
  });

  /** Creates the rule, sends a test notification, and returns the links of the webhook and the e-mail. */
  async function linksOf(
    name: string,
    scope: Record<string, unknown>,
  ): Promise<{ hook: Links; mail: Links }> {
    const rule = await api.post<AlertRule>("/projects/shop/alerts", {
      name,
      scope,
      metric: "request_count",
      comparator: "gt",
      threshold: 1000,
      window_seconds: 900,
      channel_ids: channelIds,
    });
    const mailsBefore = suite.smtp.mailsTo(ONCALL).length;
    const hooksBefore = receiver.on("/hook").length;
    await api.post(`/projects/shop/alerts/${rule.id}/test`);
    const hookCall = receiver.on("/hook")[hooksBefore];
    expect(hookCall, "webhook call").toBeDefined();
    const hook = (JSON.parse(hookCall?.body ?? "{}") as { links: Links }).links;
    const raw = decodeQuotedPrintable((await suite.smtp.waitForMail(ONCALL, { after: mailsBefore })).raw);
    const dashboard = /^Dashboard: (\S+)$/m.exec(raw)?.[1];
    const ruleLink = /^Rule: (\S+)$/m.exec(raw)?.[1];
    expect(dashboard, "e-mail dashboard link").toBeDefined();
    // The HTML part links the same pages.
    const href = /<a href="([^"]+)">Open the dashboard<\/a>/.exec(raw)?.[1]?.replace(/&#38;|&amp;/g, "&");
    expect(href).toBe(dashboard);
    return { hook, mail: { dashboard: dashboard ?? "", rule: ruleLink ?? "" } };
  }

  /** Opens the dashboard link (its figures must show) and the rule link (the rule's page). */
  async function opens(links: Links, ruleName: string, figures: Record<string, string>): Promise<void> {
    const { page } = owner;
    expect(links.dashboard.startsWith(`${suite.server.url}/`)).toBe(true);
    await page.goto(links.dashboard);
    await page.locator('dl[aria-label="Key figures"]').waitFor();
    for (const [label, value] of Object.entries(figures)) {
      await expect.poll(() => kpi(page, label).textContent(), { timeout: 15_000 }).toBe(value);
    }
    expect(await page.getByRole("heading", { name: "Page not found" }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goto(links.rule);
    await page.getByRole("heading", { name: ruleName }).first().waitFor();
    expect(await page.getByRole("heading", { name: "Page not found" }).count()).toBe(0);
  }

  it("a project-scoped rule's links open the project's overview with its traffic", async () => {
    const { hook, mail } = await linksOf("Project-wide volume", {});
    expect(mail).toEqual(hook);
    await opens(hook, "Project-wide volume", { Requests: "15" });
  });

  it("an app-scoped rule's links open the overview filtered to the app and environment", async () => {
    const { hook, mail } = await linksOf("Checkout volume", {
      app: "checkout-api",
      environment: "production",
    });
    expect(mail).toEqual(hook);
    const url = new URL(hook.dashboard);
    expect(url.searchParams.get("app")).toBe("checkout-api");
    expect(url.searchParams.get("env")).toBe("production");
    await opens(hook, "Checkout volume", { Requests: "8" });
  });

  it("an endpoint-scoped rule's links open the endpoint's page", async () => {
    const { hook, mail } = await linksOf("Orders volume", {
      app: "checkout-api",
      endpoint: { method: "POST", route: "/orders" },
    });
    expect(mail).toEqual(hook);
    expect(new URL(hook.dashboard).pathname).toBe("/projects/shop/endpoints/detail");
    await opens(hook, "Orders volume", { Requests: "2", "Error rate": "100.0 %" });
  });
});
