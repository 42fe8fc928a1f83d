// The trace page on a hand-built trace sent through the real ingest routes: four spans in three
// levels (sent out of order, one failing), plus a request and a log with the same trace id. The
// waterfall must list the spans in tree order with their durations, a span shows its attributes
// when selected, the request and log are listed, the request and log drawers link to the trace,
// the traces list shows it and filters by duration, an unknown trace says so, both pages pass
// axe in both themes, a trace of more than 1,000 spans says how many of how many it shows, and a
// trace with no spans takes its outcome and duration from its failing request and ERROR log.
import type { CreatedApiKey } from "@sightline/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { seriousAxeViolations } from "./support/axe";
import { signInFast } from "./support/browser";
import { screenshot } from "./support/screenshots";
import { apiAs, ingest, ingestLogs, logRecord } from "./support/seed";
import { checkoutOwner, inBothThemes } from "./support/people";
import { browserSuite } from "./support/suite";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const ROOT = "b7ad6b7169203331";
const LOAD = "00f067aa0ba902b7";
const CHARGE = "53995c3f42cd8ad8";
const REMOTE = "e457b5a2e4d86bd1";

/**
 * The tree: GET /orders/{id} (0–120 ms) → load order (10–40 ms) and charge card (50–110 ms, failed
 * with 502) → POST /charges (55–95 ms). Depth-first by start time: root, load order, charge card,
 * POST /charges.
 */
function spans(start: number): Record<string, unknown>[] {
  const at = (offset: number) => new Date(start + offset).toISOString();
  const base = { app_id: "checkout-api", environment: "production", trace_id: TRACE };
  // Children first: the tree order must come from the parent links, not the arrival order.
  return [
    {
      ...base,
      span_id: REMOTE,
      parent_span_id: CHARGE,
      timestamp: at(55),
      name: "POST /charges",
      kind: "server",
      service_name: "payments",
      duration_ms: 40,
      status_code: 502,
      status: "error",
      attributes: { "http.method": "POST", "payment.attempt": 2 },
    },
    {
      ...base,
      span_id: CHARGE,
      parent_span_id: ROOT,
      timestamp: at(50),
      name: "charge card",
      kind: "client",
      service_name: "checkout-api",
      duration_ms: 60,
      status: "error",
    },
    {
      ...base,
      span_id: LOAD,
      parent_span_id: ROOT,
      timestamp: at(10),
      name: "load order",
      kind: "db",
      service_name: "checkout-api",
      duration_ms: 30,
      attributes: { "db.system": "postgresql", "db.rows": 1 },
    },
    {
      ...base,
      span_id: ROOT,
      timestamp: at(0),
      name: "GET /orders/{id}",
      kind: "server",
      service_name: "checkout-api",
      duration_ms: 120,
      status_code: 200,
    },
  ];
}

