// Two people sharing a project, each in their own browser context, with every e-mail sent over
// a real SMTP conversation: an owner invites by e-mail, the invitee (signed out) follows the
// link, signs in by magic link and comes back to accept; the dashboard then offers only what
// the role allows; a role change widens it; removal ends access. Also: the wrong account is
// told so, the inbox answers invitations, and the new pages pass axe in light and dark.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { invitationTokenOf } from "../../server/test/support/mail";
import { seriousAxeViolations } from "./support/axe";
import { type Opened, signInFast } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { type Api, apiAs, ingest, record } from "./support/seed";
import { signedInApi } from "./support/people";
import { browserSuite } from "./support/suite";

const OWNER = "ada@example.com";
const INVITEE = "grace@example.com";

const tabs = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });

/** Invites from the open members page, through its dialog, and waits for the confirmation. */
async function invite(page: Page, email: string, role: "viewer" | "member" | "admin"): Promise<void> {
  await page.getByRole("button", { name: "Invite people" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("E-mail address").fill(email);
  await dialog.getByLabel("Role").selectOption(role);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await page.getByText(`Invitation sent to ${email}`).waitFor();
}

describe.skipIf(inject("browserSkipReason") !== "")("team: members, roles and invitations", () => {
  const suite = browserSuite({ smtp: true });
  let owner: Opened;
  let api: Api;

  /** The invitation link e-mailed to `email` (the `after`-th mail to that address), as sent. */
  async function invitationLink(email: string, after: number): Promise<string> {
    const mail = await suite.smtp.waitForMail(email, { after });
    return `/invitations/accept?token=${invitationTokenOf(mail.raw)}`;
  }

  async function expectAccessible(page: Page, what: string): Promise<void> {
    expect(await seriousAxeViolations(page), what).toEqual([]);
  }

  beforeAll(async () => {
    owner = await suite.open();
    api = await signedInApi(suite, owner, OWNER);
    await api.patch("/users/me", { first_name: "Ada", last_name: "Lovelace" });
    await api.post("/projects", { name: "Shop", description: "The storefront's APIs." });
    await api.post("/projects/shop/apps", { name: "Checkout API", framework: "express" });
    await api.post("/apps/checkout-api/environments?project=shop", { name: "staging" });
    const key = await api.post<{ key: string }>("/apps/checkout-api/api-keys?project=shop", {
      name: "Checkout production",
    });
    await ingest(owner.context.request, key.key, [record("checkout-api")]);
  });

  it("invites by e-mail; the signed-out invitee signs in from the link and accepts as viewer", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/settings/members");
    await page.getByRole("cell", { name: /Ada Lovelace/ }).waitFor();
    await invite(page, INVITEE, "viewer");
    const pending = page.getByRole("row", { name: new RegExp(INVITEE) });
    await pending.waitFor();
    expect(await pending.innerText()).toContain("Viewer");
    await expectAccessible(page, "members with a pending invitation");

    // The invitee opens the e-mailed link in a browser that is not signed in.
    const link = await invitationLink(INVITEE, 0);
    const invitee = await suite.open();
    await invitee.page.goto(link);
    await invitee.page.getByRole("heading", { name: "Sign in to Sightline" }).waitFor();
    expect(new URL(invitee.page.url()).searchParams.get("next")).toBe(link);
    await invitee.page.getByLabel("E-mail address").fill(INVITEE);
    await invitee.page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await invitee.page.getByRole("heading", { name: "Check your inbox" }).waitFor();

    // The sign-in link opens in a new tab, which knows nothing of the invitation; it comes back.
    const token = await suite.server.linkTokenFor(INVITEE);
    const tab = await invitee.context.newPage();
    await tab.goto(`/auth/verify?token=${token}`);
    await tab.getByRole("button", { name: "Continue" }).click();
    await tab.getByRole("heading", { name: "Join a project" }).waitFor();
    expect(new URL(tab.url()).pathname + new URL(tab.url()).search).toBe(link);
    await tab.getByText(`You are signed in as ${INVITEE}`).waitFor();
    await expectAccessible(tab, "accept page");
    await tab.getByRole("button", { name: "Accept invitation" }).click();
    await tab.getByText("You joined Shop as viewer").waitFor();
    await expect.poll(() => new URL(tab.url()).pathname).toMatch(/^\/projects\/shop(\/|$)/);

    // The owner's list now has them as a viewer, and no pending invitation.
    await page.reload();
    const row = page.getByRole("row", { name: new RegExp(INVITEE) });
    await row.getByRole("combobox", { name: `Role of ${INVITEE}` }).waitFor();
    expect(await row.getByRole("combobox").inputValue()).toBe("viewer");
    await page.getByText("No pending invitations").waitFor();

    // A viewer reads settings and changes nothing.
    await tab.goto("/projects/shop/settings");
    await tab.getByLabel("Project name").waitFor();
    expect(await tab.getByLabel("Project name").isDisabled()).toBe(true);
    expect(await tab.getByRole("button", { name: "Save changes" }).count()).toBe(0);
    expect(await tab.getByRole("button", { name: "Delete project" }).count()).toBe(0);
    expect(await tabs(tab).getByRole("link").allInnerTexts()).toEqual(["General", "Apps", "Members"]);
    await tab.goto("/projects/shop/settings/apps");
    await tab.getByRole("link", { name: /Checkout API/ }).waitFor();
    expect(await tab.getByRole("button", { name: "New app" }).count()).toBe(0);
    await tab.goto("/projects/shop/settings/apps/checkout-api");
    await tab.getByRole("cell", { name: "staging" }).first().waitFor();
    expect(await tab.getByLabel("App name").isDisabled()).toBe(true);
    expect(await tab.getByLabel("Colour of staging").isDisabled()).toBe(true);
    expect(await tab.getByLabel("New environment").count()).toBe(0);
    expect(await tab.getByRole("button", { name: "Delete app" }).count()).toBe(0);
    expect(await tab.getByRole("heading", { name: "App keys" }).count()).toBe(0);
    await tab.goto("/projects/shop/settings/members");
    await tab.getByRole("row", { name: /Ada Lovelace/ }).waitFor();
    expect(await tab.getByRole("button", { name: "Invite people" }).count()).toBe(0);
    expect(await tab.getByRole("combobox").count()).toBe(0);
    expect(await tab.getByRole("button", { name: "Leave project" }).count()).toBe(1);
    await tab.goto("/projects/shop/setup?app=checkout-api");
    await tab.getByText("Admins and owners create API keys.", { exact: false }).waitFor();
    expect(await tab.getByRole("button", { name: /Create an API key/ }).count()).toBe(0);

    await tab.goto("/projects/shop/settings");
    await tab.getByLabel("Project name").waitFor();
    await expectAccessible(tab, "read-only settings");
    await screenshot(tab, "settings-general-viewer", "light");

    // Promoted to admin: keys, members and settings open up; deleting stays the owner's.
    const granteeRow = page.getByRole("row", { name: new RegExp(INVITEE) });
    await granteeRow.getByRole("combobox", { name: `Role of ${INVITEE}` }).selectOption("admin");
    await page.getByText("grace is now admin").waitFor();
    await tab.goto("/projects/shop/settings");
    await tab.getByLabel("Project name").waitFor();
    await expect.poll(() => tab.getByLabel("Project name").isDisabled()).toBe(false);
    expect(await tabs(tab).getByRole("link").allInnerTexts()).toEqual([
      "General",
      "Apps",
      "API keys",
      "Members",
      "Audit log",
    ]);
    expect(await tab.getByRole("button", { name: "Delete project" }).count()).toBe(0);
    await tab.goto("/projects/shop/settings/keys");
    await tab.getByRole("cell", { name: "Checkout production", exact: true }).waitFor();
    await tab.goto("/projects/shop/settings/members");
    await tab.getByRole("button", { name: "Invite people" }).waitFor();
    // An admin manages members, not owners: Ada's row offers nothing.
    expect(
      await tab
        .getByRole("row", { name: /Ada Lovelace/ })
        .getByRole("combobox")
        .count(),
    ).toBe(0);
    expect(await tab.getByRole("heading", { name: "Transfer ownership" }).count()).toBe(0);
    await tab.goto("/projects/shop/settings/audit-log");
    const roleChange = tab.locator("tr[data-action='member.role_changed']");
    await roleChange.waitFor();
    expect((await roleChange.innerText()).replace(/\s+/g, " ")).toContain("viewer → admin");
    await expectAccessible(tab, "audit log");

    // Removed: access ends at once.
    await granteeRow.getByRole("button", { name: `Remove ${INVITEE}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove member" }).click();
    await page.getByText("grace removed").waitFor();
    await tab.goto("/projects/shop/settings");
    await tab.getByRole("heading", { name: "Project not found or no access" }).waitFor();
    await tab.goto("/projects");
    await tab.getByRole("heading", { name: "No projects yet" }).waitFor();
  });

  it("tells the wrong account so, and lets the right one answer from the inbox", async () => {
    const { page } = owner;
    const invited = "hopper@example.com";
    await page.goto("/projects/shop/settings/members");
    await invite(page, invited, "member");
    const link = await invitationLink(invited, 0);

    const stranger = await suite.open();
    await signInFast(stranger.context, suite.server, "someone-else@example.com");
    await stranger.page.goto(link);
    await stranger.page.getByRole("button", { name: "Accept invitation" }).click();
    await stranger.page.getByText("This invitation is for another e-mail address").waitFor();
    await stranger.page
      .getByText("You are signed in as someone-else@example.com", { exact: false })
      .first()
      .waitFor();
    await expectAccessible(stranger.page, "accept page, wrong account");
    // Switching account goes to sign-in and back to the same link.
    await stranger.page.getByRole("button", { name: "Sign in with another account" }).click();
    await stranger.page.getByRole("heading", { name: "Sign in to Sightline" }).waitFor();
    expect(new URL(stranger.page.url()).searchParams.get("next")).toBe(link);

    // The invited person finds it in their inbox, with a count in the sidebar, and accepts there.
    const member = await suite.open();
    await signInFast(member.context, suite.server, invited);
    await member.page.goto("/projects");
    await member.page.getByRole("link", { name: /Invitations\s*1 pending/ }).click();
    const item = member.page.getByRole("listitem", { name: "Invitation to Shop" });
    await item.waitFor();
    expect(await item.innerText()).toContain("invited you as member");
    await expectAccessible(member.page, "invitations inbox");
    await item.getByRole("button", { name: "Accept" }).click();
    await member.page.getByText("You joined Shop as member").waitFor();

    // A member manages apps and environments, but neither keys nor members.
    await member.page.goto("/projects/shop/settings/apps");
    await member.page.getByRole("button", { name: "New app" }).waitFor();
    await member.page.goto("/projects/shop/settings/apps/checkout-api");
    await member.page.getByLabel("New environment").waitFor();
    expect(await member.page.getByLabel("App name").isDisabled()).toBe(false);
    expect(await member.page.getByRole("heading", { name: "App keys" }).count()).toBe(0);
    expect(await tabs(member.page).getByRole("link").allInnerTexts()).toEqual(["General", "Apps", "Members"]);
    expect(await member.page.getByLabel("Project name").count()).toBe(0);
    await member.page.goto("/projects/shop/settings");
    await member.page.getByLabel("Project name").waitFor();
    expect(await member.page.getByLabel("Project name").isDisabled()).toBe(true);

    // Leaving is theirs to do.
    await member.page.goto("/projects/shop/settings/members");
    await member.page.getByRole("button", { name: "Leave project" }).click();
    await member.page.getByRole("dialog").getByRole("button", { name: "Leave project" }).click();
    await member.page.getByText("You left the project").waitFor();
    await member.page.getByRole("heading", { name: "No projects yet" }).waitFor();
  });

  it("renders members, audit log, inbox and accept page accessibly in light and dark", async () => {
    const viewer = "katherine@example.com";
    await api.post("/projects/shop/invitations", { email: viewer, role: "viewer" });
    const link = await invitationLink(viewer, 0);
    for (const theme of ["light", "dark"] as const) {
      const own = await suite.open({ colorScheme: theme });
      await signInFast(own.context, suite.server, OWNER);
      await own.page.goto("/projects/shop/settings/members");
      await own.page.getByRole("row", { name: new RegExp(viewer) }).waitFor();
      await own.page.getByRole("heading", { name: "Transfer ownership" }).waitFor();
      await expectAccessible(own.page, `members in ${theme}`);
      await screenshot(own.page, "settings-members", theme);
      await own.page.goto("/projects/shop/settings/audit-log");
      await own.page.locator("tr[data-action='member.invited']").first().waitFor();
      await expectAccessible(own.page, `audit log in ${theme}`);
      await screenshot(own.page, "settings-audit-log", theme);
      await own.close();

      const guest = await suite.open({ colorScheme: theme });
      await signInFast(guest.context, suite.server, viewer);
      await guest.page.goto("/invitations");
      await guest.page.getByRole("listitem", { name: "Invitation to Shop" }).waitFor();
      await expectAccessible(guest.page, `inbox in ${theme}`);
      await screenshot(guest.page, "invitations", theme);
      await guest.page.goto(link);
      await guest.page.getByRole("button", { name: "Accept invitation" }).waitFor();
      await expectAccessible(guest.page, `accept page in ${theme}`);
      await screenshot(guest.page, "invitation-accept", theme);
      await guest.close();
    }
  });

  it("hands the project over: the new owner may delete it, the old one becomes admin", async () => {
    const heir = "mary@example.com";
    const invitation = await api.post<{ id: string }>("/projects/shop/invitations", {
      email: heir,
      role: "member",
    });
    const other = await suite.open();
    await signInFast(other.context, suite.server, heir);
    await apiAs(other.context.request, suite.server).post("/invitations/accept", { id: invitation.id });

    const { page } = owner;
    await page.goto("/projects/shop/settings/members");
    const transfer = page.getByRole("region", { name: "Transfer ownership" });
    await transfer.getByLabel("New owner").selectOption({ label: `mary (${heir})` });
    await transfer.getByRole("button", { name: "Transfer ownership" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Transfer ownership" }).click();
    await page.getByText("mary now owns the project").waitFor();
    const me = page.getByRole("row", { name: new RegExp(OWNER) });
    await expect.poll(() => me.getByRole("cell").nth(1).innerText()).toBe("Admin");
    expect(await page.getByRole("region", { name: "Transfer ownership" }).count()).toBe(0);
    await page.goto("/projects/shop/settings");
    await page.getByLabel("Project name").waitFor();
    expect(await page.getByRole("button", { name: "Delete project" }).count()).toBe(0);

    await other.page.goto("/projects");
    expect(await other.page.getByRole("link", { name: /Shop/ }).innerText()).toContain("Owner");
    await other.page.goto("/projects/shop/settings");
    await other.page.getByRole("button", { name: "Delete project" }).waitFor();
  });
});
