// Signing in as a person does: the e-mailed link (spent only by the click), the same answer for
// any address, the wait when rate-limited, a used link, the code and password alternatives.
import { describe, expect, inject, it } from "vitest";
import { sameOriginHeaders, signInFast } from "./support/browser";
import { browserSuite } from "./support/suite";

describe.skipIf(inject("browserSkipReason") !== "")("signing in", () => {
  const suite = browserSuite();

  it("signs in by the e-mailed link, which only the click on Continue spends", async () => {
    const { page, context } = await suite.open();
    await page.goto("/projects/some-project/settings");
    await page.getByRole("heading", { name: "Sign in to Sightline" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/sign-in");

    const since = Date.now() - 1000;
    await page.getByLabel("E-mail address").fill("ada@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    const token = await suite.server.linkTokenFor("ada@example.com", since);

    // A mail scanner fetching the link gets the page and spends nothing.
    const scanned = await context.request.get(`/auth/verify?token=${token}`);
    expect(scanned.status()).toBe(200);
    await page.goto(`/auth/verify?token=${token}`);
    await page.getByRole("heading", { name: "Sign in to Sightline" }).waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    // Back to the page asked for: the link carries no `next`, the sign-in page remembered it.
    await expect.poll(() => new URL(page.url()).pathname).toBe("/projects/some-project/settings");
    await page.getByRole("heading", { name: "Project not found or no access" }).waitFor();
    await page.goto("/projects");
    await page.getByRole("heading", { name: "No projects yet" }).waitFor();

    const cookie = (await context.cookies()).find((c) => c.name === "sightline_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
    expect(await page.evaluate(() => document.cookie)).not.toContain("sightline_session");

    // The session is listed with this browser's user agent as its device.
    const userAgent = await page.evaluate(() => navigator.userAgent);
    await page.goto("/account/security");
    const current = page.locator("tr[data-current]");
    await current.waitFor();
    expect(await current.innerText()).toContain("This device");
    expect(await current.locator("[title]").first().getAttribute("title")).toBe(userAgent);

    // The link is spent: a second use says so and offers a new one.
    const other = await suite.open();
    await other.page.goto(`/auth/verify?token=${token}`);
    await other.page.getByRole("button", { name: "Continue" }).click();
    await other.page.getByRole("heading", { name: "This link has expired or was already used" }).waitFor();
    await other.page.getByLabel("E-mail address").fill("ada@example.com");
    await other.page.getByRole("button", { name: "Send a new link" }).click();
    await other.page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  });

  it("answers the same for an address with and without an account", async () => {
    const texts: string[] = [];
    for (const email of ["ada@example.com", "nobody-yet@example.com"]) {
      const { page } = await suite.open();
      await page.goto("/auth/sign-in");
      await page.getByLabel("E-mail address").fill(email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
      texts.push((await page.locator("main").innerText()).replace(email, "<address>"));
    }
    expect(texts[0]).toBe(texts[1]);
  });

  it("shows how long to wait when links are rate-limited", async () => {
    const { page } = await suite.open();
    await page.goto("/auth/sign-in");
    await page.getByLabel("E-mail address").fill("hasty@example.com");
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    // Three links a minute per address: the fourth request is refused with Retry-After.
    const again = page.getByRole("button", { name: "Send another link", exact: true });
    for (let sent = 1; sent < 4; sent++) {
      await again.click();
      await page.locator("button[aria-busy]").waitFor({ state: "detached" });
    }
    await page.getByRole("alert").filter({ hasText: "Too many attempts" }).waitFor();
    const label = await page.getByRole("button", { name: /Send another link in \d+ s/ }).innerText();
    expect(Number(/in (\d+) s/.exec(label)?.[1])).toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: /Send another link in/ }).isDisabled()).toBe(true);
  });

  it("signs in with the pasted code, or with a password once one is set", async () => {
    const email = "grace@example.com";
    const setup = await suite.open();
    await signInFast(setup.context, suite.server, email);
    const set = await setup.context.request.post("/api/v1/auth/session/change-password", {
      data: { new_password: "a long passphrase 7", confirm_password: "a long passphrase 7" },
      headers: sameOriginHeaders(suite.server),
    });
    expect(set.status()).toBe(200);

    const { page } = await suite.open();
    await page.goto("/auth/sign-in?next=%2Faccount");
    await page.getByRole("button", { name: "Use a password instead" }).click();
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid e-mail or password" }).waitFor();
    await page.getByLabel("Password").fill("a long passphrase 7");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Account", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/account");

    const coded = await suite.open();
    const since = Date.now() - 1000;
    await coded.context.request.post("/api/v1/auth/magic-link", { data: { email } });
    const token = await suite.server.linkTokenFor(email, since);
    await coded.page.goto("/auth/sign-in");
    await coded.page.getByRole("button", { name: "I have a code from the e-mail" }).click();
    await coded.page.getByLabel("Sign-in code").fill(token);
    await coded.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await coded.page.getByRole("heading", { name: "Projects", exact: true }).waitFor();
  });
});
