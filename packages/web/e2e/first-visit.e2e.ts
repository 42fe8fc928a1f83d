// A first visit by someone who never signed in: the dashboard asks once whether there is a
// session, sends the visitor to sign-in without claiming a session ended, and logs no error at all.
import type { ConsoleMessage } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { browserSuite } from "./support/suite";

describe.skipIf(inject("browserSkipReason") !== "")("a first visit", () => {
  const suite = browserSuite();

  it("lands on sign-in with no 'session ended' banner, one session probe and no console error", async () => {
    const { page } = await suite.open();
    const errors: string[] = [];
    page.on("console", (message: ConsoleMessage) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const probes: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith("/api/v1/auth/session") && request.method() === "GET") probes.push(pathname);
    });
    await page.goto("/");
    await page
      .getByRole("heading", { name: /sign in/i })
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/sign-in");
    // Let any late second probe or redirect happen before counting.
    await page.waitForLoadState("networkidle");
    expect({
      banner: await page.getByText("Your session has ended").count(),
      reason: new URL(page.url()).searchParams.get("reason"),
      probes: probes.length,
      errors,
    }).toEqual({
      banner: 0,
      reason: null,
      probes: 1,
      // "No session" is an answer, not a failure: not even Chromium's line for a 401.
      errors: [],
    });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
