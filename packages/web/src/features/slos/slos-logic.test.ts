// The SLO section's pure logic: the form's draft into the create and per-consumer bodies, the
// burn rates against the conditions they belong to, the burn-down's chart data and the wording.
import type { Slo } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import {
  burnDownSeries,
  burnRows,
  createBodyOf,
  formatBudget,
  formatPercent,
  NEW_SLO,
  perConsumerBodyOf,
  scopeText,
  sliText,
} from "./slo-text";

const alerting: Slo["alerting"] = {
  enabled: true,
  fast: { burn_rate: 14.4, long_window_minutes: 60, short_window_minutes: 5 },
  slow: { burn_rate: 6, long_window_minutes: 360, short_window_minutes: 30 },
};

describe("SLO form", () => {
  it("builds the create body with scope, indicator and burn-rate alerts", () => {
    const body = createBodyOf({
      ...NEW_SLO,
      name: " Checkout available ",
      app: "checkout",
      environment: "production",
      endpoints: ["POST /orders", "GET /orders/{id}"],
      consumer: " customer-42 ",
      alsoBad: "429, 4xx 429",
      target: "99.5",
      windowDays: 28,
      channelIds: ["c1"],
    });
    expect(body).toEqual({
      name: "Checkout available",
      scope: {
        app: "checkout",
        environment: "production",
        endpoints: [
          { method: "POST", route: "/orders" },
          { method: "GET", route: "/orders/{id}" },
        ],
        consumer: "customer-42",
      },
      sli: { kind: "availability", also_bad: ["429", "4xx"] },
      target: 99.5,
      window_days: 28,
      alerting,
      channel_ids: ["c1"],
    });
  });

  it("drops environment and endpoints without an app, and sends a latency threshold", () => {
    const body = createBodyOf({
      ...NEW_SLO,
      name: "Fast",
      environment: "production",
      endpoints: ["GET /x"],
      kind: "latency",
      thresholdMs: "250",
    });
    expect(body.scope).toEqual({ app: null, environment: null, endpoints: [], consumer: null });
    expect(body.sli).toEqual({ kind: "latency", threshold_ms: 250 });
  });

  it("sends an empty number as NaN so the server names the field", () => {
    expect(Number.isNaN(createBodyOf({ ...NEW_SLO, target: " " }).target)).toBe(true);
  });

  it("builds the per-consumer template body without a consumer in the scope", () => {
    const body = perConsumerBodyOf({
      ...NEW_SLO,
      name: "Checkout",
      app: "checkout",
      consumer: "x",
      top: "5",
    });
    expect(body.top).toBe(5);
    expect(body.scope).toEqual({ app: "checkout", environment: null, endpoints: [] });
    expect(body.template).not.toHaveProperty("scope");
    expect(body.template.name).toBe("Checkout");
  });
});

describe("SLO status", () => {
  it("puts each burn-rate window against the threshold of its condition", () => {
    const rows = burnRows(
      { alerting },
      {
        burn_rates: [
          { minutes: 5, requests: 10, bad: 2, burn_rate: 20 },
          { minutes: 30, requests: 60, bad: 0, burn_rate: 0 },
          { minutes: 60, requests: 120, bad: 2, burn_rate: 14.4 },
          { minutes: 360, requests: 0, bad: 0, burn_rate: null },
        ],
      },
    );
    expect(rows.map((row) => [row.minutes, row.condition, row.threshold, row.over])).toEqual([
      [5, "fast", 14.4, true],
      [30, "slow", 6, false],
      // The condition is "more than": exactly at the threshold is not over.
      [60, "fast", 14.4, false],
      [360, "slow", 6, false],
    ]);
  });

  it("turns the burn-down's days into UTC buckets", () => {
    const shaped = burnDownSeries([
      { date: "2026-11-24", budget_remaining: 90, budget_spent: 10 },
      { date: "2026-11-25", budget_remaining: null, budget_spent: null },
    ]);
    expect(shaped.buckets).toEqual(["2026-11-24T00:00:00.000Z", "2026-11-25T00:00:00.000Z"]);
    expect(shaped.remaining).toEqual([90, 100]);
    expect(shaped.spent).toEqual([10, 0]);
  });

  it("words scope, indicator and figures", () => {
    expect(formatPercent(99.95612)).toBe("99.956 %");
    expect(formatPercent(null)).toBe("—");
    expect(formatBudget(-12.34)).toBe("-12.3 %");
    expect(sliText({ kind: "availability", also_bad: [] })).toBe("Not 5xx");
    expect(sliText({ kind: "latency", threshold_ms: 1500 })).toBe("Faster than 1,500 ms");
    expect(
      scopeText({
        app: { id: "a", slug: "checkout", name: "Checkout" },
        environment: null,
        endpoints: [{ method: "POST", route: "/orders" }],
        consumer: "acme",
        consumer_group: null,
      }),
    ).toBe("Checkout · POST /orders · consumer acme");
  });
});
