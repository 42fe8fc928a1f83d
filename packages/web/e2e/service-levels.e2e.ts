// Issue 26's dashboard additions against the real server: the uptime check form (create with the
// API's refusals shown under their fields, edit, delete after confirming; a viewer reads without
// controls), an "app silent" rule made in the rule editor, and the endpoint page's top validation
// errors by field from records sent through ingest. Axe and screenshots in light and dark.
import type { AlertRule, CreatedApiKey, UptimeCheckWithUptime } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type Opened, signInFast } from "./support/browser";
import { type Api, apiAs, ingest, record } from "./support/seed";
import { signedInViewer } from "./support/people";
import { browserSuite } from "./support/suite";
import { checkPage } from "./support/check-page";

/** The error a field shows (its aria-describedby text), once the field is marked invalid. */
async function fieldError(page: Page, label: string | RegExp): Promise<string> {
  const field = typeof label === "string" ? page.getByLabel(label, { exact: true }) : page.getByLabel(label);
  await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
  const id = await field.getAttribute("aria-describedby");
  return page.locator(`[id="${id}"]`).innerText();
}

/** Optional fields' labels say so after the name. */
const HEADERS = /^Headers/;
const BODY_CONTAINS = /^Body contains/;
const ENDPOINT = "/projects/shop/endpoints/detail?app=checkout-api&method=POST&path=%2Forders";