describe.skipIf(inject("browserSkipReason") !== "")("the trace page", () => {
  const suite = browserSuite();
  const me = checkoutOwner(suite, "ada@example.com");

  beforeAll(async () => {
    const start = Date.now() - 60_000;
    const sent = await me.context.request.post("/api/v1/ingest/traces", {
      headers: { "x-api-key": me.key.key },
      data: { spans: spans(start) },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
    expect(await sent.json()).toMatchObject({ accepted: 4, rejected: 0 });
    const result = await ingest(me.context.request, me.key.key, [
      {
        app_id: "checkout-api",
        timestamp: new Date(start).toISOString(),
        environment: "production",
        method: "GET",
        path: "/orders/42?expand=items",
        route: "/orders/{id}",
        base_url: "https://shop.example",
        status_code: 200,
        response_time_ms: 121.5,
        trace_id: TRACE,
        span_id: ROOT,
      },
    ]);
    expect(result).toMatchObject({ accepted: 1, rejected: 0 });
    await ingestLogs(me.context.request, me.key.key, [
      logRecord("checkout-api", {
        timestamp: new Date(start + 100).toISOString(),
        level: "ERROR",
        message: "card declined by the bank",
        logger_name: "shop.payments",
        trace_id: TRACE,
        span_id: CHARGE,
      }),
    ]);
  });

  const spanRows = (page: Page) =>
    page
      .locator('table[aria-label="Span waterfall"] tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute("data-span-id"),
          row.getAttribute("data-depth"),
          (row.querySelector("button")?.textContent ?? "").replace(/\s+/g, " ").trim(),
          (row.querySelector("td[data-duration]")?.textContent ?? "").trim(),
        ]),
      );

  it("shows the span tree in order with durations, a span's attributes, the request and the log", async () => {
    const { page } = me;
    await page.goto(`/projects/shop/traces/${TRACE}`);
    await page.getByRole("heading", { name: "Trace · GET /orders/{id}", level: 1 }).waitFor();
    expect(await spanRows(page)).toEqual([
      [ROOT, "0", "GET /orders/{id} server, depth 0", "120 ms"],
      [LOAD, "1", "load order db, depth 1", "30.0 ms"],
      [CHARGE, "1", "charge card client error, depth 1", "60.0 ms"],
      [REMOTE, "2", "POST /charges server error, depth 2", "40.0 ms"],
    ]);
    // Failure is written out, not only coloured.
    expect(await page.locator(`tr[data-span-id="${CHARGE}"]`).textContent()).toContain("error");
    expect(await page.locator(`tr[data-span-id="${LOAD}"]`).textContent()).not.toContain("error");
    const facts = await page.locator('dl[aria-label="Trace facts"]').textContent();
    expect(facts).toContain("Duration120 ms");
    expect(facts).toContain("Spans4");
    expect(facts).toContain("Has errors");

    // Selecting a span by keyboard shows its attributes and puts it in the URL.
    const remote = page.getByRole("button", { name: /^POST \/charges server\s+error/ });
    await remote.focus();
    await page.keyboard.press("Enter");
    // The selection lands once the router has written ?span= and the page has rendered again.
    await expect.poll(() => remote.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => new URL(page.url()).searchParams.get("span")).toBe(REMOTE);
    const attributes = page.getByRole("region", { name: "Span attributes" });
    await attributes.getByText("payment.attempt").waitFor();
    expect(await attributes.textContent()).toContain("http.methodPOST");
    expect(await attributes.textContent()).toContain("payment.attempt2");
    expect(await page.locator('dl[aria-label="Span facts"]').textContent()).toContain("error · HTTP 502");

    // The trace's request and log.
    const requests = page.locator('table[aria-label="Requests of this trace"] tbody tr');
    expect(await requests.count()).toBe(1);
    expect(await requests.first().textContent()).toContain("/orders/42");
    const logs = page.locator('table[aria-label="Logs of this trace"] tbody tr');
    expect(await logs.count()).toBe(1);
    expect(await logs.first().textContent()).toContain("card declined by the bank");
    expect(await logs.first().textContent()).toContain(CHARGE);

    // The request opens the usual drawer, with the base URL and the query string.
    await requests.first().focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog");
    const requestFacts = drawer.locator('dl[aria-label="Request facts"]');
    await requestFacts.waitFor();
    expect(await requestFacts.textContent()).toContain("Base URLhttps://shop.example");
    expect(await requestFacts.textContent()).toContain("Query?expand=items");
    expect(await drawer.getByLabel("cURL command").textContent()).toContain(
      "curl -X GET 'https://shop.example/orders/42?expand=items'",
    );
    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).searchParams.get("req")).toBeNull();
  });

  it("the request and log drawers link to the trace", async () => {
    const { page } = me;
    await page.goto(`/projects/shop/requests?range=1h&trace=${TRACE}`);
    await page.getByText("1–1 of 1 requests").waitFor();
    await page.locator("tr[data-request-id]").first().click();
    await page.getByRole("dialog").getByRole("link", { name: "View trace" }).click();
    await page.getByRole("heading", { name: "Trace · GET /orders/{id}", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/shop/traces/${TRACE}`);
    expect((await spanRows(page)).map((row) => row[0])).toEqual([ROOT, LOAD, CHARGE, REMOTE]);

    await page.goto(`/projects/shop/logs?range=1h&trace=${TRACE}`);
    await page.locator("tr[data-log-id]").first().click();
    await page.getByRole("dialog").getByRole("link", { name: "View trace" }).click();
    await page.getByRole("heading", { name: "Trace · GET /orders/{id}", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/shop/traces/${TRACE}`);
  });

  it("the traces list shows the trace, filters by minimum duration and opens it", async () => {
    const { page } = me;
    await page.goto("/projects/shop?range=1h");
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Traces" }).click();
    await page.getByRole("heading", { name: "Traces", level: 1 }).waitFor();
    // The sidebar carries the range across.
    expect(new URL(page.url()).searchParams.get("range")).toBe("1h");
    const rows = page.locator('table[aria-label="Traces"] tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    const cells = await rows
      .first()
      .locator("td")
      .evaluateAll((tds) => tds.map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim()));
    expect(cells.slice(1)).toEqual([
      "GET /orders/{id} server",
      "checkout-api",
      "checkout-api · production",
      "120 ms",
      "4",
      "error",
    ]);
    await page.getByText("1–1 of 1 traces").waitFor();

    // Longer than the trace: nothing; then back to it.
    await page.getByLabel("Min duration ms").fill("500");
    await page.getByLabel("Min duration ms").press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("min_ms")).toBe("500");
    await page.getByText(/No traces match/).waitFor();
    await page.goBack();
    await rows.first().waitFor();

    await page.getByRole("link", { name: "GET /orders/{id}" }).click();
    await page.getByRole("heading", { name: "Trace · GET /orders/{id}", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/projects/shop/traces/${TRACE}`);
  });

  it("an unknown trace says it was not found", async () => {
    const { page } = me;
    await page.goto(`/projects/shop/traces/${"f".repeat(32)}`);
    await page.getByRole("heading", { name: "Trace not found" }).waitFor();
    expect(await page.locator('table[aria-label="Span waterfall"]').count()).toBe(0);
    await page.goto("/projects/shop/traces/not-a-trace-id");
    await page.getByRole("heading", { name: "Trace not found" }).waitFor();
  });

  it("is accessible in light and dark, with a screenshot", async () => {
    for (const [theme, opened] of await inBothThemes(suite, me, "ada@example.com")) {
      await opened.page.goto(`/projects/shop/traces/${TRACE}?span=${CHARGE}`);
      await opened.page.getByRole("region", { name: "Span attributes" }).waitFor();
      expect(await seriousAxeViolations(opened.page), `trace in ${theme}`).toEqual([]);
      await screenshot(opened.page, "traces-trace", theme);
      await opened.page.goto("/projects/shop/traces?range=1h");
      await opened.page.locator('table[aria-label="Traces"] tbody tr').first().waitFor();
      expect(await seriousAxeViolations(opened.page), `traces list in ${theme}`).toEqual([]);
      await screenshot(opened.page, "traces-list", theme);
    }
  });

  // Last: it adds a trace the list tests above do not expect (outside their hour, all the same).
  it("a trace of more spans than the page holds says how many it shows of how many", async () => {
    const { page } = me;
    const api = apiAs(me.context.request, suite.server);
    const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", { name: "big" });
    const big = "1f2e3d4c5b6a79880f1e2d3c4b5a6978";
    const start = Date.now() - 90 * 60_000;
    const total = 1001;
    const all = Array.from({ length: total }, (_, i) => ({
      app_id: "checkout-api",
      environment: "production",
      trace_id: big,
      span_id: (i + 1).toString(16).padStart(16, "0"),
      ...(i === 0 ? {} : { parent_span_id: "0000000000000001" }),
      timestamp: new Date(start + i).toISOString(),
      name: i === 0 ? "nightly import" : `row ${i}`,
      kind: i === 0 ? "server" : "internal",
      service_name: "importer",
      duration_ms: i === 0 ? total : 1,
      ...(i === total - 1 ? { status: "error" } : {}),
    }));
    for (const spans of [all.slice(0, 500), all.slice(500)]) {
      const sent = await me.context.request.post("/api/v1/ingest/traces", {
        headers: { "x-api-key": key.key },
        data: { spans },
      });
      expect(sent.ok(), await sent.text()).toBe(true);
    }
    await page.goto(`/projects/shop/traces/${big}`);
    await page.getByRole("heading", { name: "Trace · nightly import", level: 1 }).waitFor();
    await page.getByText("Showing 1,000 of 1,001 spans").waitFor();
    const facts = await page.locator('dl[aria-label="Trace facts"]').textContent();
    expect(facts).toContain("Spans1,001");
    // The one failing span is past the cut: the trace still has errors.
    expect(facts).toContain("Has errors");
    expect(await page.locator('table[aria-label="Span waterfall"] tbody tr').count()).toBe(1000);
    await screenshot(page, "traces-truncated", "light");
  });
  it("a trace without spans takes its outcome and duration from its request and logs", async () => {
    const { page } = me;
    const api = apiAs(me.context.request, suite.server);
    const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", { name: "bare" });
    const bare = "2a3b4c5d6e7f80910a1b2c3d4e5f6071";
    const start = Date.now() - 2 * 60 * 60_000;
    const result = await ingest(me.context.request, key.key, [
      {
        app_id: "checkout-api",
        timestamp: new Date(start).toISOString(),
        environment: "production",
        method: "POST",
        path: "/refunds",
        status_code: 500,
        response_time_ms: 84,
        trace_id: bare,
      },
    ]);
    expect(result).toMatchObject({ accepted: 1, rejected: 0 });
    await ingestLogs(me.context.request, key.key, [
      logRecord("checkout-api", {
        timestamp: new Date(start + 20).toISOString(),
        level: "ERROR",
        message: "refund ledger unavailable",
        trace_id: bare,
      }),
    ]);
    await page.goto(`/projects/shop/traces/${bare}`);
    await page.getByText("No spans received for this trace").waitFor();
    const facts = await page.locator('dl[aria-label="Trace facts"]').textContent();
    expect(facts).toContain("Duration84.0 ms");
    expect(facts).toContain("SpansNone received");
    expect(facts).toContain("Has errors");
    expect(facts).not.toContain("Started—");
    expect(await page.locator('table[aria-label="Span waterfall"]').count()).toBe(0);
    expect(await page.locator('table[aria-label="Requests of this trace"] tbody tr').count()).toBe(1);
    expect(await seriousAxeViolations(page), "trace without spans in light").toEqual([]);
    await screenshot(page, "traces-no-spans", "light");
    const dark = await suite.open({ colorScheme: "dark" });
    await signInFast(dark.context, suite.server, "ada@example.com");
    await dark.page.goto(`/projects/shop/traces/${bare}`);
    await dark.page.getByText("No spans received for this trace").waitFor();
    expect(await seriousAxeViolations(dark.page), "trace without spans in dark").toEqual([]);
    await screenshot(dark.page, "traces-no-spans", "dark");
  });
});
