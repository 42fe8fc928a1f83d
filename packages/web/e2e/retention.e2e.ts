// A project's retention in its settings (docs/adr/0023): an owner sets the days kept (raw records
// and analytics rollups), they are kept across a reload, the records lists say so when a window
// reaches past them, and a viewer reads them without a control. Axe-clean in light and dark.
import type { CreatedApiKey } from "@sightline/contracts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type Opened, signInFast } from "./support/browser";
import { type Api, apiAs, ingest, record } from "./support/seed";
import { signedInViewer } from "./support/people";
import { browserSuite } from "./support/suite";
import { checkPage } from "./support/check-page";

describe.skipIf(inject("browserSkipReason") !== "")("project retention", () => {
  const suite = browserSuite({
    env: {
      REQUESTS_RETENTION_DAYS: "30",
      LOGS_RETENTION_DAYS: "14",
      SPANS_RETENTION_DAYS: "7",
      ROLLUPS_RETENTION_DAYS: "400",
    },
  });
  let owner: Opened;
  let api: Api;

  beforeAll(async () => {
    owner = await suite.open();
    await signInFast(owner.context, suite.server, "owner@example.com");
    api = apiAs(owner.context.request, suite.server);
    await api.post("/projects", { name: "Shop" });
    await api.post("/projects/shop/apps", { name: "Checkout API", framework: "fastify" });
    const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", { name: "ingest" });
    await ingest(owner.context.request, key.key, [record("checkout-api")]);
  });

  it("lets the owner shorten retention, keeps it across a reload and says so on the requests page", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/settings");
    const requests = page.getByLabel("Requests (days)");
    await requests.waitFor();
    expect(await requests.inputValue()).toBe("30");
    expect(await page.getByLabel("Logs (days)").inputValue()).toBe("14");
    const analytics = page.getByLabel("Analytics (days)");
    expect(await analytics.inputValue()).toBe("400");
    await page.getByText("at most 30 on this server", { exact: false }).waitFor();
    await page.getByText("at most 400 on this server", { exact: false }).waitFor();
    const save = page.getByRole("button", { name: "Save retention" });
    expect(await save.isDisabled()).toBe(true);

    await requests.fill("10");
    await page.getByLabel("Spans (days)").fill("3");
    await analytics.fill("365");
    await save.click();
    await page.getByText("Retention saved").waitFor();
    await page.reload();
    await page.getByLabel("Requests (days)").waitFor();
    expect(await page.getByLabel("Requests (days)").inputValue()).toBe("10");
    expect(await page.getByLabel("Spans (days)").inputValue()).toBe("3");
    expect(await page.getByLabel("Analytics (days)").inputValue()).toBe("365");
    expect(await api.get("/projects/shop/retention")).toMatchObject({
      requests_days: 10,
      logs_days: 14,
      spans_days: 3,
      rollups_days: 365,
    });
    await checkPage(page, "settings-retention", "light");

    // A 30-day window reaches past the 10 days kept: the list says so rather than looking empty.
    await page.goto("/projects/shop/requests?range=30d");
    await page.getByText("Raw requests are kept 10 days").waitFor();
    await page.getByRole("cell", { name: "/orders/42" }).first().waitFor();
    await checkPage(page, "requests-beyond-retention", "light");
    await page.goto("/projects/shop/requests?range=7d");
    await page.getByRole("cell", { name: "/orders/42" }).first().waitFor();
    expect(await page.getByText("Raw requests are kept").count()).toBe(0);
  });

  it("shows a viewer the retention without a control", async () => {
    const viewer = await suite.open({ colorScheme: "dark" });
    await signedInViewer(suite, viewer, "viewer@example.com", api);

    const { page } = viewer;
    await page.goto("/projects/shop/settings");
    const requests = page.getByLabel("Requests (days)");
    await requests.waitFor();
    expect(await requests.inputValue()).toBe("10");
    expect(await requests.isDisabled()).toBe(true);
    const analytics = page.getByLabel("Analytics (days)");
    expect(await analytics.inputValue()).toBe("365");
    expect(await analytics.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save retention" }).count()).toBe(0);
    await page.getByText("Owners and admins change the retention.").waitFor();
    await checkPage(page, "settings-retention-viewer", "dark");

    await page.goto("/projects/shop/logs?range=30d");
    await page.getByText("Raw logs are kept 14 days").waitFor();
    await checkPage(page, "logs-beyond-retention", "dark");
  });
});
