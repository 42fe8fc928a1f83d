// An events-store outage on a server that had data: the real chDB executor is closed mid-visit
// (the server runs in this process for that), and after a refresh the Overview and Requests pages
// show the problem's detail and request id, never zeros or empty tables.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { startSightlineInProcess } from "./support/in-process";
import { ingest, record } from "./support/seed";
import { checkoutOwner } from "./support/people";
import { browserSuite } from "./support/suite";

const DETAIL = "The events store is unavailable; retry shortly.";

describe.skipIf(inject("browserSkipReason") !== "")("an events-store outage", () => {
  const suite = browserSuite({ start: startSightlineInProcess });
  // Chromium logs every 503 the outage causes as a console error; they are the point here.
  const me = checkoutOwner(suite, "outage@example.com", { open: { expectedServerErrors: [503] } });

  beforeAll(async () => {
    const sent = await ingest(me.context.request, me.key.key, [
      record("checkout-api"),
      record("checkout-api", { method: "POST", path: "/orders", route: "/orders", status_code: 500 }),
      record("checkout-api", { status_code: 404 }),
    ]);
    expect(sent).toMatchObject({ accepted: 3, rejected: 0 });
  });

  /** Waits for the error panel about `what`, then checks it carries the detail and a request id. */
  const expectFailure = async (page: Page, what: string) => {
    // The dashboard retries a 503 after its Retry-After (5 s) before it gives up, up to 3 times.
    const alert = page.getByRole("alert").filter({ hasText: `Could not load ${what}` });
    await alert.waitFor({ timeout: 60_000 });
    const text = await alert.textContent();
    expect(text).toContain(DETAIL);
    expect(text).toMatch(/Request id \S+/);
  };

  it("shows the Overview's and the Requests page's errors after the store goes down, never zeros", async () => {
    const { page } = me;
    await page.goto("/projects/shop?range=1h");
    const figures = page.locator('dl[aria-label="Key figures"]');
    await figures.waitFor();
    expect(await figures.locator('dt:text-is("Requests") + dd').first().textContent()).toBe("3");
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText("1–3 of 3 requests").waitFor();

    await suite.server.stopEventsStore();

    await page.reload();
    await expectFailure(page, "the requests");
    expect(await page.locator('table[aria-label="Requests"]').count()).toBe(0);
    expect(await page.getByText(/No requests match|of \d+ requests/).count()).toBe(0);

    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/projects/shop");
    await page.reload();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    await expectFailure(page, "the summary");
    await expectFailure(page, "the endpoints");
    await expectFailure(page, "the charts");
    expect(await page.locator('dl[aria-label="Key figures"]').count()).toBe(0);
    expect(await page.locator('table[aria-label="Endpoints"]').count()).toBe(0);
    expect(await page.locator("figure canvas").count()).toBe(0);
  });
});
