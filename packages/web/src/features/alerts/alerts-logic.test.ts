// The alerts section's pure logic: bucket widths for the preview, the rolling window over the
// analytics buckets (rates from sums, minimum requests, null without traffic), the form's body.
import type { AlertRule, TimeseriesPoint } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import { bucketingFor, previewRequest, previewSeries, type PreviewRule, unsupportedReason } from "./preview";
import { bandChartData } from "./band";
import { bodyFromDraft, createBodyFromDraft, draftFromRule, kindChange, NEW_RULE } from "./rule-draft";
import { conditionText, formatWindow, stateBadges } from "./rule-text";

function point(minute: number, fields: Partial<TimeseriesPoint> = {}): TimeseriesPoint {
  return {
    bucket: new Date(Date.UTC(2026, 10, 23, 5, minute)).toISOString(),
    total_requests: 0,
    error_count: 0,
    client_errors: 0,
    server_errors: 0,
    error_rate: 0,
    avg_response_time_ms: 0,
    p50_response_time_ms: 0,
    p95_response_time_ms: 0,
    p99_response_time_ms: 0,
    total_request_bytes: 0,
    total_response_bytes: 0,
    ...fields,
  };
}

const errorRate: PreviewRule = {
  metric: "error_rate",
  error_status_from: 500,
  status: "5xx",
  comparator: "gt",
  threshold: 20,
  window_seconds: 180,
  min_requests: 10,
};

describe("preview bucketing", () => {
  it("uses minutes for short windows and the widest dividing width for long ones", () => {
    expect(bucketingFor(300)).toEqual({ seconds: 60, interval: "1m", perWindow: 5 });
    expect(bucketingFor(60)).toEqual({ seconds: 60, interval: "1m", perWindow: 1 });
    // 24 h of minutes plus a 12 h window exceeds the 2,000-bucket limit.
    expect(bucketingFor(43_200)).toEqual({ seconds: 300, interval: "5m", perWindow: 144 });
    expect(bucketingFor(86_400).seconds).toBe(300);
    // Not a whole number of minutes: rounded up to whole buckets.
    expect(bucketingFor(90)).toEqual({ seconds: 60, interval: "1m", perWindow: 2 });
  });

  it("reads the endpoint series for an endpoint scope and the project series otherwise", () => {
    const until = new Date("2026-11-23T06:00:00.000Z");
    const endpoint = previewRequest(
      "shop",
      { app: "checkout", environment: "production", method: "GET", route: "/orders/{id}" },
      bucketingFor(300),
      until,
    );
    expect(endpoint.path).toBe("/apps/checkout/analytics/endpoint-timeseries");
    expect(endpoint.query).toMatchObject({
      project: "shop",
      method: "GET",
      path: "/orders/{id}",
      environment: "production",
      interval: "1m",
      since: "2026-11-22T05:55:00.000Z",
    });
    const app = previewRequest(
      "shop",
      { app: "checkout", environment: "", method: "", route: "" },
      bucketingFor(60),
      until,
    );
    expect(app).toEqual({
      path: "/projects/shop/analytics/timeseries",
      query: {
        since: "2026-11-22T05:59:00.000Z",
        until: until.toISOString(),
        interval: "1m",
        app_slugs: "checkout",
      },
    });
  });
});

