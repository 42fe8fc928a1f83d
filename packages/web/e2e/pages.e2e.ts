// Every page in light and dark: no serious or critical accessibility violation (axe-core), no
// console error, no CSP violation, no request beyond 127.0.0.1, and one screenshot each. Also
// the budget: the JavaScript a first visit downloads stays under 250 KiB compressed.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { type Opened, signInFast } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { apiAs, seedShop } from "./support/seed";
import { browserSuite } from "./support/suite";

type Theme = "light" | "dark";

interface PageCase {
  readonly name: string;
  /** Signed in, or a signed-out visitor. */
  readonly signedIn: boolean;
  visit(page: Page): Promise<void>;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { name }).first().waitFor();

const PAGES: readonly PageCase[] = [
  {
    name: "sign-in",
    signedIn: false,
    visit: async (page) => {
      await page.goto("/auth/sign-in");
      await heading(page, "Sign in to Sightline");
    },
  },
  {
    name: "sign-in-sent",
    signedIn: false,
    visit: async (page) => {
      await page.goto("/auth/sign-in");
      await page.getByLabel("E-mail address").fill("visitor@example.com");
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await heading(page, "Check your inbox");
    },
  },
  {
    name: "verify",
    signedIn: false,
    visit: async (page) => {
      await page.goto("/auth/verify?token=not-yet-clicked-token-value");
      await heading(page, "Sign in to Sightline");
    },
  },
  {
    name: "verify-expired",
    signedIn: false,
    visit: async (page) => {
      await page.goto("/auth/verify");
      await heading(page, "This link has expired or was already used");
    },
  },
  {
    name: "projects-empty",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects");
      await heading(page, "No projects yet");
    },
  },
  {
    name: "new-project",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/new");
      await heading(page, "New project");
    },
  },
  {
    name: "projects",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects");
      await page.getByRole("link", { name: /Shop/ }).first().waitFor();
    },
  },
  {
    name: "setup",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/shop/setup?app=billing");
      await page.getByText("Waiting for your first request…").waitFor();
      await page.getByRole("button", { name: "Create an API key for Billing" }).click();
      await page.getByText("Copy it now").waitFor();
    },
  },
  {
    name: "setup-received",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/shop/setup?app=checkout-api");
      await page.getByText("First request received").waitFor();
    },
  },
  {
    name: "settings-general",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/shop/settings");
      await page.getByLabel("Project name").waitFor();
    },
  },
  {
    name: "settings-apps",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/shop/settings/apps");
      await page.getByRole("link", { name: /Checkout API/ }).waitFor();
    },
  },
  {
    name: "settings-app",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/shop/settings/apps/checkout-api");
      await page.getByRole("cell", { name: "/orders/{id}" }).first().waitFor();
      await page.getByRole("cell", { name: "staging" }).first().waitFor();
    },
  },
  {
    name: "settings-keys",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/projects/shop/settings/keys");
      await page.getByRole("cell", { name: "Checkout production" }).first().waitFor();
    },
  },
  {
    name: "account",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/account");
      await page.getByLabel("Time zone").waitFor();
    },
  },
  {
    name: "account-security",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/account/security");
      await page.locator("tr[data-current]").waitFor();
    },
  },
  {
    name: "not-found",
    signedIn: true,
    visit: async (page) => {
      await page.goto("/no/such/page");
      await heading(page, "Page not found");
    },
  },
];

describe.skipIf(inject("browserSkipReason") !== "")("every page", () => {
  const suite = browserSuite();
  const contexts = new Map<string, Opened>();

  /** One context per theme and sign-in state, the same person in both themes. */
  async function contextFor(theme: Theme, signedIn: boolean): Promise<Opened> {
    const id = `${theme}-${signedIn}`;
    let opened = contexts.get(id);
    if (opened === undefined) {
      opened = await suite.open({ colorScheme: theme });
      if (signedIn) await signInFast(opened.context, suite.server, "ada@example.com");
      contexts.set(id, opened);
    }
    return opened;
  }

  it.each(PAGES)("$name, light and dark: accessible, quiet, offline", async (pageCase) => {
    for (const theme of ["light", "dark"] as const) {
      const opened = await contextFor(theme, pageCase.signedIn);
      if (pageCase.name === "projects" && theme === "light") {
        const api = apiAs(opened.context.request, suite.server);
        await seedShop(api, opened.context.request);
        await api.patch("/users/me", { first_name: "Ada", last_name: "Lovelace" });
      }
      await pageCase.visit(opened.page);
      expect(await seriousAxeViolations(opened.page), `${pageCase.name} in ${theme}`).toEqual([]);
      await screenshot(opened.page, pageCase.name, theme);
      expect(opened.problems).toEqual([]);
    }
  });

  it("keeps the JavaScript of a first visit within 250 KiB compressed", async () => {
    const opened = await suite.open();
    await signInFast(opened.context, suite.server, "budget@example.com");
    // What crossed the wire: the encoded body size of each script (brotli when precompressed).
    const scripts: Array<Promise<[string, number]>> = [];
    opened.page.on("requestfinished", (request) => {
      if (request.resourceType() !== "script") return;
      scripts.push(
        request.sizes().then((sizes) => [request.url(), sizes.responseBodySize] as [string, number]),
      );
    });
    for (const path of ["/projects", "/account/security", "/projects/nothing-here/settings/keys"]) {
      scripts.length = 0;
      await opened.page.goto(path);
      await opened.page.waitForLoadState("networkidle");
      const sizes = await Promise.all(scripts);
      const total = sizes.reduce((sum, [, size]) => sum + size, 0);
      expect(
        total,
        `${path}: ${sizes.map(([url, size]) => `${url} ${size}`).join(", ")}`,
      ).toBeLessThanOrEqual(250 * 1024);
      expect(sizes.length).toBeGreaterThan(1);
    }
  });
});
