// The dashboard links a notification carries, per rule scope: each names a page the dashboard
// routes (the overview or the endpoint page) with its own filter keys and the evaluated window.
import { describe, expect, it } from "vitest";
import { dashboardLinks } from "../../src/modules/alerts/notification.js";

const BASE = "https://sightline.example.com";
const WINDOW = { start: "2026-11-25T10:00:00.000Z", end: "2026-11-25T10:05:00.000Z" };
const SPAN = "since=2026-11-25T10%3A00%3A00.000Z&until=2026-11-25T10%3A05%3A00.000Z";

describe("dashboardLinks", () => {
  it("links a project-scoped rule to the project's overview over the window", () => {
    const links = dashboardLinks(
      BASE,
      "shop",
      "rule_1",
      { app: null, environment: null, endpoint: null },
      WINDOW,
    );
    expect(links).toEqual({
      rule: `${BASE}/projects/shop/alerts/rule_1`,
      dashboard: `${BASE}/projects/shop?${SPAN}`,
    });
  });

  it("links an app-scoped rule to the overview filtered to the app (and environment as `env`)", () => {
    expect(
      dashboardLinks(BASE, "shop", "rule_1", { app: "checkout", environment: null, endpoint: null }, WINDOW)
        .dashboard,
    ).toBe(`${BASE}/projects/shop?app=checkout&${SPAN}`);
    expect(
      dashboardLinks(
        BASE,
        "shop",
        "rule_1",
        { app: "checkout", environment: "staging", endpoint: null },
        WINDOW,
      ).dashboard,
    ).toBe(`${BASE}/projects/shop?app=checkout&env=staging&${SPAN}`);
  });

  it("links an endpoint-scoped rule to the endpoint's page", () => {
    const links = dashboardLinks(
      BASE,
      "my shop",
      "rule_1",
      { app: "checkout", environment: "production", endpoint: { method: "POST", route: "/orders/:id" } },
      WINDOW,
    );
    expect(links.dashboard).toBe(
      `${BASE}/projects/my%20shop/endpoints/detail?app=checkout&env=production&method=POST` +
        `&path=%2Forders%2F%3Aid&${SPAN}`,
    );
  });
});
