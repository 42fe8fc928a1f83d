// The cookie session against the real server: cross-site writes refused (403 csrf_rejected),
// bearer clients untouched, and one context signing out everywhere ends another context's
// session on its next request, which lands on sign-in with a message.
import { describe, expect, inject, it } from "vitest";
import { sameOriginHeaders, signInFast } from "./support/browser";
import { openSignedIn } from "./support/people";
import { browserSuite } from "./support/suite";

describe.skipIf(inject("browserSkipReason") !== "")("the cookie session", () => {
  const suite = browserSuite();

  it("refuses cookie-authenticated writes without the CSRF header or from another origin", async () => {
    const { page, context } = await openSignedIn(suite, "csrf@example.com");
    await page.goto("/projects");
    await page.getByRole("heading", { name: "No projects yet" }).waitFor();

    // A script on the page that skips the header (as a form post from elsewhere would).
    const bare = await page.evaluate(async () => {
      const response = await fetch("/api/v1/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Forged" }),
      });
      return { status: response.status, body: await response.json() };
    });
    expect(bare.status).toBe(403);
    expect(bare.body).toMatchObject({ error: "csrf_rejected", status: 403 });

    const crossOrigin = await context.request.post("/api/v1/projects", {
      data: { name: "Forged" },
      headers: { origin: "https://evil.example", "x-sightline-csrf": "1" },
    });
    expect(crossOrigin.status()).toBe(403);
    expect(crossOrigin.headers()["content-type"]).toMatch(/problem\+json/);

    const proper = await context.request.post("/api/v1/projects", {
      data: { name: "Real" },
      headers: sameOriginHeaders(suite.server),
    });
    expect(proper.status()).toBe(201);
    const projects = await (await context.request.get("/api/v1/projects")).json();
    expect(projects.map((project: { name: string }) => project.name)).toEqual(["Real"]);
  });

  it("leaves bearer clients alone: any origin, no CSRF header", async () => {
    const { context } = await suite.open();
    const since = Date.now() - 1000;
    await context.request.post("/api/v1/auth/magic-link", { data: { email: "script@example.com" } });
    const token = await suite.server.linkTokenFor("script@example.com", since);
    const pair = await (
      await fetch(`${suite.server.url}/api/v1/auth/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      })
    ).json();
    const created = await fetch(`${suite.server.url}/api/v1/projects`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${pair.access_token}`,
        origin: "https://elsewhere.example",
      },
      body: JSON.stringify({ name: "From a script" }),
    });
    expect(created.status).toBe(201);
  });

  it("signing out everywhere in one browser ends the other's session on its next request", async () => {
    const email = "two-browsers@example.com";
    const first = await suite.open();
    const second = await suite.open();
    await signInFast(first.context, suite.server, email);
    await signInFast(second.context, suite.server, email);
    await second.page.goto("/projects");
    await second.page.getByRole("heading", { name: "No projects yet" }).waitFor();

    await first.page.goto("/account/security");
    await first.page
      .getByRole("cell", { name: /Headless Chrome/ })
      .first()
      .waitFor();
    expect(await first.page.locator("tbody tr").count()).toBe(2);
    await first.page.getByRole("button", { name: "Sign out everywhere" }).click();
    await first.page.getByRole("dialog").getByRole("button", { name: "Sign out everywhere" }).click();
    await first.page.getByText("You have signed out.").waitFor();
    expect((await first.context.cookies()).some((cookie) => cookie.name === "sightline_session")).toBe(false);

    // The other browser has not reloaded: its next navigation finds the session gone.
    await second.page.getByRole("link", { name: "Account", exact: true }).click();
    await second.page.getByText("Your session has ended. Sign in again to continue.").waitFor();
    expect(new URL(second.page.url()).pathname).toBe("/auth/sign-in");
    expect(new URL(second.page.url()).searchParams.get("next")).toBe("/account");
    const refused = await second.context.request.get("/api/v1/users/me");
    expect(refused.status()).toBe(401);
  });

  it("signs out from the user menu: the session is revoked and the cookie cleared", async () => {
    const { page, context } = await openSignedIn(suite, "menu@example.com");
    const cookie = (await context.cookies()).find((c) => c.name === "sightline_session");
    await page.goto("/projects");
    await page.getByRole("button", { name: /menu@example\.com/ }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByText("You have signed out.").waitFor();
    expect((await context.cookies()).some((c) => c.name === "sightline_session")).toBe(false);
    // The old cookie value is dead on the server too.
    const replay = await fetch(`${suite.server.url}/api/v1/users/me`, {
      headers: { cookie: `sightline_session=${cookie?.value ?? ""}` },
    });
    expect(replay.status).toBe(401);
  });
});
