// Every project-settings action a person takes: rename (URL kept), apps (create, edit,
// delete), environments (add, recolour, reorder, delete), endpoints (describe, switch off,
// delete), API keys (create shown once, revoke, the 20-key limit), deleting the project.
import type { CreatedApiKey } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Opened } from "./support/browser";
import { type Api, ingest, record, seedCheckout } from "./support/seed";
import { signedInApi } from "./support/people";
import { browserSuite } from "./support/suite";

const confirmIn = (page: Page) => page.getByRole("dialog");

describe.skipIf(inject("browserSkipReason") !== "")("project settings", () => {
  const suite = browserSuite();
  let opened: Opened;
  let api: Api;
  let appKey: CreatedApiKey;

  beforeAll(async () => {
    opened = await suite.open();
    api = await signedInApi(suite, opened, "admin@example.com");
    appKey = await seedCheckout(api, { keyName: "Checkout ingest" });
    await ingest(opened.context.request, appKey.key, [
      record("checkout-api"),
      record("checkout-api", { method: "POST", path: "/orders", route: "/orders", status_code: 201 }),
    ]);
  });

  it("renames the project and keeps its address", async () => {
    const { page } = opened;
    await page.goto("/projects/shop/settings");
    await page.getByLabel("Project name").fill("Shop Europe");
    await page.getByLabel("Description (optional)").fill("EU storefront");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Project saved").waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/settings");
    await page.reload();
    expect(await page.getByLabel("Project name").inputValue()).toBe("Shop Europe");
    expect(await page.getByRole("button", { name: /Shop Europe/ }).count()).toBe(1);
  });

  it("creates, edits and deletes an app", async () => {
    const { page } = opened;
    await page.goto("/projects/shop/settings/apps");
    await page.getByRole("button", { name: "New app" }).click();
    const dialog = confirmIn(page);
    await dialog.getByLabel("App name").fill("Billing");
    await dialog.getByLabel("Framework").selectOption("django");
    await dialog.getByRole("button", { name: "Create app" }).click();
    await page.getByText("App “Billing” created").waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/settings/apps/billing");

    await page.getByLabel("App name").fill("Billing Service");
    await page.getByLabel("Framework").selectOption("flask");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("App saved").waitFor();
    expect(await api.get("/apps/billing?project=shop")).toMatchObject({
      name: "Billing Service",
      framework: "flask",
    });

    await page.getByRole("button", { name: "Delete app" }).click();
    const confirm = confirmIn(page);
    const button = confirm.getByRole("button", { name: "Delete app" });
    expect(await button.isDisabled()).toBe(true);
    await confirm.getByLabel(/Type billing to confirm/).fill("billing");
    await button.click();
    await page.getByText("App “Billing Service” deleted").waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/settings/apps");
    await expect.poll(() => page.getByRole("link", { name: /Billing/ }).count()).toBe(0);
  });

  it("adds, recolours, reorders and deletes environments", async () => {
    const { page } = opened;
    await page.goto("/projects/shop/settings/apps/checkout-api");
    for (const name of ["staging", "preview"]) {
      await page.getByLabel("New environment").fill(name);
      await page.getByRole("button", { name: "Add environment" }).click();
      await page.getByText(`Environment “${name}” added`).waitFor();
    }
    // production arrived with the records; the two declared ones follow it.
    const names = () => page.locator("tbody tr td:nth-child(2)").allInnerTexts();
    await page.getByLabel("Colour of staging").fill("#ff5500");
    await page.getByText("Colour of “staging” saved").waitFor();
    const environments = await api.get<Array<{ slug: string; color: string; order: number }>>(
      "/apps/checkout-api/environments?project=shop",
    );
    expect(environments.find((env) => env.slug === "staging")?.color.toLowerCase()).toBe("#ff5500");

    const before = (await names()).filter((name) => ["production", "staging", "preview"].includes(name));
    const last = before[before.length - 1] as string;
    await page.getByRole("button", { name: `Move ${last} up` }).click();
    await expect.poll(async () => (await names()).indexOf(last)).toBe(before.length - 2);
    await page.reload();
    await page.getByLabel("Colour of staging").waitFor();
    expect((await names()).indexOf(last)).toBe(before.length - 2);

    await page.getByRole("button", { name: "Delete environment preview" }).click();
    await confirmIn(page).getByRole("button", { name: "Delete environment" }).click();
    await page.getByText("Environment “preview” deleted").waitFor();
    expect(await names()).not.toContain("preview");
  });

  it("describes an endpoint, switches it off and deletes another", async () => {
    const { page } = opened;
    await page.goto("/projects/shop/settings/apps/checkout-api");
    const description = page.getByLabel("Description of GET /orders/{id}");
    await description.fill("One order with its lines");
    await description.press("Enter");
    await page.getByText("Description saved").waitFor();

    const toggle = page.getByRole("switch", { name: "Track GET /orders/{id}" });
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    await toggle.click();
    await page.getByText("GET /orders/{id} switched off").waitFor();
    await page.reload();
    await page.getByRole("switch", { name: "Track GET /orders/{id}" }).waitFor();
    expect(
      await page.getByRole("switch", { name: "Track GET /orders/{id}" }).getAttribute("aria-checked"),
    ).toBe("false");
    expect(await page.getByLabel("Description of GET /orders/{id}").inputValue()).toBe(
      "One order with its lines",
    );

    await page.getByRole("button", { name: "Delete POST /orders" }).click();
    await confirmIn(page).getByRole("button", { name: "Delete endpoint" }).click();
    await page.getByText("Endpoint deleted").waitFor();
    expect(await page.getByRole("cell", { name: "/orders", exact: true }).count()).toBe(0);
  });

  it("creates a key shown once, revokes one (its ingest stops), and states the 20-key limit", async () => {
    const { page, context } = opened;
    await page.goto("/projects/shop/settings/keys");
    await page.getByRole("button", { name: "Create key" }).first().click();
    let dialog = confirmIn(page);
    await dialog.getByLabel("Key name").fill("Nightly import");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = (await dialog.locator("[data-secret]").innerText()).trim();
    expect(shown).toMatch(/^sl_/);
    await dialog.getByRole("button", { name: "I've stored it" }).click();
    const row = page.getByRole("row", { name: /Nightly import/ });
    await row.waitFor();
    expect(await row.innerText()).toContain(shown.slice(0, 8));
    expect(await page.locator("body").innerText()).not.toContain(shown);

    // Revoking the app's key stops its ingest at once.
    await page.getByRole("button", { name: "Revoke key Checkout ingest" }).click();
    dialog = confirmIn(page);
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await page.getByText("Key “Checkout ingest” revoked").waitFor();
    // The toast comes with the answer; the list shows the state once it has been read again.
    await page
      .getByRole("row", { name: /Checkout ingest/ })
      .filter({ hasText: "Revoked" })
      .waitFor();
    const refused = await context.request.post("/api/v1/ingest/requests", {
      data: { requests: [record("checkout-api")] },
      headers: { "x-api-key": appKey.key },
    });
    expect(refused.status()).toBe(401);

    // Fill the project up to the limit through the API: the page says so and stops offering.
    const live = async () =>
      (await api.get<Array<{ is_revoked: boolean }>>("/projects/shop/api-keys")).filter(
        (key) => !key.is_revoked,
      ).length;
    for (let count = await live(); count < 20; count++)
      await api.post("/projects/shop/api-keys", { name: `bulk ${count}` });
    await page.reload();
    await page.getByText("Key limit reached").waitFor();
    expect(await page.getByText("20 of 20 live keys").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Create key" }).first().isDisabled()).toBe(true);
  });

  it("deletes the project only after its slug is typed", async () => {
    const { page } = opened;
    await page.goto("/projects/shop/settings");
    await page.getByRole("button", { name: "Delete project" }).click();
    const dialog = confirmIn(page);
    await dialog.getByLabel(/Type shop to confirm/).fill("sho");
    expect(await dialog.getByRole("button", { name: "Delete project" }).isDisabled()).toBe(true);
    await dialog.getByLabel(/Type shop to confirm/).fill("shop");
    await dialog.getByRole("button", { name: "Delete project" }).click();
    await page.getByRole("heading", { name: "No projects yet" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects");
  });
});
