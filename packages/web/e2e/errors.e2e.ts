// The errors page on requests sent through the real ingest route: a group that also failed
// before the window shows that first occurrence (not the window's start) and no "New" badge; a
// group first failing inside the window is marked New. Beside them, exceptions and error logs
// grouped by fingerprint, marked New or Regressed, with a stack drawer linking to sample traces.
// Axe-clean in both themes.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import type { Opened } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { ingest, ingestLogs } from "./support/seed";
import { checkoutOwner, inBothThemes } from "./support/people";
import { browserSuite } from "./support/suite";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

describe.skipIf(inject("browserSkipReason") !== "")("the errors page", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "ada@example.com");

  beforeAll(async () => {
    const now = Date.now();
    const failed = (agoMs: number, method: string, path: string, status: number) => ({
      app_id: "checkout-api",
      timestamp: new Date(now - agoMs).toISOString(),
      environment: "production",
      method,
      path,
      route: path,
      status_code: status,
      response_time_ms: 20,
    });
    const result = await ingest(me.context.request, me.key.key, [
      failed(3 * 60 * 60_000, "GET", "/orders", 503),
      failed(10 * 60_000, "GET", "/orders", 503),
      failed(5 * 60_000, "POST", "/refunds", 500),
    ]);
    expect(result).toMatchObject({ accepted: 3, rejected: 0 });
    const stack = (fn: string) =>
      `TypeError: boom\n    at ${fn} (/srv/app/dist/orders.js:41:17)\n    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)`;
    const errorLog = (agoMs: number, message: string, fields: Record<string, unknown> = {}) => ({
      app_id: "checkout-api",
      timestamp: new Date(now - agoMs).toISOString(),
      environment: "production",
      level: "ERROR",
      message,
      logger_name: "sightline.errors",
      payload: stack("loadOrder"),
      ...fields,
    });
    await ingestLogs(me.context.request, me.key.key, [
      // Regressed: two days ago, quiet since, back twice in the hour with other order numbers.
      errorLog(2 * 24 * 60 * 60_000, "TypeError: order 17 missing"),
      errorLog(9 * 60_000, "TypeError: order 4410 missing", { consumer_id: "acme" }),
      errorLog(8 * 60_000, "TypeError: order 5 missing", { trace_id: TRACE, consumer_id: "globex" }),
      // New: first thrown inside the hour, elsewhere.
      errorLog(4 * 60_000, "RangeError: refund 12 exceeds charge", { payload: stack("refund") }),
      { ...errorLog(3 * 60_000, "not an error"), level: "WARNING" },
    ]);
    expect(
      await ingest(me.context.request, me.key.key, [
        { ...failed(2 * 60_000, "GET", "/orders/5", 500), trace_id: TRACE },
      ]),
    ).toMatchObject({ accepted: 1 });
  });

  const rows = (page: Opened["page"]) =>
    page
      .locator('table[aria-label="Errors"] tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim()),
        ),
      );

  it("shows a long-standing error's first occurrence and marks only the new one", async () => {
    const { page } = me;
    await page.goto("/projects/shop/errors?range=1h&sort=first_seen_at&dir=asc");
    await page.locator('table[aria-label="Errors"] tbody tr').nth(1).waitFor();
    const [old, fresh] = await rows(page);
    expect(old?.[0]).toBe("GET /orders · checkout-api");
    // First seen three hours ago, before the window: not its one request in the window.
    expect(old?.[4]).not.toBe(old?.[5]);
    expect(fresh?.[0]).toBe("POST /refunds · checkout-api New");
    expect(fresh?.[4]).toBe(fresh?.[5]);
  });

  it("groups exceptions into issues and opens one's stack and sample trace", async () => {
    const { page } = me;
    await page.goto("/projects/shop/errors?range=1h");
    const issues = page.locator('table[aria-label="Error issues"] tbody tr');
    await issues.nth(1).waitFor();
    const cells = await issues.evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim()),
      ),
    );
    expect(cells.map((row) => row.slice(0, 3))).toEqual([
      ["TypeError order 5 missing · checkout-api Regressed", "2", "2"],
      ["RangeError refund 12 exceeds charge · checkout-api New", "1", "0"],
    ]);
    await issues.first().click();
    const drawer = page.getByRole("dialog");
    await expect.poll(() => drawer.getByLabel("Stack trace").textContent()).toContain("at loadOrder");
    await drawer.getByRole("link", { name: `Trace ${TRACE.slice(0, 8)}`, exact: true }).click();
    await page.waitForURL(`**/projects/shop/traces/${TRACE}**`);
  });

  it("is accessible in light and dark, with a screenshot", async () => {
    for (const [theme, opened] of await inBothThemes(suite, me, "ada@example.com")) {
      await opened.page.goto("/projects/shop/errors?range=1h");
      await opened.page.locator('table[aria-label="Errors"] tbody tr').nth(1).waitFor();
      expect(await seriousAxeViolations(opened.page), `errors in ${theme}`).toEqual([]);
      await screenshot(opened.page, "errors-first-seen", theme);
      await opened.page.locator('table[aria-label="Error issues"] tbody tr').first().click();
      await opened.page.getByRole("dialog").getByLabel("Stack trace").waitFor();
      expect(await seriousAxeViolations(opened.page), `issue drawer in ${theme}`).toEqual([]);
      await screenshot(opened.page, "errors-issue-stack", theme);
    }
  });
});
