// Saved views and "Copy link" against the real server: filters of the Requests page saved under
// a name come back with their records after the filters were cleared, a view is deleted, the
// link copied is the page's URL with its filters, and the dialog is clean under axe in light and
// dark.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";
import { everyThirdFailing, ingest } from "./support/seed";
import { checkoutOwner, inBothThemes } from "./support/people";
import { browserSuite } from "./support/suite";

const viewsDialog = (page: Page) => page.getByRole("dialog", { name: "Saved views" });

describe.skipIf(inject("browserSkipReason") !== "")("saved views and copy link", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "vera@example.com");

  beforeAll(async () => {
    expect(await ingest(me.context.request, me.key.key, everyThirdFailing(Date.now(), 9))).toMatchObject({
      accepted: 9,
    });
  });

  it("saves the Requests filters under a name and applies them again", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText("1–9 of 9 requests").waitFor();
    await page.getByRole("combobox", { name: /^Status/ }).selectOption("5xx");
    await page.getByText("1–3 of 3 requests").waitFor();

    await page.getByRole("button", { name: "Views" }).click();
    const dialog = viewsDialog(page);
    await dialog.getByText("No saved views yet.").waitFor();
    await dialog.getByRole("textbox", { name: "Name" }).fill("Server errors");
    await dialog.getByRole("checkbox", { name: "Share with the project's members" }).check();
    await dialog.getByRole("button", { name: "Save current filters" }).click();
    const saved = dialog.getByRole("list", { name: "Saved views of this page" }).getByRole("listitem");
    await expect
      .poll(() => saved.allInnerTexts())
      .toEqual([expect.stringMatching(/Server errors[\s\S]*yours, shared · range 1h · status 5xx/)]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    // Cleared filters, then the view brings them (and its three records) back.
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText("1–9 of 9 requests").waitFor();
    await page.getByRole("button", { name: "Views" }).click();
    await viewsDialog(page).getByRole("button", { name: "Apply view Server errors" }).click();
    await page.getByText("1–3 of 3 requests").waitFor();
    expect(new URL(page.url()).searchParams.get("status")).toBe("5xx");
    await expect.poll(() => page.getByRole("combobox", { name: /^Status/ }).inputValue()).toBe("5xx");

    // Another page has views of its own.
    await page.goto("/projects/shop/logs?range=1h");
    await page.getByRole("button", { name: "Views" }).click();
    await viewsDialog(page).getByText("No saved views yet.").waitFor();
    await page.keyboard.press("Escape");
  });

  it("copies the page's link with its filters", async () => {
    const { page, context } = me;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.server.url });
    await page.goto("/projects/shop/requests?range=1h&status=5xx");
    await page.getByText("1–3 of 3 requests").waitFor();
    await page.getByRole("button", { name: "Copy link to this page" }).click();
    await page.getByRole("button", { name: "Copy link to this page" }).getByText("Copied").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(page.url());
    expect(new URL(copied).searchParams.get("status")).toBe("5xx");
  });

  it("has the saved-views dialog accessible in light and dark, and deletes a view", async () => {
    for (const [theme, opened] of await inBothThemes(suite, me, "vera@example.com")) {
      const { page } = opened;
      await page.goto("/projects/shop/requests?range=1h&method=GET");
      await page.getByText("1–9 of 9 requests").waitFor();
      await page.getByRole("button", { name: "Views" }).click();
      await viewsDialog(page).getByRole("button", { name: "Apply view Server errors" }).waitFor();
      expect(await seriousAxeViolations(page), `saved views in ${theme}`).toEqual([]);
      await screenshot(page, "saved-views", theme);
      await page.keyboard.press("Escape");
    }
    const { page } = me;
    await page.getByRole("button", { name: "Views" }).click();
    const dialog = viewsDialog(page);
    await dialog.getByRole("button", { name: "Delete view Server errors" }).click();
    await dialog.getByText("No saved views yet.").waitFor();
  });
});
