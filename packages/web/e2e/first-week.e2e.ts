// What a first week of real use trips over (issue 23 §1, items 6, 8, 9 and 10), on a small
// dataset sent through the real ingest routes: a next step once the first request is in, empty
// lists that say how to send their data, change badges that say "new" or percentage points, the
// request drawer (scheme, validation errors, the exception a 500 logged, focus, j/k), `/` to
// search, the phone layout, one page for an unknown project, the sidebar on Account, endpoint
// detail's way back and changes, the log's request, and 4xx/5xx told apart by shape.
import type { CreatedApiKey } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";
import { ingest, ingestLogs, logRecord, record } from "./support/seed";
import { checkoutOwner } from "./support/people";
import { browserSuite } from "./support/suite";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const MINUTE = 60_000;
const LONG_ROUTE = "/api/v1/organisations/{organisationId}/subscriptions/{subscriptionId}/invoices";

/** Opens the Overview over `range` and returns its chart `label` once drawn, its `ticks` written out. */
async function drawnChart(page: Page, range: string, label: string, ticks: "data-x-ticks" | "data-y-ticks") {
  await page.goto(`/projects/shop?range=${range}`);
  const figure = page.locator(`figure[aria-label="${label}"]`);
  await figure.locator("canvas").first().waitFor();
  await expect.poll(() => figure.getAttribute(ticks)).not.toBeNull();
  return figure;
}

