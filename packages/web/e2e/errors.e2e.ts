// The errors page on requests sent through the real ingest route: a group that also failed
// before the window shows that first occurrence (not the window's start) and no "New" badge; a
// group first failing inside the window is marked New. Axe-clean in both themes.
import type { CreatedApiKey } from "@sightline/contracts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { type Opened, signInFast } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { apiAs, ingest } from "./support/seed";
import { browserSuite } from "./support/suite";

describe.skipIf(inject("browserSkipReason") !== "")("the errors page", () => {
  const suite = browserSuite();
  let me: Opened;

  beforeAll(async () => {
    me = await suite.open();
    await signInFast(me.context, suite.server, "ada@example.com");
    const api = apiAs(me.context.request, suite.server);
    await api.post("/projects", { name: "Shop" });
    await api.post("/projects/shop/apps", { name: "Checkout API", framework: "fastify" });
    const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", { name: "ingest" });
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
    const result = await ingest(me.context.request, key.key, [
      failed(3 * 60 * 60_000, "GET", "/orders", 503),
      failed(10 * 60_000, "GET", "/orders", 503),
      failed(5 * 60_000, "POST", "/refunds", 500),
    ]);
    expect(result).toMatchObject({ accepted: 3, rejected: 0 });
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

  it("is accessible in light and dark, with a screenshot", async () => {
    for (const theme of ["light", "dark"] as const) {
      const opened = theme === "light" ? me : await suite.open({ colorScheme: "dark" });
      if (theme === "dark") await signInFast(opened.context, suite.server, "ada@example.com");
      await opened.page.goto("/projects/shop/errors?range=1h");
      await opened.page.locator('table[aria-label="Errors"] tbody tr').nth(1).waitFor();
      expect(await seriousAxeViolations(opened.page), `errors in ${theme}`).toEqual([]);
      await screenshot(opened.page, "errors-first-seen", theme);
    }
  });
});