describe("preview series", () => {
  it("computes the rate over the rule's window from summed buckets, not averaged rates", () => {
    const points = [
      point(0, { total_requests: 10, server_errors: 0 }),
      point(1, { total_requests: 2, server_errors: 2 }),
      point(2, { total_requests: 8, server_errors: 2 }),
      point(3, { total_requests: 0 }),
    ];
    const series = previewSeries(errorRate, points, bucketingFor(180));
    // Windows end after minutes 2 and 3 (a full 3-minute window needs three buckets).
    expect(series.points.map((p) => p.value)).toEqual([20, 40]);
    expect(series.points.map((p) => p.requests)).toEqual([20, 10]);
    expect(series.points.map((p) => p.breach)).toEqual([false, true]);
    expect(series.latest?.value).toBe(40);
    expect(series.highest).toBe(40);
    expect(series.breaches).toBe(1);
  });

  it("does not count windows under the minimum requests, nor windows without traffic", () => {
    const points = [point(0, { total_requests: 4, server_errors: 4 }), point(1)];
    const series = previewSeries({ ...errorRate, window_seconds: 60 }, points, bucketingFor(60));
    expect(series.points.map((p) => [p.value, p.breach])).toEqual([
      [100, false],
      [null, false],
    ]);
  });

  it("counts no traffic as a request-count value of 0, ignoring the minimum", () => {
    const rule: PreviewRule = {
      ...errorRate,
      metric: "request_count",
      comparator: "lt",
      threshold: 1,
      window_seconds: 60,
    };
    const series = previewSeries(rule, [point(0, { total_requests: 3 }), point(1)], bucketingFor(60));
    expect(series.points.map((p) => [p.value, p.breach])).toEqual([
      [3, false],
      [0, true],
    ]);
  });

  it("keeps percentiles per bucket when the window spans several", () => {
    const rule: PreviewRule = { ...errorRate, metric: "p95_latency_ms", threshold: 100, min_requests: 1 };
    const points = [
      point(0, { total_requests: 1, p95_response_time_ms: 50 }),
      point(1, { total_requests: 1, p95_response_time_ms: 150 }),
      point(2, { total_requests: 1, p95_response_time_ms: 90 }),
    ];
    const series = previewSeries(rule, points, bucketingFor(180));
    expect(series.perBucket).toBe(true);
    expect(series.points.map((p) => p.value)).toEqual([90]);
  });

  it("previews 4xx and 5xx classes and says why a single code has no preview", () => {
    expect(unsupportedReason({ metric: "status_count", status: "4xx" })).toBeNull();
    expect(unsupportedReason({ metric: "status_count", status: "503" })).toMatch(/no preview/);
    expect(unsupportedReason({ metric: "error_rate", status: "" })).toBeNull();
  });
});