describe.skipIf(inject("browserSkipReason") !== "")("a first week of use", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "ada@example.com", { seed: { framework: "express" } });

  beforeAll(async () => {
    await me.api.post("/projects", { name: "Quiet" });
    // Steady: 20 requests in each of the last two hours, 2 then 4 failing (10 % then 20 %).
    await me.api.post("/projects", { name: "Steady" });
    await me.api.post("/projects/steady/apps", { name: "Steady API", framework: "express" });
    const steadyKey = await me.api.post<CreatedApiKey>("/apps/steady-api/api-keys?project=steady", {
      name: "ingest",
    });
    const steadyNow = Date.now();
    const steady = [0, 1].flatMap((hour) =>
      Array.from({ length: 20 }, (_, index) =>
        record("steady-api", {
          timestamp: new Date(steadyNow - hour * 60 * MINUTE - (index + 1) * 2 * MINUTE).toISOString(),
          status_code: index < (hour === 0 ? 4 : 2) ? 500 : 200,
        }),
      ),
    );
    expect(await ingest(me.context.request, steadyKey.key, steady)).toMatchObject({ accepted: 40 });
    const now = Date.now();
    // The hour before the last one had a single request: the change badges say "new".
    const older = [record("checkout-api", { timestamp: new Date(now - 90 * MINUTE).toISOString() })];
    const recent = Array.from({ length: 30 }, (_, index) =>
      record("checkout-api", {
        timestamp: new Date(now - (index + 2) * MINUTE).toISOString(),
        status_code: index < 3 ? 404 : 200,
        // A few slow ones: a 3 s p99 above an 18 ms p50.
        response_time_ms: index % 10 === 5 ? 3000 : 18.4,
      }),
    );
    const special = [
      record("checkout-api", {
        timestamp: new Date(now - 60_000).toISOString(),
        path: `/api/v1/organisations/org-1/subscriptions/sub-1/invoices`,
        route: LONG_ROUTE,
      }),
      record("checkout-api", {
        timestamp: new Date(now - 50_000).toISOString(),
        method: "POST",
        path: "/orders",
        route: "/orders",
        status_code: 422,
        scheme: "http",
        request_headers: { host: "shop.local:3000" },
        validation_errors: [{ path: "body.email", rule: "format", message: 'must match format "email"' }],
      }),
      record("checkout-api", {
        timestamp: new Date(now - 40_000).toISOString(),
        method: "POST",
        path: "/orders/7/pay",
        route: "/orders/{id}/pay",
        status_code: 500,
        trace_id: TRACE,
      }),
    ];
    expect(await ingest(me.context.request, me.key.key, [...older, ...recent, ...special])).toMatchObject({
      rejected: 0,
    });
    await ingestLogs(me.context.request, me.key.key, [
      logRecord("checkout-api", {
        timestamp: new Date(now - 40_000).toISOString(),
        level: "ERROR",
        message: "TypeError: card is undefined",
        logger_name: "sightline.errors",
        payload: "TypeError: card is undefined\n    at pay (/srv/app/orders.js:42:17)",
        trace_id: TRACE,
        endpoint_method: "POST",
        endpoint_path: "/orders/7/pay",
      }),
    ]);
  });

  const kpiMeta = (page: Page, label: string) =>
    page.locator(`dl[aria-label="Key figures"] dt:text-is("${label}") ~ dd`).nth(1);

  it("6: once the first request is in, setup offers the Overview and the requests", async () => {
    const { page } = me;
    await page.goto("/projects/shop/setup?app=checkout-api");
    const received = page.locator("[data-state='received']");
    await received.getByText("First request received").waitFor();
    await received.getByRole("link", { name: "See requests" }).waitFor();
    await received.getByRole("link", { name: "Open the Overview" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop");
  });

  it("6: empty Requests, Logs and Traces pages say how to send that data", async () => {
    const { page } = me;
    for (const [path, kind, snippet] of [
      ["requests", "requests", "npm install @sightline/node"],
      ["logs", "logs", "sightlinePinoStream"],
      ["traces", "traces", "OTEL_EXPORTER_OTLP_ENDPOINT"],
    ] as const) {
      await page.goto(`/projects/quiet/${path}`);
      const hint = page.getByRole("region", { name: `How to send ${kind}` });
      await hint.waitFor();
      expect(await hint.innerText()).toContain(snippet);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it("8: a change against an almost empty period says 'new'", async () => {
    const { page } = me;
    await page.goto("/projects/shop?range=1h");
    await page.locator('dl[aria-label="Key figures"]').waitFor();
    await expect.poll(() => kpiMeta(page, "Requests").textContent()).toBe("new");
    expect(await kpiMeta(page, "Error rate").textContent()).toBe("new");

    // Against a real previous period: 10 % then 20 % is +10 percentage points, not "+100 %".
    await page.goto("/projects/steady?range=1h");
    await page.locator('dl[aria-label="Key figures"]').waitFor();
    await expect.poll(() => kpiMeta(page, "Error rate").textContent()).toBe("+10.0 pp vs previous");
    expect(await kpiMeta(page, "Requests").textContent()).toBe("0.0 % vs previous");
  });

  it("8: endpoint paths wrap after a slash, never inside a segment", async () => {
    const { page } = me;
    await page.setViewportSize({ width: 820, height: 860 });
    try {
      await page.goto("/projects/shop?range=1h");
      const link = page.locator('table[aria-label="Endpoints"] a').filter({ hasText: "invoices" });
      await link.waitFor();
      // Every character whose line differs from the one before it starts a new line: the
      // character ending the previous line must be a slash.
      const breaks = await link.evaluate((element) => {
        const found: string[] = [];
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        let previous: { char: string; top: number } | null = null;
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent ?? "";
          for (let i = 0; i < text.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const top = range.getBoundingClientRect().top;
            if (previous !== null && top > previous.top + 2) found.push(previous.char);
            previous = { char: text[i] as string, top };
          }
        }
        return found;
      });
      expect(breaks.length).toBeGreaterThan(0);
      for (const char of breaks) expect(char).toBe("/");
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("8: the latency chart reads p50 beside a 3 s p99 on a log scale", async () => {
    const { page } = me;
    const figure = await drawnChart(page, "1h", "Latency percentiles over time", "data-y-ticks");
    // Linear: from 0 up past 3 s, nothing near the 18 ms p50 but the zero line.
    expect((await figure.getAttribute("data-y-ticks"))?.split("|")).not.toContain("10.0 ms");
    await figure.getByRole("button", { name: "Log scale" }).click();
    expect(await figure.getByRole("button", { name: "Log scale" }).getAttribute("aria-pressed")).toBe("true");
    await expect
      .poll(async () => (await figure.getAttribute("data-y-ticks"))?.split("|"))
      .toContain("10.0 ms");
    expect((await figure.getAttribute("data-y-ticks"))?.split("|")).toContain("1.00 s");
  });

  it("8: chart axes use the dashboard's date style ('25 Nov', 24 h), not US dates", async () => {
    const { page } = me;
    const figure = await drawnChart(page, "7d", "Requests over time by status class", "data-x-ticks");
    const ticks = ((await figure.getAttribute("data-x-ticks")) ?? "").split("|");
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^(\d{1,2} [A-Z][a-z]{2}|\d{2}:\d{2})$/);
    expect(ticks.some((tick) => /^\d{1,2} [A-Z][a-z]{2}$/.test(tick))).toBe(true);
  });

  it("8, 10: endpoint detail leads back, and its error-rate change is in percentage points", async () => {
    const { page } = me;
    // Six hours: the previous six had the one older request of the same endpoint, and this
    // window 32 of which 3 failed (9.4 %); the six hours before had 0 %: +9.4 pp, not a ratio.
    await page.goto(
      "/projects/shop/endpoints/detail?app=checkout-api&method=GET&path=%2Forders%2F%7Bid%7D&range=24h",
    );
    await page.getByRole("heading", { level: 1 }).filter({ hasText: "/orders/{id}" }).waitFor();
    await page.locator('dl[aria-label="Key figures"]').waitFor();
    // KPI changes against the previous day, which had none of these requests.
    await expect.poll(() => kpiMeta(page, "Requests").textContent()).toBe("new");
    const back = page.getByRole("navigation", { name: "Back" }).getByRole("link", { name: /Overview/ });
    expect(await back.count()).toBe(1);
    await back.click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    expect(new URL(page.url()).searchParams.get("range")).toBe("24h");
  });

  it("10: the drawer copies cURL with the record's scheme, shows validation errors and the logged exception", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h&status=4xx");
    await page.locator("tr[data-request-id]").first().waitFor();
    const row422 = page.locator("tr[data-request-id]").filter({ hasText: "422" });
    await row422.click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("region", { name: "Validation errors" }).getByText("body.email").waitFor();
    const curl = await drawer.locator("pre").filter({ hasText: "curl -X POST" }).innerText();
    expect(curl).toContain("'http://shop.local:3000/orders'");
    // 4xx and 5xx pills differ by more than hue: the border's style tells them apart.
    const pillBorder = (code: number) =>
      page
        .locator(`tr[data-request-id] span[title]`)
        .filter({ hasText: String(code) })
        .first()
        .evaluate((element) => getComputedStyle(element).borderStyle + getComputedStyle(element).borderWidth);
    await page.keyboard.press("Escape");
    await page.goto("/projects/shop/requests?range=1h&status=4xx,5xx");
    await page.locator("tr[data-request-id]").filter({ hasText: "500" }).waitFor();
    expect(await pillBorder(404)).not.toBe(await pillBorder(500));

    await page.locator("tr[data-request-id]").filter({ hasText: "500" }).click();
    const exception = page.getByRole("dialog").getByRole("region", { name: "Logged exception" });
    await exception.waitFor();
    expect(await exception.innerText()).toContain("at pay (/srv/app/orders.js:42:17)");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "request-drawer-exception", "light");
    await page.keyboard.press("Escape");
  });

  it("9: closing the drawer returns focus to its row; j/k step through records inside it", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    const rows = page.locator("tr[data-request-id]");
    await rows.nth(2).waitFor();
    const second = await rows.nth(1).getAttribute("data-request-id");
    const third = await rows.nth(2).getAttribute("data-request-id");
    await rows.nth(1).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get("req")).toBe(second);
    await page.getByRole("dialog").getByRole("heading").first().waitFor();
    await page.keyboard.press("j");
    await expect.poll(() => new URL(page.url()).searchParams.get("req")).toBe(third);
    // The URL changes before the drawer renders the step: wait until it shows the third record.
    await page
      .getByRole("dialog")
      .getByText(third ?? "", { exact: true })
      .waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    // Radix hands focus back after its close animation: wait for the settled state.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-request-id") ?? null), {
        timeout: 10_000,
      })
      .toBe(third);
  });

  it("9: '/' focuses the page's search; 10: a log names the request it was logged in", async () => {
    const { page } = me;
    await page.goto("/projects/shop/logs?range=1h");
    const row = page.locator("tr[data-log-id]").first();
    await row.waitFor();
    expect(await row.innerText()).toContain("POST /orders/7/pay");
    await page.locator("body").click({ position: { x: 5, y: 400 } });
    await page.keyboard.press("/");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe(
      "search",
    );
    expect(await page.getByRole("searchbox", { name: "Search" }).inputValue()).toBe("");
  });

  it("9: under 768 px the sidebar waits behind a menu button and nothing overflows", async () => {
    const { page } = me;
    await page.setViewportSize({ width: 375, height: 760 });
    try {
      await page.goto("/projects/shop/requests?range=1h");
      await page.locator("tr[data-request-id]").first().waitFor();
      expect(await page.getByRole("complementary", { name: "Sidebar" }).isVisible()).toBe(false);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const heading = await page.getByRole("heading", { name: "Requests", level: 1 }).boundingBox();
      expect(heading?.y ?? 9999).toBeLessThan(200);
      await page.getByRole("button", { name: "Menu" }).click();
      await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Logs" }).click();
      await page.getByRole("heading", { name: "Logs", level: 1 }).waitFor();
      expect(await page.getByRole("complementary", { name: "Sidebar" }).isVisible()).toBe(false);
      await screenshot(page, "phone-logs", "light");
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it("10: Account keeps the current project in the sidebar; an unknown project is one page", async () => {
    const { page } = me;
    await page.goto("/projects/shop");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    await page.goto("/account");
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Requests" }).waitFor();

    await page.goto("/projects/no-such-project/requests");
    await page.getByRole("heading", { name: "Project not found or no access" }).waitFor();
    // Settled: the page's own cards were replaced, not left failing beside the message.
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Project not found or no access" }).count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
