// Every account action: profile and time zone, picture upload and removal, setting and changing
// the password, sessions (another browser listed, revoked, signed out), deleting the account.
import sharp from "sharp";
import { describe, expect, inject, it } from "vitest";
import { signInFast } from "./support/browser";
import { openSignedIn } from "./support/people";
import { browserSuite } from "./support/suite";

describe.skipIf(inject("browserSkipReason") !== "")("the account", () => {
  const suite = browserSuite();

  it("saves names and a time zone from the IANA list", async () => {
    const { page } = await openSignedIn(suite, "profile@example.com");
    await page.goto("/account");
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    const zone = page.getByLabel("Time zone");
    const options = await zone.locator("option").allInnerTexts();
    expect(options.length).toBeGreaterThan(300);
    expect(options).toContain("(UTC+09:00) Asia/Tokyo");
    await zone.selectOption("Asia/Tokyo");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved").waitFor();
    await page.reload();
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Asia/Tokyo");
    expect(await page.getByLabel("First name").inputValue()).toBe("Ada");
    // The browser runs in UTC here: its zone is offered back.
    await page.getByRole("button", { name: "Use UTC" }).click();
    expect(await page.getByLabel("Time zone").inputValue()).toBe("UTC");
    expect(await page.getByRole("button", { name: /Ada Lovelace/ }).count()).toBe(1);
  });

  it("uploads and removes a picture, and shows the server's word on a bad file", async () => {
    const { page } = await openSignedIn(suite, "picture@example.com");
    await page.goto("/account");
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#4f46e5" } })
      .png()
      .toBuffer();
    await page
      .getByLabel("Picture file")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
    await page.getByText("Picture updated").waitFor();
    const avatar = page.locator("main img").first();
    await avatar.waitFor();
    expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

    await page
      .getByLabel("Picture file")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").innerText()).toMatch(/PNG|JPEG|type|picture/i);

    await page.getByRole("button", { name: "Remove" }).click();
    await page.getByText("Picture removed").waitFor();
    expect(await page.locator("main img").count()).toBe(0);
  });

  it("sets a first password, then changes it with the current one", async () => {
    const { page, context } = await openSignedIn(suite, "password@example.com");
    await page.goto("/account/security");
    await page.getByLabel("New password", { exact: true }).fill("first passphrase 1");
    await page.getByLabel("Confirm new password").fill("first passphrase 1");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText("Password saved; your other sessions were signed out").waitFor();

    await page.getByLabel("Current password").fill("wrong wrong wrong");
    await page.getByLabel("New password", { exact: true }).fill("second passphrase 2");
    await page.getByLabel("Confirm new password").fill("second passphrase 2");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("is not the current password").waitFor();
    await page.getByLabel("Current password").fill("first passphrase 1");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password saved; your other sessions were signed out").waitFor();
    // Still signed in here.
    expect((await context.request.get("/api/v1/users/me")).status()).toBe(200);
  });

  it("lists another browser's session, signs it out, and signs out the others", async () => {
    const here = await suite.open();
    const phone = await suite.open();
    const laptop = await suite.open();
    // Three sign-ins: exactly the per-address limit of links a minute.
    const email = "sessions@example.com";
    await signInFast(here.context, suite.server, email);
    await signInFast(phone.context, suite.server, email);
    await signInFast(laptop.context, suite.server, email);
    await phone.page.goto("/projects");
    await phone.page.getByRole("heading", { name: "Projects", exact: true }).waitFor();

    await here.page.goto("/account/security");
    await here.page.locator("tr[data-current]").waitFor();
    expect(await here.page.locator("tbody tr").count()).toBe(3);
    const phoneSession = await (await phone.context.request.get("/api/v1/auth/session")).json();
    const sessions = await (await here.context.request.get("/api/v1/users/sessions")).json();
    const index = sessions.findIndex((session: { id: string }) => session.id === phoneSession.session_id);
    await here.page
      .locator("tbody tr")
      .nth(index)
      .getByRole("button", { name: /Sign out/ })
      .click();
    await here.page.getByText(/Signed out Headless Chrome/).waitFor();
    expect(await here.page.locator("tbody tr").count()).toBe(2);

    // The phone finds out on its next navigation.
    await phone.page.getByRole("link", { name: "Account", exact: true }).click();
    await phone.page.getByText("Your session has ended. Sign in again to continue.").waitFor();

    await here.page.getByRole("button", { name: "Sign out other devices" }).click();
    await here.page.getByText("Signed out 1 other session").waitFor();
    expect(await here.page.locator("tbody tr").count()).toBe(1);
    expect((await laptop.context.request.get("/api/v1/users/me")).status()).toBe(401);
  });

  it("deletes the account after the e-mail address is typed", async () => {
    const { page, context } = await openSignedIn(suite, "leaving@example.com");
    await page.goto("/account/security");
    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Projects you own are deleted").waitFor();
    await dialog.getByLabel(/Type leaving@example.com to confirm/).fill("leaving@example.com");
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await page.getByText("Your account has been deleted.").waitFor();
    expect((await context.cookies()).some((cookie) => cookie.name === "sightline_session")).toBe(false);
  });
});
