// Comparing periods against the real server: the switch in the filter bar lays the previous
// period of the same length over the Overview's and the Errors page's charts as a dashed series
// whose figures (read through "Show as table") are the previous hour's, kept in the URL; the
// charts stay draggable to zoom; the bench's "sightline:comparison-painted" mark comes only once
// the KPI changes and the overlay are on screen; clean under axe in light and dark.
import type { BrowserContext, Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";
import { ingest, record } from "./support/seed";
import { checkoutOwner, inBothThemes } from "./support/people";
import { browserSuite } from "./support/suite";

const MINUTE = 60_000;

/** The figures of one column of a chart's table view, summed. */
async function columnSum(chart: Locator, column: string): Promise<number> {
  await chart.getByRole("button", { name: "Show as table" }).click();
  const table = chart.getByRole("table");
  const headers = await table.locator("thead th").allInnerTexts();
  const index = headers.indexOf(column);
  expect(index, `${column} in ${headers.join(", ")}`).toBeGreaterThan(0);
  const cells = await table.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts();
  await chart.getByRole("button", { name: "Show as chart" }).click();
  return cells.reduce((sum, text) => sum + Number(text.replace(/[^0-9.]/g, "")), 0);
}

/**
 * Opens `path` in a fresh tab that notes when each of `texts` first shows up in the page, and
 * answers those moments with the two marks' times (ms from navigation start).
 */
async function paintTimes(context: BrowserContext, path: string, texts: string[]) {
  const page = await context.newPage();
  try {
    await page.addInitScript((needles: string[]) => {
      const seen: Record<string, number> = {};
      Object.assign(globalThis, { seenTexts: seen });
      new MutationObserver(() => {
        const text = document.body?.textContent ?? "";
        for (const needle of needles)
          if (seen[needle] === undefined && text.includes(needle)) seen[needle] = performance.now();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    }, texts);
    await page.goto(path);
    await page.waitForFunction(() => performance.getEntriesByName("sightline:comparison-painted").length > 0);
    return await page.evaluate(() => ({
      data: performance.getEntriesByName("sightline:data-painted")[0]?.startTime,
      comparison: performance.getEntriesByName("sightline:comparison-painted")[0]?.startTime,
      seen: (globalThis as unknown as { seenTexts: Record<string, number> }).seenTexts,
    }));
  } finally {
    await page.close();
  }
}

const compareSwitch = (page: Page) => page.getByRole("switch", { name: "Compare with the previous period" });

describe.skipIf(inject("browserSkipReason") !== "")("comparing periods", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "cora@example.com");

  beforeAll(async () => {
    const now = Date.now();
    // This hour: 4 requests, one a 500. The hour before: 7, two of them 500.
    const current = [5, 10, 15, 20].map((minutes, index) =>
      record("checkout-api", {
        timestamp: new Date(now - minutes * MINUTE).toISOString(),
        status_code: index === 0 ? 500 : 200,
      }),
    );
    const previous = [70, 75, 80, 85, 90, 95, 100].map((minutes, index) =>
      record("checkout-api", {
        timestamp: new Date(now - minutes * MINUTE).toISOString(),
        status_code: index < 2 ? 500 : 200,
      }),
    );
    expect(await ingest(me.context.request, me.key.key, [...current, ...previous])).toMatchObject({
      accepted: 11,
    });
  });

  it("lays the previous hour over the Overview's requests chart, and keeps it in the URL", async () => {
    const { page } = me;
    await page.goto("/projects/shop?range=1h");
    const chart = page.locator('figure[aria-label="Requests over time by status class"]');
    await chart.locator("canvas").waitFor();
    expect(await compareSwitch(page).getAttribute("aria-checked")).toBe("false");
    expect(await chart.getByRole("button", { name: "All, previous period" }).count()).toBe(0);

    await compareSwitch(page).click();
    await page.waitForURL((url) => url.searchParams.get("compare") === "true");
    await chart.getByRole("button", { name: "All, previous period" }).waitFor();
    expect(await columnSum(chart, "All, previous period")).toBe(7);
    expect(await columnSum(chart, "5xx")).toBe(1);
    const latency = page.locator('figure[aria-label="Latency percentiles over time"]');
    await latency.getByRole("button", { name: "p95, previous period" }).waitFor();

    // A reload (or a shared link) keeps the comparison.
    await page.reload();
    await chart.getByRole("button", { name: "All, previous period" }).waitFor();
    expect(await compareSwitch(page).getAttribute("aria-checked")).toBe("true");
  });

  it("compares the Errors chart, and dragging on it still zooms the window", async () => {
    const { page } = me;
    await page.goto("/projects/shop/errors?range=1h&compare=true");
    const chart = page.locator('figure[aria-label="Client and server errors over time"]');
    await chart.getByRole("button", { name: "Errors, previous period" }).waitFor();
    expect(await columnSum(chart, "Errors, previous period")).toBe(2);

    const box = await chart.locator(".u-over").boundingBox();
    if (box === null) throw new Error("the chart has no plot area");
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.has("since") && url.searchParams.has("until"));
    expect(new URL(page.url()).searchParams.get("compare")).toBe("true");
  });

  it("sets the comparison mark only after the previous period's figures are on screen", async () => {
    // The overview's KPIs (4 requests against 7: a change badge) and, with the switch, its overlay.
    const overview = await paintTimes(me.context, "/projects/shop?range=1h&compare=true", [
      "vs previous",
      "All, previous period",
    ]);
    expect(overview.data).toBeGreaterThan(0);
    expect(overview.comparison).toBeGreaterThanOrEqual(overview.data ?? Infinity);
    expect(overview.comparison).toBeGreaterThanOrEqual(overview.seen["vs previous"] ?? Infinity);
    expect(overview.comparison).toBeGreaterThanOrEqual(overview.seen["All, previous period"] ?? Infinity);

    // The endpoint's KPIs compare without the switch.
    const endpoint = await paintTimes(
      me.context,
      "/projects/shop/endpoints/detail?range=1h&app=checkout-api&method=GET&path=%2Forders%2F%7Bid%7D",
      ["vs previous"],
    );
    expect(endpoint.comparison).toBeGreaterThanOrEqual(endpoint.data ?? Infinity);
    expect(endpoint.comparison).toBeGreaterThanOrEqual(endpoint.seen["vs previous"] ?? Infinity);

    // The Errors page compares only its chart, only with the switch on; without it, no mark.
    const errors = await paintTimes(me.context, "/projects/shop/errors?range=1h&compare=true", [
      "Errors, previous period",
    ]);
    expect(errors.comparison).toBeGreaterThanOrEqual(errors.seen["Errors, previous period"] ?? Infinity);
    const { page } = me;
    await page.goto("/projects/shop/errors?range=1h");
    await page.waitForFunction(() => performance.getEntriesByName("sightline:data-painted").length > 0);
    await page.waitForTimeout(500);
    expect(
      await page.evaluate(() => performance.getEntriesByName("sightline:comparison-painted").length),
    ).toBe(0);
  });

  it("is accessible in light and dark, with a screenshot", async () => {
    for (const [theme, opened] of await inBothThemes(suite, me, "cora@example.com")) {
      const { page } = opened;
      await page.goto("/projects/shop?range=1h&compare=true");
      const chart = page.locator('figure[aria-label="Requests over time by status class"]');
      await chart.getByRole("button", { name: "All, previous period" }).waitFor();
      await chart.locator("canvas").waitFor();
      expect(await seriousAxeViolations(page), `compare in ${theme}`).toEqual([]);
      await screenshot(page, "overview-compare", theme);
    }
  });
});
