// The traffic pages on a hand-checked dataset sent through the real ingest route: 40 requests in
// the last 30 minutes to two endpoints of one app, from three consumers, with 6 × 4xx and 2 × 5xx,
// and three logs sharing the trace of one request. Figures on screen are checked against it;
// filters and zoom must change the URL and the results; the drawer shows headers and payloads;
// a session ended mid-visit lands on sign-in with a message; every page passes axe in both themes.
import type { CreatedApiKey } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { type Opened, sameOriginHeaders, signInFast } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { apiAs, ingest, ingestLogs, logRecord } from "./support/seed";
import { checkoutOwner } from "./support/people";
import { browserSuite } from "./support/suite";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const XSS = `<img src=x onerror="alert('xss')">`;

/**
 * The dataset. GET /orders/{id}: 24 requests (20 × 200, 4 × 404). POST /orders: 16 requests
 * (12 × 201, 2 × 422, 2 × 500). Consumers: acme 20, globex 12, initech 8. Plus the detailed
 * POST /orders 201 of acme. So: 41 requests, 6 × 4xx, 2 × 5xx, error rate 8 / 41 = 19.5 %,
 * 3 consumers, 2 endpoints; POST /orders has the higher error rate (4 / 17 = 23.5 % against
 * 4 / 24 = 16.7 %).
 */
function dataset(now: number): Record<string, unknown>[] {
  const consumers = [
    ...Array.from({ length: 20 }, () => ["acme", "Acme Corp"]),
    ...Array.from({ length: 12 }, () => ["globex", "Globex"]),
    ...Array.from({ length: 8 }, () => ["initech", "Initech"]),
  ];
  return consumers.map(([id, name], index) => {
    // A fixed permutation of 0–39 (7 is prime to 40) spreads endpoints and statuses over consumers:
    // slots 0–23 are GETs (0–3 answer 404), 24–39 POSTs (24–25 answer 422, 26–27 answer 500).
    const slot = (index * 7) % 40;
    const isGet = slot < 24;
    const status = isGet ? (slot < 4 ? 404 : 200) : slot < 26 ? 422 : slot < 28 ? 500 : 201;
    return {
      app_id: "checkout-api",
      timestamp: new Date(now - (index + 1) * 40_000).toISOString(),
      environment: "production",
      method: isGet ? "GET" : "POST",
      path: isGet ? `/orders/${100 + slot}` : "/orders",
      route: isGet ? "/orders/{id}" : "/orders",
      status_code: status,
      response_time_ms: 10 + slot,
      request_size: 100,
      response_size: 400,
      consumer_id: id,
      consumer_name: name,
      ip_address: "203.0.113.7",
      user_agent: "shop-client/1.0",
    };
  });
}

/** The one request with everything: headers, JSON payloads (one carrying markup), a trace. */
function detailed(now: number): Record<string, unknown> {
  return {
    app_id: "checkout-api",
    timestamp: new Date(now - 5_000).toISOString(),
    environment: "production",
    method: "POST",
    path: "/orders",
    route: "/orders",
    status_code: 201,
    response_time_ms: 42.5,
    request_size: 64,
    response_size: 32,
    consumer_id: "acme",
    consumer_name: "Acme Corp",
    ip_address: "198.51.100.4",
    user_agent: "shop-client/1.0",
    request_headers: {
      host: "shop.example",
      "content-type": "application/json",
      "x-request-tag": "detail-probe",
    },
    response_headers: { "content-type": "application/json", "x-served-by": "edge-7" },
    request_payload: JSON.stringify({ sku: "A-1", note: XSS }),
    response_payload: JSON.stringify({ id: 42, status: "created" }),
    trace_id: TRACE,
  };
}

const ALL_REQUESTS = 41;