describe("rule text and form", () => {
  const rule: AlertRule = {
    id: "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21",
    name: "Checkout failing",
    kind: "threshold",
    enabled: true,
    scope: {
      app: { id: "a", slug: "checkout", name: "Checkout" },
      environment: "production",
      endpoint: { method: "POST", route: "/orders" },
    },
    metric: "error_rate",
    error_status_from: 400,
    status: null,
    comparator: "gte",
    threshold: 5,
    sensitivity: null,
    direction: null,
    window_seconds: 5400,
    min_requests: 20,
    for_evaluations: 2,
    muted_until: "2999-01-01T00:00:00.000Z",
    channel_ids: ["c1"],
    state: "firing",
    state_since: "2026-11-23T05:00:00.000Z",
    last_evaluated_at: null,
    last_value: 7.5,
    last_band: null,
    created_at: "2026-11-23T05:00:00.000Z",
    updated_at: "2026-11-23T05:00:00.000Z",
  };

  it("reads a rule as a person would", () => {
    expect(conditionText(rule)).toBe("Error rate (4xx + 5xx) ≥ 5.0 % over 1 h 30 min");
    expect(formatWindow(90)).toBe("90 s");
    expect(stateBadges(rule)).toEqual(["Firing", "Muted"]);
    expect(stateBadges({ ...rule, enabled: false })).toEqual(["Disabled"]);
    expect(stateBadges({ ...rule, muted_until: "2000-01-01T00:00:00.000Z", state: "pending" })).toEqual([
      "Pending",
    ]);
  });

  it("round-trips a rule through the form into the body the API takes", () => {
    expect(bodyFromDraft(draftFromRule(rule))).toEqual({
      name: "Checkout failing",
      enabled: true,
      scope: { app: "checkout", environment: "production", endpoint: { method: "POST", route: "/orders" } },
      metric: "error_rate",
      error_status_from: 400,
      comparator: "gte",
      threshold: 5,
      window_seconds: 5400,
      min_requests: 20,
      for_evaluations: 2,
      channel_ids: ["c1"],
    });
    const body = bodyFromDraft({ ...NEW_RULE, name: " No traffic ", metric: "status_count", status: "5XX" });
    expect(body).toMatchObject({ name: "No traffic", status: "5xx", scope: { app: null } });
    expect(body).not.toHaveProperty("error_status_from");
    // An empty number is sent as such and refused by the server with the field named.
    expect(Number.isNaN(bodyFromDraft({ ...NEW_RULE, threshold: "" }).threshold)).toBe(true);
  });

  it("sends an anomaly rule's sensitivity and direction instead of a threshold, and its kind only on create", () => {
    const draft = {
      ...NEW_RULE,
      name: "Traffic unusual",
      kind: "anomaly" as const,
      metric: "request_count" as const,
      sensitivity: "high" as const,
      direction: "both" as const,
    };
    const created = createBodyFromDraft(draft);
    expect(created).toMatchObject({
      kind: "anomaly",
      sensitivity: "high",
      direction: "both",
      metric: "request_count",
    });
    expect(created).not.toHaveProperty("comparator");
    expect(created).not.toHaveProperty("threshold");
    const edited = bodyFromDraft(
      draftFromRule({
        ...rule,
        kind: "anomaly",
        comparator: null,
        threshold: null,
        sensitivity: "low",
        direction: "down",
      }),
    );
    expect(edited).toMatchObject({ sensitivity: "low", direction: "down" });
    expect(edited).not.toHaveProperty("kind");
    expect(edited).not.toHaveProperty("threshold");
    expect(createBodyFromDraft(NEW_RULE)).toMatchObject({
      kind: "threshold",
      comparator: "gt",
      threshold: 5,
    });
    expect(createBodyFromDraft(NEW_RULE)).not.toHaveProperty("sensitivity");
  });
});

describe("anomaly band chart", () => {
  const base = { request_count: 100, score: 0, weeks_used: 4 };
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 5, minute)).toISOString();
  it("draws only the windows with a band and counts the ones outside it", () => {
    const data = bandChartData({
      points: [
        {
          ...base,
          window_start: at(0),
          window_end: at(5),
          value: null,
          status: "warming_up",
          expected: null,
          lower: null,
          upper: null,
        },
        {
          ...base,
          window_start: at(5),
          window_end: at(10),
          value: 120,
          status: "normal",
          expected: 110,
          lower: 80,
          upper: 140,
        },
        {
          ...base,
          window_start: at(10),
          window_end: at(15),
          value: 300,
          status: "above",
          expected: 112,
          lower: 82,
          upper: 142,
        },
        {
          ...base,
          window_start: at(15),
          window_end: at(20),
          value: 3,
          status: "low_volume",
          expected: 100,
          lower: 70,
          upper: 130,
        },
      ],
    });
    expect(data.buckets).toEqual([at(5), at(10), at(15)]);
    expect(data.value).toEqual([120, 300, 3]);
    expect(data.upper).toEqual([140, 142, 130]);
    expect(data.lower).toEqual([80, 82, 70]);
    expect(data.outside).toBe(1);
    expect(data.withoutBand).toBe(1);
  });
});

describe("changing a draft's kind", () => {
  it("takes each kind's own defaults: anomaly and silence fire on the first evaluation", () => {
    const anomaly = { ...NEW_RULE, ...kindChange(NEW_RULE, "anomaly") };
    expect(anomaly).toMatchObject({ kind: "anomaly", for_evaluations: "1", window_minutes: "5" });
    const silence = { ...anomaly, ...kindChange(anomaly, "silence") };
    expect(silence).toMatchObject({ kind: "silence", for_evaluations: "1", window_minutes: "10", route: "" });
    expect({ ...silence, ...kindChange(silence, "threshold") }.for_evaluations).toBe(
      NEW_RULE.for_evaluations,
    );
  });
});
