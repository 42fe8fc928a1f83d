// Service levels and anomaly rules against the real server with traffic ingested: an SLO created
// in the form (attainment, budget and burn rates as computed by hand from the ingested records),
// the requests that spent the budget opened on the Requests page, the per-consumer template, the
// cards on the endpoint and consumer pages, the audit trail; an anomaly rule created in the form
// and its band drawn on the rule page; axe and screenshots of every page in light and dark.
import type { AlertBand, AlertRule, Slo, SloStatus, SloWithStatus } from "@sightline/contracts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import type { Opened } from "./support/browser";
import { type Api, ingest, record, seedCheckout } from "./support/seed";
import { inBothThemes, signedInApi } from "./support/people";
import { browserSuite } from "./support/suite";
import { checkPage } from "./support/check-page";

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

const order = (overrides: Record<string, unknown>) =>
  record("checkout-api", { method: "POST", path: "/orders", route: "/orders", ...overrides });

describe.skipIf(inject("browserSkipReason") !== "")("service levels", () => {
  const suite = browserSuite();
  let owner: Opened;
  let api: Api;
  let sloId = "";
  let ruleId = "";

  beforeAll(async () => {
    owner = await suite.open();
    api = await signedInApi(suite, owner, "owner@example.com");
    const key = await seedCheckout(api);
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    // POST /orders over the last 3 days: acme 200 calls (5 of them 500s in the last two minutes),
    // globex 100 calls, all good. 300 requests, 5 bad: 98.333 % against a 99.5 % target.
    await ingest(owner.context.request, key.key, [
      ...Array.from({ length: 180 }, (_, i) =>
        order({ consumer_id: "acme", timestamp: at(now - 3 * HOUR - i * 20 * 60_000) }),
      ),
      ...Array.from({ length: 15 }, () => order({ consumer_id: "acme", timestamp: at(now - 60_000) })),
      ...Array.from({ length: 5 }, () =>
        order({ consumer_id: "acme", status_code: 500, timestamp: at(now - 60_000) }),
      ),
      ...Array.from({ length: 100 }, (_, i) =>
        order({ consumer_id: "globex", timestamp: at(now - 3 * HOUR - i * 30 * 60_000) }),
      ),
    ]);
    // GET /catalog: 6 calls an hour over the last 24 hours and the same hours one and two weeks
    // ago, so an anomaly rule on it has a seasonal baseline to draw.
    const catalog = (timestamp: number) =>
      record("checkout-api", { path: "/catalog", route: "/catalog", timestamp: at(timestamp) });
    for (const weeksAgo of [0, 1, 2]) {
      await ingest(
        owner.context.request,
        key.key,
        Array.from({ length: 24 * 6 }, (_, i) =>
          catalog(now - weeksAgo * WEEK - 2 * 60_000 - i * 10 * 60_000),
        ),
      );
    }
  });

  it("creates an SLO in the form and shows its figures, burn rates and the requests that spent it", async () => {
    const { page } = owner;
    await page.goto("/projects/shop");
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "SLOs" }).click();
    await page.getByRole("heading", { name: "No SLOs yet" }).waitFor();
    await page.getByRole("link", { name: "New SLO" }).first().click();
    await page.getByRole("heading", { name: "New SLO" }).waitFor();

    await page.getByLabel("Name").fill("Checkout available");
    await page.getByLabel("App").selectOption("checkout-api");
    await page.getByLabel("POST /orders").check();
    await page.getByLabel("Target (%)").fill("99.5");
    await page.getByLabel("Window").selectOption("7");
    await page.getByRole("button", { name: "Create SLO" }).click();
    await page.getByRole("heading", { name: "Checkout available" }).waitFor();
    sloId = new URL(page.url()).pathname.split("/").at(-1) ?? "";

    const slo = await api.get<Slo>(`/projects/shop/slos/${sloId}`);
    expect(slo).toMatchObject({
      target: 99.5,
      window_days: 7,
      sli: { kind: "availability", also_bad: [] },
      scope: {
        app: { slug: "checkout-api" },
        endpoints: [{ method: "POST", route: "/orders" }],
        consumer: null,
      },
      alerting: { enabled: true, fast: { burn_rate: 14.4 }, slow: { burn_rate: 6 } },
    });
    // By hand: 295 of 300 good is 98.333 %; allowed 300 × 0.5 % = 1.5 bad, 5 spent: -233.3 % left.
    // The last 5 minutes: 5 bad of 20 is 25 %, 50 times the allowed 0.5 %.
    await page.getByText("98.333 %").waitFor();
    await page.getByText("-233.3 %").waitFor();
    const burn = page.getByRole("list", { name: "Burn rate by window" });
    await expect.poll(() => burn.innerText()).toContain("50×");
    expect(await burn.innerText()).toContain("5 min · fast threshold 14.4×");
    await page.locator("figure[data-chart] canvas").first().waitFor();

    const status = await api.get<SloStatus>(`/projects/shop/slos/${sloId}/status`);
    expect(status).toMatchObject({ requests: 300, bad: 5, meeting: false });
    await page.getByRole("link", { name: "Open them on the Requests page" }).click();
    await page.getByRole("heading", { level: 1, name: "Requests" }).waitFor();
    // The page's link is the status's dashboard_path (read a moment apart: the window's ends differ).
    const url = new URL(page.url());
    const expected = new URL(status.bad_requests.dashboard_path, url);
    expect(url.pathname).toBe(expected.pathname);
    const without = (params: URLSearchParams) =>
      [...params].filter(([name]) => name !== "since" && name !== "until");
    expect(without(url.searchParams)).toEqual(without(expected.searchParams));
    expect(without(url.searchParams)).toContainEqual(["status", "5xx"]);
    const since = Date.parse(url.searchParams.get("since") ?? "");
    expect(Date.parse(url.searchParams.get("until") ?? "") - since).toBeCloseTo(7 * 24 * HOUR, -3);
    await expect.poll(() => page.locator("[data-request-id]").count()).toBe(5);
  });

  it("makes the same SLO for each of the top consumers in one go", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/slos/new");
    await page.getByLabel("Name").fill("Checkout per customer");
    await page.getByLabel("App").selectOption("checkout-api");
    await page.getByLabel(/One SLO per consumer/).check();
    await page.getByLabel("Top consumers", { exact: true }).fill("2");
    await page.getByLabel("Target (%)").fill("99");
    await page.getByLabel("Window").selectOption("7");
    await page.getByRole("button", { name: "Create one SLO per consumer" }).click();
    await page.getByText("2 SLOs created").waitFor();
    expect(new URL(page.url()).pathname).toBe("/projects/shop/slos");

    // acme: 195 of 200 good (97.5 %, below 99 %); globex: 100 of 100.
    const acme = page.getByRole("row", { name: /Checkout per customer · acme/ });
    await expect.poll(() => acme.innerText()).toContain("97.5 %");
    expect(await acme.innerText()).toContain("Below target");
    const globex = page.getByRole("row", { name: /Checkout per customer · globex/ });
    await expect.poll(() => globex.innerText()).toContain("100 %");
    expect(await globex.innerText()).toContain("Meeting");
    const listed = await api.get<SloWithStatus[]>("/projects/shop/slos?consumer=acme&include_status=true");
    expect(listed.map((one) => one.slo.name)).toContain("Checkout per customer · acme");
  });

  it("shows the SLOs covering an endpoint and a consumer on their pages", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/endpoints/detail?app=checkout-api&method=POST&path=%2Forders");
    const card = page.getByRole("list", { name: "SLOs covering this" });
    await card.getByRole("link", { name: "Checkout available" }).waitFor();
    expect(await card.innerText()).toContain("98.333 %");

    await page.goto("/projects/shop/consumers/acme");
    const consumerCard = page.getByRole("list", { name: "SLOs covering this" });
    await consumerCard.getByRole("link", { name: "Checkout per customer · acme" }).waitFor();
    expect(await consumerCard.innerText()).not.toContain("globex");
  });

  it("records SLO writes in the audit log, in words", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/settings/audit-log");
    await page.getByText("created SLO").first().waitFor();
    await page.getByText("Checkout available").first().waitFor();
  });

  it("creates an anomaly rule in the form and draws its band", async () => {
    const { page } = owner;
    await page.goto("/projects/shop/alerts/new");
    await page.getByLabel("Rule name").fill("Catalog traffic unusual");
    await page.getByLabel("App").selectOption("checkout-api");
    await page.getByLabel("Endpoint").selectOption("GET /catalog");
    await page.getByLabel("Kind").selectOption("anomaly");
    await page.getByLabel("Metric").selectOption("request_count");
    await page.getByLabel("Sensitivity").selectOption("high");
    await page.getByLabel("Fires when the value is").selectOption("both");
    await page.getByLabel("Window").selectOption("60");
    await page.getByRole("button", { name: "Create rule" }).click();
    await page.getByRole("heading", { name: "Catalog traffic unusual" }).waitFor();
    ruleId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const rule = await api.get<AlertRule>(`/projects/shop/alerts/${ruleId}`);
    expect(rule).toMatchObject({
      kind: "anomaly",
      metric: "request_count",
      sensitivity: "high",
      direction: "both",
      window_seconds: 3600,
      comparator: null,
      threshold: null,
    });
    await page.getByText("outside the expected band (high sensitivity)").waitFor();
    const band = await api.get<AlertBand>(`/projects/shop/alerts/${ruleId}/band`);
    const drawn = band.points.filter((point) => point.expected !== null && point.value !== null);
    expect(drawn.length).toBeGreaterThan(0);
    await page.getByRole("figure", { name: "Request count against its expected band" }).waitFor();
    await page
      .getByText(`${band.points.filter((p) => p.status === "above" || p.status === "below").length} window`)
      .first()
      .waitFor();
  });

  it("has every SLO page accessible in light and dark", async () => {
    for (const [theme, { page }] of await inBothThemes(suite, owner, "owner@example.com")) {
      await page.goto("/projects/shop/slos");
      await page.getByRole("row", { name: /Checkout per customer · globex/ }).waitFor();
      await page.getByText("98.333 %").waitFor();
      await checkPage(page, "slos", theme);
      await page.goto(`/projects/shop/slos/${sloId}`);
      await page.getByText("-233.3 %").waitFor();
      await page.locator("figure[data-chart] canvas").first().waitFor();
      await checkPage(page, "slo", theme);
      await page.goto("/projects/shop/slos/new");
      await page.getByLabel("App").selectOption("checkout-api");
      await page.getByLabel("POST /orders").waitFor();
      await checkPage(page, "slo-form", theme);
      await page.goto("/projects/shop/endpoints/detail?app=checkout-api&method=POST&path=%2Forders");
      await page.getByRole("list", { name: "SLOs covering this" }).waitFor();
      await checkPage(page, "endpoint-slos", theme);
      await page.goto(`/projects/shop/alerts/${ruleId}`);
      await page.locator("figure[data-chart] canvas").first().waitFor();
      await checkPage(page, "alerts-anomaly-rule", theme);
      await page.goto(`/projects/shop/alerts/new`);
      await page.getByLabel("Kind").selectOption("anomaly");
      await page.getByLabel("Sensitivity").waitFor();
      await checkPage(page, "alerts-anomaly-form", theme);
    }
  });
});