describe.skipIf(inject("browserSkipReason") !== "")("the traffic pages", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "grace@example.com");

  beforeAll(async () => {
    const now = Date.now();
    // The detailed request is sent on its own so the 40 keep the round figures above.
    const result = await ingest(me.context.request, me.key.key, dataset(now));
    expect(result).toMatchObject({ accepted: 40, rejected: 0 });
    await ingest(me.context.request, me.key.key, [detailed(now)]);
    await ingestLogs(
      me.context.request,
      me.key.key,
      ["INFO", "WARNING", "ERROR"].map((level, index) =>
        logRecord("checkout-api", {
          timestamp: new Date(now - 4_000 + index * 100).toISOString(),
          level,
          message: `order step ${index + 1} ${level === "ERROR" ? "payment declined" : "ok"}`,
          logger_name: "shop.orders",
          trace_id: TRACE,
        }),
      ),
    );
  });

  const kpi = (page: Page, label: string) =>
    page.locator(`dl[aria-label="Key figures"] dt:text-is("${label}") + dd`);

  it("the overview shows the dataset's figures, sorts endpoints and zooms by dragging", async () => {
    const { page } = me;
    await page.goto("/projects/shop?range=1h");
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    await page.locator('dl[aria-label="Key figures"]').waitFor();
    expect(await kpi(page, "Requests").first().textContent()).toBe(String(ALL_REQUESTS));
    // 8 failures of 41 requests.
    expect(await kpi(page, "Error rate").first().textContent()).toBe("19.5 %");
    expect(await kpi(page, "4xx").first().textContent()).toBe("6");
    expect(await kpi(page, "5xx").first().textContent()).toBe("2");
    expect(await kpi(page, "Unique consumers").first().textContent()).toBe("3");
    expect(await kpi(page, "Unique endpoints").first().textContent()).toBe("2");
    // The chart drew: its summary names the total and the canvas exists.
    const summary = await page
      .locator('figure[aria-label="Requests over time by status class"] [data-chart-summary]')
      .textContent();
    expect(summary).toMatch(/1xx–3xx, 33 in all.*4xx, 6 in all.*5xx, 2 in all/);
    expect(await page.locator("figure canvas").count()).toBeGreaterThanOrEqual(2);

    // Hovering a bucket shows its exact figures (the chart is not redrawn under the pointer).
    const requestsPlot = page.locator('figure[aria-label="Requests over time by status class"] .u-over');
    const over = await requestsPlot.boundingBox();
    if (over === null) throw new Error("no chart");
    await page.mouse.move(over.x + over.width * 0.95, over.y + over.height / 2);
    await page.mouse.move(over.x + over.width * 0.96, over.y + over.height / 2);
    const tooltip = page.locator('figure[aria-label="Requests over time by status class"] [role="status"]');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toMatch(/1xx–3xx\d+4xx\d+5xx\d+/);
    await page.mouse.move(0, 0);
    // A legend button hides its series (and the spoken summary follows).
    const fiveXx = page.locator(
      'figure[aria-label="Requests over time by status class"] button[data-series="5xx"]',
    );
    await fiveXx.click();
    expect(await fiveXx.getAttribute("aria-pressed")).toBe("false");
    await expect
      .poll(() =>
        page
          .locator('figure[aria-label="Requests over time by status class"] [data-chart-summary]')
          .textContent(),
      )
      .not.toMatch(/5xx/);
    await fiveXx.click();

    // Sorting by error rate (descending) puts POST /orders (4 of 17 failed) first.
    await page.getByRole("button", { name: "Error rate" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("sort")).toBe("error_rate");
    await expect
      .poll(() => page.locator('table[aria-label="Endpoints"] tbody tr').first().textContent())
      .toMatch(/POST\s*\/orders/);

    // Drag across the middle of the requests chart: the URL gets since/until and loses range.
    const plot = page.locator('figure[aria-label="Requests over time by status class"] .u-over');
    const box = await plot.boundingBox();
    if (box === null) throw new Error("no chart");
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get("since")).not.toBeNull();
    const url = new URL(page.url());
    expect(url.searchParams.get("range")).toBeNull();
    const since = Date.parse(url.searchParams.get("since") as string);
    const until = Date.parse(url.searchParams.get("until") as string);
    expect(until - since).toBeGreaterThan(0);
    expect(until - since).toBeLessThan(3_600_000);
    // Back returns to the hour.
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("range")).toBe("1h");
  });

  it("the requests explorer filters through the URL and opens a request's headers and payloads", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText(`1–41 of ${ALL_REQUESTS} requests`).waitFor();
    await page.getByRole("combobox", { name: /^Status/ }).selectOption("5xx");
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("5xx");
    await page.getByText("1–2 of 2 requests").waitFor();
    await page.getByRole("combobox", { name: /^Status/ }).selectOption("");
    await page.getByRole("combobox", { name: "Consumer" }).fill("initech");
    await page.getByRole("combobox", { name: "Consumer" }).press("Enter");
    await page.getByText("1–8 of 8 requests").waitFor();
    await page.goBack();
    await page.getByText(`1–41 of ${ALL_REQUESTS} requests`).waitFor();

    await page.getByLabel("Trace id").fill(TRACE);
    await page.getByLabel("Trace id").press("Enter");
    await page.getByText("1–1 of 1 requests").waitFor();
    await page.locator("tr[data-request-id]").first().click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("region", { name: "Request headers" }).getByText("detail-probe").waitFor();
    expect(new URL(page.url()).searchParams.get("req")).not.toBeNull();
    await drawer.getByRole("region", { name: "Response headers" }).getByText("edge-7").waitFor();
    const payload = await drawer.getByLabel("Request payload", { exact: true }).textContent();
    expect(payload).toContain('"sku": "A-1"');
    // Markup in a payload is text, never HTML (no dialog opened: the suite checks).
    expect(payload).toContain(XSS.replace(/"/g, '\\"'));
    expect(await drawer.getByLabel("Response payload", { exact: true }).textContent()).toContain(
      '"status": "created"',
    );
    expect(await drawer.getByLabel("cURL command").textContent()).toContain(
      "curl -X POST 'https://shop.example/orders'",
    );
    await screenshot(page, "requests-drawer", "light");

    // The trace's logs, one click away.
    await drawer.getByRole("link", { name: "Logs of this trace" }).click();
    await page.getByRole("heading", { name: "Logs", level: 1 }).waitFor();
    await page.getByText("order step 3 payment declined").waitFor();
    expect(await page.locator("tr[data-log-id]").count()).toBe(3);
  });

  // Issue 23 §1.2: text filters apply as the person types (debounced), never waiting for Enter,
  // and what they set is in the URL.
  it("text filters apply as you type, without Enter, and keep their state in the URL", async () => {
    const { page } = me;
    const param = (name: string) => new URL(page.url()).searchParams.get(name);
    const quick = { timeout: 5_000 };

    await page.goto("/projects/shop/logs?range=1h");
    await page.locator("tr[data-log-id]").first().waitFor();
    expect(await page.locator("tr[data-log-id]").count()).toBe(3);
    await page.getByLabel("Search", { exact: true }).pressSequentially("declined");
    await expect.poll(() => param("q"), quick).toBe("declined");
    await expect.poll(() => page.locator("tr[data-log-id]").count(), quick).toBe(1);
    // The URL opens the same filtered list, the field filled in.
    await page.reload();
    await page.getByText("order step 3 payment declined").waitFor();
    expect(await page.getByLabel("Search", { exact: true }).inputValue()).toBe("declined");

    await page.goto("/projects/shop/consumers?range=1h");
    await page.locator('table[aria-label="Consumers"] tbody tr').first().waitFor();
    await page.getByLabel("Search consumers").pressSequentially("glob");
    await expect.poll(() => param("q"), quick).toBe("glob");
    await expect.poll(() => page.locator('table[aria-label="Consumers"] tbody tr').count(), quick).toBe(1);

    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText(`1–41 of ${ALL_REQUESTS} requests`).waitFor();
    await page.getByLabel("Route").pressSequentially("/orders/{id}");
    await expect.poll(() => param("route"), quick).toBe("/orders/{id}");
    await page.getByText("1–24 of 24 requests").waitFor(quick);
    await page.getByLabel("Status codes").pressSequentially("404");
    // The router writes a number-like string JSON-quoted.
    await expect.poll(() => param("codes")?.replaceAll('"', ""), quick).toBe("404");
    await page.getByText("1–4 of 4 requests").waitFor(quick);
    // Emptying a field drops its filter.
    await page.getByLabel("Status codes").fill("");
    await expect.poll(() => param("codes"), quick).toBeNull();
    await page.getByText("1–24 of 24 requests").waitFor(quick);
  });

  // Issue 23 §1.3: the consumer filter finds consumers by the name the tables show.
  it("the consumer picker finds a consumer by name and filters the requests by its id", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h");
    await page.getByText(`1–41 of ${ALL_REQUESTS} requests`).waitFor();
    const picker = page.getByRole("combobox", { name: "Consumer" });
    await picker.fill("Acme Corp");
    await page.getByRole("option", { name: /Acme Corp/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("consumer")).toBe("acme");
    // 20 of the dataset and the detailed request.
    await page.getByText("1–21 of 21 requests").waitFor();
    expect(await picker.inputValue()).toBe("Acme Corp (acme)");
    // Rows move with j/k and open with Enter.
    await page.locator("tr[data-request-id]").first().focus();
    await page.keyboard.press("j");
    const second = await page.locator("tr[data-request-id]").nth(1).getAttribute("data-request-id");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-request-id"))).toBe(second);
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("req")).toBe(second);
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();

    // The open list of suggestions is accessible in both themes.
    for (const theme of ["light", "dark"] as const) {
      const opened = theme === "light" ? me : await darkContext();
      await opened.page.goto("/projects/shop/requests?range=1h");
      await opened.page.getByRole("combobox", { name: "Consumer" }).fill("c");
      await opened.page.getByRole("option", { name: /Acme Corp/ }).waitFor();
      expect(await seriousAxeViolations(opened.page), `consumer picker in ${theme}`).toEqual([]);
      await screenshot(opened.page, "requests-consumer-picker", theme);
    }
  });

  it("each page's first paint makes at most three analytics or data calls", async () => {
    const { page } = me;
    for (const path of [
      "/projects/shop?range=1h",
      "/projects/shop/requests?range=1h",
      "/projects/shop/endpoints/detail?range=1h&app=checkout-api&method=POST&path=%2Forders",
      "/projects/shop/logs?range=1h",
      "/projects/shop/consumers?range=1h",
      "/projects/shop/consumers/acme?range=1h",
      "/projects/shop/errors?range=1h",
    ]) {
      await page.goto(path);
      await page.waitForFunction(() => performance.getEntriesByName("sightline:data-painted").length > 0);
      const before = await page.evaluate(() => {
        const painted = performance.getEntriesByName("sightline:data-painted")[0]?.startTime ?? 0;
        return performance
          .getEntriesByType("resource")
          .filter(
            (entry) =>
              /\/api\/v1\/(projects|apps)\/[^/]+\/(analytics|data)\//.test(entry.name) &&
              entry.startTime < painted,
          )
          .map((entry) => entry.name);
      });
      expect(before.length, `${path}: ${before.join(", ")}`).toBeGreaterThan(0);
      expect(before.length, `${path}: ${before.join(", ")}`).toBeLessThanOrEqual(3);
    }
  });

  it("a custom range in the profile's zone goes into the URL", async () => {
    const { page } = me;
    await page.goto("/projects/shop/errors?range=1h");
    await page.locator('table[aria-label="Errors"] tbody tr').first().waitFor();
    await page.getByRole("combobox", { name: /^Time range/ }).selectOption("custom");
    await page.getByLabel("From (UTC)").fill("2026-01-01T00:00");
    await page.getByLabel("To (UTC)").fill("2026-01-02T00:00");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("since")).toBe("2026-01-01T00:00:00.000Z");
    expect(new URL(page.url()).searchParams.get("until")).toBe("2026-01-02T00:00:00.000Z");
    await page.getByText("No failed requests in this window.").waitFor();
  });

  it("an API refusal is shown as an error with its detail and request id, never as no data", async () => {
    const { page } = me;
    // A latency range the server refuses (minimum above maximum).
    await page.goto("/projects/shop/requests?range=1h&min_ms=500&max_ms=10");
    const alert = page.getByRole("alert").filter({ hasText: "Could not load the requests" });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Request id \S+/);
    expect(await page.locator('table[aria-label="Requests"]').count()).toBe(0);
  });

  it("a session ended elsewhere sends the next refresh to sign-in with a message", async () => {
    const first = await suite.open();
    await signInFast(first.context, suite.server, "ended@example.com");
    const api = apiAs(first.context.request, suite.server);
    await api.post("/projects", { name: "Ended" });
    await first.page.goto("/projects/ended?range=1h");
    await first.page.getByRole("heading", { name: "Overview" }).waitFor();
    const other = await suite.open();
    await signInFast(other.context, suite.server, "ended@example.com");
    const out = await other.context.request.post("/api/v1/users/logout-all", {
      headers: sameOriginHeaders(suite.server),
    });
    expect(out.ok()).toBe(true);
    // No navigation: an in-page data call meets the 401.
    await first.page.getByRole("button", { name: "Refresh now" }).click();
    await first.page.getByText("Your session has ended. Sign in again to continue.").waitFor();
    expect(new URL(first.page.url()).pathname).toBe("/auth/sign-in");
  });

  const cellsOf = (page: Page, tableName: string) =>
    page
      .locator(`table[aria-label="${tableName}"] tbody tr`)
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll("td")].map((cell) => (cell.textContent ?? "").trim())),
      );

  it("the endpoint, consumer, consumers and errors pages show the dataset's figures", async () => {
    const { page } = me;
    await page.goto("/projects/shop/endpoints/detail?range=1h&app=checkout-api&method=POST&path=%2Forders");
    await page.locator('dl[aria-label="Key figures"]').waitFor();
    expect(await kpi(page, "Requests").textContent()).toBe("17");
    expect(await kpi(page, "Error rate").textContent()).toBe("23.5 %");
    expect(await page.getByRole("list", { name: "Requests by status code" }).textContent()).toMatch(
      /201 requests13.*422 requests2.*500 requests2/,
    );

    await page.goto("/projects/shop/consumers?range=1h");
    await page.getByRole("link", { name: "Acme Corp" }).waitFor();
    const consumers = await cellsOf(page, "Consumers");
    expect(consumers.map((row) => [row[0]?.split(" · ")[0], row[2]])).toEqual([
      ["Acme Corp", "21"],
      ["Globex", "12"],
      ["Initech", "8"],
    ]);
    await page.getByRole("link", { name: "Acme Corp" }).click();
    await page.getByRole("heading", { name: "Consumer acme" }).waitFor();
    await expect.poll(() => kpi(page, "Requests").textContent()).toBe("21");

    await page.goto("/projects/shop/errors?range=1h");
    await page.locator('table[aria-label="Errors"] tbody tr').first().waitFor();
    const errors = await cellsOf(page, "Errors");
    expect(errors.map((row) => [row[0]?.replace(/\s+/g, " ").split(" ·")[0], row[1], row[2]])).toEqual([
      ["GET /orders/{id}", "404", "4"],
      ["POST /orders", "422", "2"],
      ["POST /orders", "500", "2"],
    ]);
    await page.getByLabel("Class").selectOption("5xx");
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("5xx");
    await expect.poll(async () => (await cellsOf(page, "Errors")).length).toBe(1);
  });

  const PAGES: ReadonlyArray<{ name: string; path: string; ready: (page: Page) => Promise<unknown> }> = [
    {
      name: "overview",
      path: "/projects/shop?range=1h",
      ready: (page) => page.locator("figure canvas").first().waitFor(),
    },
    {
      name: "requests",
      path: "/projects/shop/requests?range=1h",
      ready: (page) => page.getByText(/1–41 of 41/).waitFor(),
    },
    {
      name: "endpoint",
      path: "/projects/shop/endpoints/detail?range=1h&app=checkout-api&method=POST&path=%2Forders",
      ready: (page) => page.locator('dl[aria-label="Key figures"]').waitFor(),
    },
    {
      name: "logs",
      path: "/projects/shop/logs?range=1h",
      ready: (page) => page.getByText("order step 3 payment declined").waitFor(),
    },
    {
      name: "consumers",
      path: "/projects/shop/consumers?range=1h",
      ready: (page) => page.getByRole("link", { name: "Acme Corp" }).waitFor(),
    },
    {
      name: "consumer",
      path: "/projects/shop/consumers/acme?range=1h",
      ready: (page) => page.locator('dl[aria-label="Key figures"]').waitFor(),
    },
    {
      name: "errors",
      path: "/projects/shop/errors?range=1h",
      ready: (page) => page.locator('table[aria-label="Errors"] tbody tr').first().waitFor(),
    },
  ];

  it.each(PAGES)("$name: accessible in light and dark, with a screenshot", async ({ name, path, ready }) => {
    for (const theme of ["light", "dark"] as const) {
      const opened = theme === "light" ? me : await darkContext();
      await opened.page.goto(path);
      await ready(opened.page);
      expect(await seriousAxeViolations(opened.page), `${name} in ${theme}`).toEqual([]);
      await screenshot(opened.page, `traffic-${name}`, theme);
    }
  });

  let dark: Opened | undefined;
  async function darkContext(): Promise<Opened> {
    if (dark === undefined) {
      dark = await suite.open({ colorScheme: "dark" });
      await signInFast(dark.context, suite.server, "grace@example.com");
    }
    return dark;
  }

  // Last: it adds a request the figures above do not count.
  it("live mode shows a request sent after the page opened", async () => {
    const { page } = me;
    await page.goto("/projects/shop/requests?range=1h&live=true");
    await page.getByText(`1–41 of ${ALL_REQUESTS} requests`).waitFor();
    const api = apiAs(me.context.request, suite.server);
    const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", { name: "live" });
    await ingest(me.context.request, key.key, [
      {
        app_id: "checkout-api",
        timestamp: new Date().toISOString(),
        method: "PATCH",
        path: "/orders/live-1",
        route: "/orders/{id}",
        status_code: 200,
        response_time_ms: 3,
        environment: "staging",
      },
    ]);
    // Live mode refetches page 1 every 5 s; the new request arrives at the top.
    await page.getByText("/orders/live-1").waitFor({ timeout: 20_000 });
    expect(await page.locator("tr[data-request-id]").first().textContent()).toContain("/orders/live-1");
  });
});
