// The explorers' second-wave features on records sent through the real ingest routes: the
// request list sorts by time taken and size through the URL, the latency histogram above it
// filters the list by dragging across its bars (min/max duration in the URL), and the Logs page
// tails live with pause and resume under a level filter. Axe-clean in light and dark.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import type { Opened } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { ingest, ingestLogs, logRecord, record, seedCheckout } from "./support/seed";
import { inBothThemes, signedInApi } from "./support/people";
import { browserSuite } from "./support/suite";

/** Paths and response times (ms) and sizes (bytes): each path says its place in each order. */
const TIMINGS: ReadonlyArray<readonly [string, number, number]> = [
  ["/fast", 3, 120],
  ["/quick", 40, 64_000],
  ["/medium", 180, 900],
  ["/slow", 1800, 50],
  ["/slowest", 7200, 3000],
];

describe.skipIf(inject("browserSkipReason") !== "")(
  "sorting, the latency histogram and the live log tail",
  () => {
    const suite = browserSuite();
    let me: Opened;
    let key: string;

    const logAt = (level: string, message: string) => logRecord("checkout-api", { level, message });
    const sendLogs = (logs: ReadonlyArray<Record<string, unknown>>) =>
      ingestLogs(me.context.request, key, logs);

    beforeAll(async () => {
      me = await suite.open();
      const api = await signedInApi(suite, me, "lee@example.com");
      key = (await seedCheckout(api)).key;
      const now = Date.now();
      const records = TIMINGS.map(([path, ms, size], index) =>
        record("checkout-api", {
          // The fastest is the newest, so newest-first and slowest-first disagree.
          timestamp: new Date(now - (index + 1) * 30_000).toISOString(),
          path,
          route: path,
          response_time_ms: ms,
          response_size: size,
        }),
      );
      expect(await ingest(me.context.request, key, records)).toMatchObject({ accepted: 5 });
      await sendLogs([logAt("INFO", "warmed up"), logAt("ERROR", "first failure")]);
    });

    const listedPaths = (page: Opened["page"]) =>
      page
        .locator("tr[data-request-id]")
        .evaluateAll((rows) =>
          rows.map((row) => row.querySelector("td:nth-child(2) span:last-child")?.textContent),
        );

    it("sorts the request list by time taken and by size through the URL", async () => {
      const { page } = me;
      await page.goto("/projects/shop/requests?range=1h");
      await page.locator("tr[data-request-id]").nth(4).waitFor();
      expect(await listedPaths(page)).toEqual(["/fast", "/quick", "/medium", "/slow", "/slowest"]);
      await page.getByRole("button", { name: "Time taken" }).click();
      await page.waitForURL(/sort=response_time_ms/);
      await expect.poll(() => listedPaths(page)).toEqual(["/slowest", "/slow", "/medium", "/quick", "/fast"]);
      await page.getByRole("button", { name: "Size" }).click();
      await page.waitForURL(/sort=response_size/);
      await expect.poll(() => listedPaths(page)).toEqual(["/quick", "/slowest", "/medium", "/fast", "/slow"]);
    });

    it("filters the list by dragging across the latency histogram, and clears it", async () => {
      const { page } = me;
      await page.goto("/projects/shop/requests?range=1h");
      const bars = page.getByRole("group", { name: /Response time distribution/ });
      await bars.getByRole("button", { name: "100 ms to 250 ms: 1 requests" }).waitFor();
      // Drag from the 100–250 ms bar to the 1–2.5 s bar.
      const from = await bars.getByRole("button", { name: /^100 ms to 250 ms/ }).boundingBox();
      const to = await bars.getByRole("button", { name: /^1 s to 2.5 s/ }).boundingBox();
      if (from === null || to === null) throw new Error("histogram bars are not laid out");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height - 4);
      await page.mouse.down();
      await page.mouse.move(to.x + to.width / 2, to.y + to.height - 4, { steps: 8 });
      await page.mouse.up();
      await page.waitForURL(/min_ms=100.*max_ms=2500|max_ms=2500.*min_ms=100/);
      await expect.poll(() => listedPaths(page)).toEqual(["/medium", "/slow"]);
      // The histogram keeps the whole distribution, the selection highlighted.
      expect(await bars.getByRole("button", { pressed: true }).count()).toBe(4);
      await page.getByRole("button", { name: "Clear duration filter" }).click();
      await expect.poll(() => listedPaths(page)).toHaveLength(5);
      expect(page.url()).not.toContain("min_ms");
    });

    it("tails logs live under a level filter, pauses and resumes", async () => {
      const { page } = me;
      await page.goto("/projects/shop/logs?range=1h&levels=ERROR");
      await page.getByText("first failure").waitFor();
      await page.getByRole("switch", { name: /Live tail/ }).click();
      await page.waitForURL(/live=true/);
      await sendLogs([logAt("ERROR", "tailed failure"), logAt("INFO", "tailed info")]);
      // Page 1 is refetched every 5 s; the new ERROR arrives at the top, the INFO stays filtered out.
      await page.getByText("tailed failure").waitFor({ timeout: 20_000 });
      expect(await page.getByText("tailed info").count()).toBe(0);
      await page.getByRole("button", { name: "Pause" }).click();
      await sendLogs([logAt("ERROR", "while paused")]);
      await page.waitForTimeout(11_000);
      expect(await page.getByText("while paused").count()).toBe(0);
      await page.getByRole("button", { name: "Resume" }).click();
      await page.getByText("while paused").waitFor({ timeout: 20_000 });
    });

    it("is accessible in light and dark, with screenshots", async () => {
      for (const [theme, opened] of await inBothThemes(suite, me, "lee@example.com")) {
        await opened.page.goto(
          "/projects/shop/requests?range=1h&sort=response_time_ms&min_ms=100&max_ms=2500",
        );
        await opened.page.locator("tr[data-request-id]").nth(1).waitFor();
        expect(await seriousAxeViolations(opened.page), `requests in ${theme}`).toEqual([]);
        await screenshot(opened.page, "requests-histogram", theme);
        await opened.page.goto("/projects/shop/logs?range=1h&live=true");
        await opened.page.getByRole("button", { name: "Pause" }).waitFor();
        await opened.page.locator("table[aria-label='Logs'] tbody tr").first().waitFor();
        expect(await seriousAxeViolations(opened.page), `live logs in ${theme}`).toEqual([]);
        await screenshot(opened.page, "logs-live-tail", theme);
      }
    });
  },
);
