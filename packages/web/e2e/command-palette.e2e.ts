// The command palette against the real server: Ctrl-K opens it with focus in its combobox,
// arrows and Enter open a page from the route tree, a typed name finds an endpoint and a
// consumer (searched on the server), a request id and a trace id open their records, Escape
// closes it and gives focus back, and it is clean under axe in light and dark.
import type { RequestsPage } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";
import { ingest, record } from "./support/seed";
import { checkoutOwner, inBothThemes } from "./support/people";
import { browserSuite } from "./support/suite";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

const palette = (page: Page) => page.getByRole("dialog", { name: "Go to" });
const box = (page: Page) => palette(page).getByRole("combobox");

async function openPalette(page: Page): Promise<void> {
  // The shortcut listens once the shell is on screen.
  await page.getByRole("button", { name: /^Go to/ }).waitFor();
  await page.keyboard.press("Control+k");
  await box(page).waitFor();
  await expect.poll(() => box(page).evaluate((el) => el === document.activeElement)).toBe(true);
}

describe.skipIf(inject("browserSkipReason") !== "")("the command palette", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "pia@example.com");
  let requestId: string;

  beforeAll(async () => {
    const now = Date.now();
    expect(
      await ingest(me.context.request, me.key.key, [
        record("checkout-api", {
          timestamp: new Date(now - 30_000).toISOString(),
          method: "POST",
          path: "/refunds/7",
          route: "/refunds/{id}",
          consumer_id: "acme",
          consumer_name: "Acme Corp",
          trace_id: TRACE,
        }),
        record("checkout-api", { timestamp: new Date(now - 60_000).toISOString() }),
      ]),
    ).toMatchObject({ accepted: 2 });
    const page = await me.api.get<RequestsPage>("/projects/shop/data/requests");
    requestId = page.items.find((item) => item.path === "/refunds/7")?.id as string;
    expect(requestId).toBeDefined();
  });

  it("opens a page of the route tree with the keyboard, and gives focus back on Escape", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText("1–2 of 2 requests").waitFor();
    const launcher = page.getByRole("button", { name: /^Go to/ });
    await launcher.click();
    await box(page).waitFor();
    await page.keyboard.press("Escape");
    await palette(page).waitFor({ state: "detached" });
    await expect.poll(() => launcher.evaluate((el) => el === document.activeElement)).toBe(true);

    await openPalette(page);
    await box(page).fill("members");
    const first = palette(page).getByRole("option").first();
    await expect.poll(() => first.innerText()).toMatch(/^Members\n\/projects\/shop\/settings\/members$/);
    expect(await first.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/projects\/shop\/settings\/members$/);
    await palette(page).waitFor({ state: "detached" });
  });

  it("finds an endpoint and a consumer by name", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await openPalette(page);
    await box(page).fill("refunds");
    await palette(page)
      .getByRole("option", { name: /POST \/refunds\/\{id\}/ })
      .click();
    await page.waitForURL(/\/projects\/shop\/endpoints\/detail\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("method")).toBe("POST");
    expect(url.searchParams.get("app")).toBe("checkout-api");
    expect(url.searchParams.get("range")).toBe("1h");

    await openPalette(page);
    await box(page).fill("Acme");
    await palette(page)
      .getByRole("option", { name: /Acme Corp/ })
      .waitFor();
    await page.keyboard.press("ArrowDown");
    const selected = palette(page).locator('[role="option"][aria-selected="true"]');
    await expect.poll(() => selected.innerText()).toMatch(/Acme Corp/);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/projects\/shop\/consumers\/acme\?/);
  });

  it("opens a request and a trace by id", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await openPalette(page);
    await box(page).fill(requestId);
    await palette(page)
      .getByRole("option", { name: `Request ${requestId}` })
      .click();
    await page.waitForURL((url) => url.searchParams.get("req") === requestId);
    await page.getByRole("dialog").getByText("/refunds/7").first().waitFor();

    await page.goto("/projects/shop/requests?range=1h");
    await openPalette(page);
    await box(page).fill(TRACE);
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/projects/shop/traces/${TRACE}$`));
  });

  it("is accessible in light and dark, with a screenshot", async () => {
    for (const [theme, opened] of await inBothThemes(suite, me, "pia@example.com")) {
      const { page } = opened;
      await page.goto("/projects/shop/requests?range=1h");
      await page.getByText("1–2 of 2 requests").waitFor();
      await openPalette(page);
      await box(page).fill("re");
      await palette(page)
        .getByRole("option", { name: /POST \/refunds/ })
        .waitFor();
      expect(await seriousAxeViolations(page), `palette in ${theme}`).toEqual([]);
      await screenshot(page, "command-palette", theme);
      await page.keyboard.press("Escape");
    }
  });
});