describe.skipIf(inject("browserSkipReason") !== "")("service levels", () => {
  const suite = browserSuite({ env: { ALERTS_ALLOW_PRIVATE_TARGETS: "true" } });
  let owner: Opened;
  let dark: Opened;
  let api: Api;

  beforeAll(async () => {
    owner = await suite.open();
    await signInFast(owner.context, suite.server, "owner@example.com");
    dark = await suite.open({ colorScheme: "dark" });
    await signInFast(dark.context, suite.server, "owner@example.com");
    api = apiAs(owner.context.request, suite.server);
    await api.post("/projects", { name: "Shop" });
    await api.post("/projects/shop/apps", { name: "Checkout API", framework: "fastify" });
    await api.post("/projects/shop/notification-channels", {
      name: "On-call",
      type: "email",
      addresses: ["oncall@example.com"],
    });
    const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", { name: "ingest" });
    const order = { method: "POST", path: "/orders", route: "/orders" };
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
    const refused = (secondsAgo: number, errors: Array<[string, string, string]>) =>
      record("checkout-api", {
        ...order,
        timestamp: at(secondsAgo),
        status_code: 422,
        validation_errors: errors.map(([path, rule, message]) => ({ path, rule, message })),
      });
    // Four refused requests: body.email/format in three (75 %), body.qty/minimum in two (50 %,
    // three occurrences), the whole input once (25 %); accepted requests change no share.
    await ingest(owner.context.request, key.key, [
      refused(60, [
        ["body.email", "format", 'must match format "email"'],
        ["body.qty", "minimum", "must be >= 1"],
        ["body.qty", "minimum", "must be >= 1"],
      ]),
      refused(120, [["body.email", "format", 'must match format "email"']]),
      refused(180, [
        ["body.email", "format", 'must match format "email"'],
        ["body.qty", "minimum", "must be >= 1"],
      ]),
      refused(240, [["", "type", "must be object"]]),
      ...Array.from({ length: 6 }, (_, i) =>
        record("checkout-api", { ...order, status_code: 201, timestamp: at(30 + i) }),
      ),
    ]);
  });

  it("creates an uptime check, showing the API's refusals under their fields, then edits and deletes it", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/uptime");
    await page.getByRole("heading", { name: "No uptime checks yet" }).waitFor();
    await page.getByRole("link", { name: "New check" }).click();
    await page.getByRole("heading", { name: "New uptime check" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/uptime/new");

    await page.getByLabel("Check name", { exact: true }).fill("Orders health");
    await page.getByLabel("URL", { exact: true }).fill("ftp://example.com/health");
    await page.getByLabel("Interval (seconds)", { exact: true }).fill("10");
    await page.getByRole("button", { name: "Create check" }).click();
    expect(await fieldError(page, "Interval (seconds)")).toMatch(/30/);
    await page.getByText("Check the fields marked above.").waitFor();
    await checkPage(page, "uptime-check-form-errors", "light");

    await page.getByLabel("Interval (seconds)", { exact: true }).fill("45");
    await page.getByLabel(HEADERS).fill("Bad Header: x");
    await page.getByRole("button", { name: "Create check" }).click();
    expect(await fieldError(page, HEADERS)).not.toBe("");

    await page.getByLabel(HEADERS).fill("Accept: application/json\nX-Probe: sightline");
    await page.getByRole("button", { name: "Create check" }).click();
    expect(await fieldError(page, "URL")).toMatch(/http/);

    await page.getByLabel("URL", { exact: true }).fill("http://127.0.0.1:9/health");
    await page.getByLabel(BODY_CONTAINS).fill('"status":"ok"');
    await page.getByLabel("Failures in a row before the alert", { exact: true }).fill("2");
    await page.getByLabel("On-call (e-mail)").check();
    await page.getByRole("button", { name: "Create check" }).click();
    await page.getByRole("heading", { name: "Orders health" }).waitFor();
    const checkId = new URL(page.url()).pathname.split("/").pop() ?? "";
    const created = await api.get<UptimeCheckWithUptime>(`/projects/shop/uptime-checks/${checkId}`);
    expect(created.check).toMatchObject({
      name: "Orders health",
      url: "http://127.0.0.1:9/health",
      method: "GET",
      headers: { Accept: "application/json", "X-Probe": "sightline" },
      interval_seconds: 45,
      timeout_ms: 10_000,
      expected_status: 200,
      body_contains: '"status":"ok"',
      failure_threshold: 2,
      enabled: true,
    });
    expect(created.check.channel_ids).toHaveLength(1);

    await page.getByRole("link", { name: "Edit", exact: true }).click();
    await page.getByRole("heading", { name: "Edit “Orders health”" }).waitFor();
    expect(await page.getByLabel(HEADERS).inputValue()).toBe("Accept: application/json\nX-Probe: sightline");
    await checkPage(page, "uptime-check-edit", "light");
    await page.getByLabel("Method", { exact: true }).selectOption("HEAD");
    await page.getByLabel("Interval (seconds)", { exact: true }).fill("120");
    await page.getByLabel("Timeout (ms)", { exact: true }).fill("5000");
    await page.getByLabel("Expected status", { exact: true }).fill("204");
    await page.getByLabel(BODY_CONTAINS).fill("");
    await page.getByRole("button", { name: "Save check" }).click();
    await page.getByText("every 120 s").waitFor();
    expect(
      (await api.get<UptimeCheckWithUptime>(`/projects/shop/uptime-checks/${checkId}`)).check,
    ).toMatchObject({
      method: "HEAD",
      interval_seconds: 120,
      timeout_ms: 5000,
      expected_status: 204,
      body_contains: null,
    });

    // The dark theme's form, with a refusal showing.
    await dark.page.goto(`/projects/shop/uptime/${checkId}/edit`);
    await dark.page.getByLabel("Timeout (ms)", { exact: true }).fill("50");
    await dark.page.getByRole("button", { name: "Save check" }).click();
    expect(await fieldError(dark.page, "Timeout (ms)")).toMatch(/100/);
    await checkPage(dark.page, "uptime-check-form-errors", "dark");
    await dark.page.goto(`/projects/shop/uptime/${checkId}/edit`);
    await dark.page.getByLabel("Check name", { exact: true }).waitFor();
    await checkPage(dark.page, "uptime-check-edit", "dark");

    // A viewer reads the check, without the controls; the form says who may change it.
    const viewer = await suite.open();
    await signedInViewer(suite, viewer, "viewer@example.com", api);
    await viewer.page.goto("/projects/shop/uptime");
    await viewer.page.getByRole("link", { name: "Orders health" }).waitFor();
    expect(await viewer.page.getByRole("link", { name: "New check" }).count()).toBe(0);
    await viewer.page.getByRole("link", { name: "Orders health" }).click();
    await viewer.page.getByRole("heading", { name: "Orders health" }).waitFor();
    expect(await viewer.page.getByRole("link", { name: "Edit", exact: true }).count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await viewer.page.goto(`/projects/shop/uptime/${checkId}/edit`);
    await viewer.page
      .getByText("Only admins and owners of the project create and change uptime checks.")
      .waitFor();
    expect(await viewer.page.getByRole("button", { name: "Save check" }).isDisabled()).toBe(true);
    await checkPage(viewer.page, "uptime-check-viewer", "light");

    // Delete, after confirming.
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Delete “Orders health”?" }).waitFor();
    await checkPage(page, "uptime-check-delete", "light");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await api.get<UptimeCheckWithUptime[]>("/projects/shop/uptime-checks")).length).toBe(1);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete check" }).click();
    await page.getByRole("heading", { name: "No uptime checks yet" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/uptime");
    expect(await api.get<UptimeCheckWithUptime[]>("/projects/shop/uptime-checks")).toEqual([]);
  });

  it("makes an 'app silent' rule in the rule editor", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/alerts/new");
    await page.getByRole("heading", { name: "New alert rule" }).waitFor();
    await page.getByLabel("Rule name", { exact: true }).fill("Checkout silent");
    await page.getByLabel("App", { exact: true }).selectOption("checkout-api");
    await page.getByLabel("Kind", { exact: true }).selectOption("silence");
    expect(await page.getByLabel("Endpoint", { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByLabel("Minimum requests", { exact: true }).count()).toBe(0);
    expect(await page.getByLabel("Threshold", { exact: true }).count()).toBe(0);
    await page.getByLabel("Silent for (minutes)", { exact: true }).fill("1");
    await page.getByRole("button", { name: "Create rule" }).click();
    expect(await fieldError(page, "Silent for (minutes)")).toMatch(/at least 2 minutes/);
    expect(await page.getByText("An anomaly rule learns its band").count()).toBe(0);
    await checkPage(page, "alert-rule-silence", "light");
    await page.getByLabel("Silent for (minutes)", { exact: true }).fill("15");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.getByRole("heading", { name: "Checkout silent" }).waitFor();
    await page.getByText("no heartbeat for 15 min").first().waitFor();
    const rules = await api.get<AlertRule[]>("/projects/shop/alerts");
    expect(rules.find((rule) => rule.name === "Checkout silent")).toMatchObject({
      kind: "silence",
      metric: "silent_minutes",
      window_seconds: 900,
      min_requests: 0,
      for_evaluations: 1,
      scope: { app: { slug: "checkout-api" }, environment: null, endpoint: null },
    });
    await dark.page.goto(new URL(page.url()).pathname);
    await dark.page.getByRole("heading", { name: "Checkout silent" }).waitFor();
    await checkPage(dark.page, "alert-rule-silence-detail", "dark");
  });

  it("shows the endpoint's top validation errors by field with their share", async () => {
    for (const [theme, page] of [
      ["light", owner.page],
      ["dark", dark.page],
    ] as const) {
      await page.goto(ENDPOINT);
      const table = page.getByRole("table", { name: "Validation errors by field and rule" });
      await table.waitFor();
      const rows = await table.getByRole("row").allInnerTexts();
      expect(
        rows.slice(1).map((row) =>
          row
            .split(/\t|\n/)
            .map((cell) => cell.trim())
            .filter(Boolean),
        ),
      ).toEqual([
        ["body.email", "format", "3", "75.0 %", 'must match format "email"'],
        ["body.qty", "minimum", "3", "50.0 %", "must be >= 1"],
        ["(whole input)", "type", "1", "25.0 %", "must be object"],
      ]);
      await table.scrollIntoViewIfNeeded();
      await checkPage(page, "endpoint-validation-errors", theme);
    }
    const { page } = owner;
    await page.getByRole("link", { name: "Refused requests of this endpoint" }).click();
    await page.getByRole("heading", { name: "Requests", exact: true, level: 1 }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe("/projects/shop/requests");
    expect(url.searchParams.get("codes")).toBe("400,422");
    expect(url.searchParams.get("route")).toBe("/orders");
  });
});
