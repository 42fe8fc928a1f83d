// Personal access tokens in the account: create one limited to a project (read-only), see it
// once and copy it, call the API with it from outside the browser, revoke it; axe-clean in
// light and dark, with a screenshot of each.
import { describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { signInFast } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { apiAs } from "./support/seed";
import { browserSuite } from "./support/suite";

describe.skipIf(inject("browserSkipReason") !== "")("access tokens", () => {
  const suite = browserSuite();

  it("creates a token shown once, which calls the API until it is revoked", async () => {
    const { page, context } = await suite.open();
    await signInFast(context, suite.server, "scripts@example.com");
    const api = apiAs(context.request, suite.server);
    await api.post("/projects", { name: "Shop", slug: "shop" });
    await api.post("/projects", { name: "Blog", slug: "blog" });

    await page.goto("/account/security");
    await page.getByText("No access tokens yet").waitFor();
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByLabel("Token name").fill("nightly report");
    await page.getByLabel("Expires after").selectOption("30");
    await page.getByLabel("Scope").selectOption("read");
    await page.getByLabel("Only some projects").check();
    await page.getByLabel("Shop").check();
    await page.getByRole("button", { name: "Create token" }).last().click();
    const secret = page.locator("[data-secret]");
    await secret.waitFor();
    const token = (await secret.innerText()).trim();
    expect(token).toMatch(/^sl_pat_[0-9A-Za-z]{40,80}$/);
    await page.getByRole("button", { name: /^Copy\s+Access token/ }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await page.getByRole("button", { name: "I've stored it" }).click();

    const row = page.getByRole("row", { name: /nightly report/ });
    await row.waitFor();
    expect(await row.innerText()).toContain(`${token.slice(0, 16)}…`);
    expect(await row.innerText()).toContain("Read-only");
    expect(await row.innerText()).toContain("Shop");
    expect(await page.locator("main").innerText()).not.toContain(token);

    // Outside the browser, as a script would: read-only and limited to Shop.
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${suite.server.url}/api/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
    const projects = (await (await call("/projects")).json()) as Array<{ slug: string }>;
    expect(projects.map((project) => project.slug)).toEqual(["shop"]);
    expect((await call("/projects/blog")).status).toBe(404);
    expect((await call("/projects/shop", { method: "PATCH", body: "{}" })).status).toBe(403);

    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.reload();
      await row.waitFor();
      expect(await seriousAxeViolations(page), theme).toEqual([]);
      await screenshot(page, "account-tokens", theme);
    }

    await row.getByRole("button", { name: "Revoke token nightly report" }).click();
    await page.getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("Revoked nightly report").waitFor();
    await page.getByText("No access tokens yet").waitFor();
    expect((await call("/projects")).status).toBe(401);
  });
});
