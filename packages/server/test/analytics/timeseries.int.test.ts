// Timeseries (project, app, endpoint): every bucket of the window zero-filled, the automatic
// interval, buckets aligned in the requested zone or the caller's profile zone (half-hour offsets,
// daylight saving) and returned as UTC instants, and the 422s of bad intervals, zones and ranges.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  NOW,
  type QueryFixture,
  qs,
} from "../support/query-fixture.js";
import { billingRecords, checkoutRecords, strangerRecords } from "./dataset.js";

type Params = Record<string, string | number | undefined>;
interface Point {
  bucket: string;
  total_requests: number;
  error_count: number;
  p50_response_time_ms: number;
  [figure: string]: unknown;
}
interface Series {
  interval: string;
  timezone: string;
  since: string;
  until: string;
  points: Point[];
}

const HOUR = 3_600_000;
/** The zone name as the server spells it: ICU's canonical form (Asia/Kolkata may read Asia/Calcutta). */
const KOLKATA = new Intl.DateTimeFormat("en-US", { timeZone: "Asia/Kolkata" }).resolvedOptions().timeZone;
const iso = (ms: number) => new Date(ms).toISOString();
/** Non-empty buckets as [bucket, requests]. */
const busy = (series: Series) =>
  series.points
    .filter((point) => point.total_requests > 0)
    .map((point) => [point.bucket, point.total_requests]);

describe.each(eventsBackends())("timeseries on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const get = async (url: string, params: Params = {}): Promise<Series> => {
    const response = await fx.owner.get(`${url}${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Series>();
  };
  const app = (params: Params = {}) => get("/api/v1/apps/checkout/analytics/timeseries", params);
  const project = (params: Params = {}) => get("/api/v1/projects/shop/analytics/timeseries", params);

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", [...checkoutRecords(), ...billingRecords()], fx.key);
    await ingest(fx.ctx, "requests", strangerRecords(), fx.elsewhere.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("gives every 15-minute bucket of the last 24 hours by default, zero-filled, in the profile zone (UTC)", async () => {
    const series = await app();
    expect({
      interval: series.interval,
      timezone: series.timezone,
      since: series.since,
      until: series.until,
    }).toEqual({
      interval: "15m",
      timezone: "UTC",
      since: iso(NOW.getTime() - 24 * HOUR),
      until: NOW.toISOString(),
    });
    expect(series.points).toHaveLength(97);
    expect(series.points.map((point) => point.bucket)).toEqual(
      Array.from({ length: 97 }, (_, n) => iso(NOW.getTime() - 24 * HOUR + n * 15 * 60_000)),
    );
    // A1 11:50, A2 11:40, A3 11:30, A4 11:20, A5 11:10, A8 10:50, A6 10:00.
    expect(busy(series)).toEqual([
      ["2026-03-30T10:00:00.000Z", 1],
      ["2026-03-30T10:45:00.000Z", 1],
      ["2026-03-30T11:00:00.000Z", 1],
      ["2026-03-30T11:15:00.000Z", 1],
      ["2026-03-30T11:30:00.000Z", 2],
      ["2026-03-30T11:45:00.000Z", 1],
    ]);
    const quiet = series.points[0] as Point;
    expect(quiet).toEqual({
      bucket: iso(NOW.getTime() - 24 * HOUR),
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
    });
  });

  it("computes each bucket's figures like the summary does", async () => {
    const hourly = await app({ interval: "1h" });
    expect(hourly.points).toHaveLength(25);
    expect(busy(hourly)).toEqual([
      ["2026-03-30T10:00:00.000Z", 2],
      ["2026-03-30T11:00:00.000Z", 5],
    ]);
    // 11:00: A1..A5, latencies 10 20 30 100 200, errors 404 and 500.
    expect(hourly.points.find((point) => point.bucket === "2026-03-30T11:00:00.000Z")).toEqual({
      bucket: "2026-03-30T11:00:00.000Z",
      total_requests: 5,
      error_count: 2,
      client_errors: 1,
      server_errors: 1,
      error_rate: 40,
      avg_response_time_ms: 72,
      p50_response_time_ms: 30,
      p95_response_time_ms: expect.closeTo(180, 9),
      p99_response_time_ms: expect.closeTo(196, 9),
      total_request_bytes: 1100,
      total_response_bytes: 3350,
    });
  });

  it("chooses the widest interval giving at least 50 buckets", async () => {
    const cases: Array<[number, string, number]> = [
      [10 * 60_000, "1m", 11],
      [HOUR, "1m", 61],
      [6 * HOUR, "5m", 73],
      [24 * HOUR, "15m", 97],
      [7 * 24 * HOUR, "1h", 169],
      [30 * 24 * HOUR, "6h", 121],
      [90 * 24 * HOUR, "1d", 91],
    ];
    for (const [span, interval, points] of cases) {
      const series = await app({ since: iso(NOW.getTime() - span), until: NOW.toISOString() });
      expect([span, series.interval, series.points.length]).toEqual([span, interval, points]);
    }
  });

  it("aligns buckets to local hours and midnights of the zone, returned as UTC instants", async () => {
    // Asia/Kolkata is UTC+05:30: local hours start at :30 UTC, local midnight is 18:30 UTC.
    const hourly = await app({ interval: "1h", timezone: "asia/kolkata" });
    expect(hourly.timezone).toBe(KOLKATA);
    expect(hourly.points[0]?.bucket).toBe("2026-03-29T11:30:00.000Z");
    expect(hourly.points).toHaveLength(25);
    expect(busy(hourly)).toEqual([
      ["2026-03-30T09:30:00.000Z", 1],
      ["2026-03-30T10:30:00.000Z", 3],
      ["2026-03-30T11:30:00.000Z", 3],
    ]);
    const daily = await app({ interval: "1d", timezone: "Asia/Kolkata" });
    expect(daily.points.map((point) => [point.bucket, point.total_requests])).toEqual([
      ["2026-03-28T18:30:00.000Z", 0],
      ["2026-03-29T18:30:00.000Z", 7],
    ]);
  });

  it("follows daylight saving: the day of the spring-forward is 23 hours long", async () => {
    // Europe/Paris moved from UTC+1 to UTC+2 at 2026-03-29T01:00Z.
    const daily = await app({
      interval: "1d",
      timezone: "Europe/Paris",
      since: "2026-03-28T12:00:00Z",
      until: NOW.toISOString(),
    });
    expect(daily.points.map((point) => [point.bucket, point.total_requests])).toEqual([
      ["2026-03-27T23:00:00.000Z", 0],
      ["2026-03-28T23:00:00.000Z", 1],
      ["2026-03-29T22:00:00.000Z", 7],
    ]);
    const sixHourly = await app({
      interval: "6h",
      timezone: "Europe/Paris",
      since: "2026-03-28T23:00:00Z",
      until: "2026-03-29T21:59:59.999Z",
    });
    // Local 00:00, 06:00, 12:00, 18:00; the first bucket lasts 5 hours. A7 is at 11:00Z.
    expect(sixHourly.points.map((point) => [point.bucket, point.total_requests])).toEqual([
      ["2026-03-28T23:00:00.000Z", 0],
      ["2026-03-29T04:00:00.000Z", 0],
      ["2026-03-29T10:00:00.000Z", 1],
      ["2026-03-29T16:00:00.000Z", 0],
    ]);
  });

  it("defaults to the caller's profile zone", async () => {
    const patched = await fx.owner.patch("/api/v1/users/me", { timezone: "Asia/Kolkata" });
    expect(patched.statusCode).toBe(200);
    try {
      const series = await project({ interval: "1h" });
      expect(series.timezone).toBe(KOLKATA);
      expect(series.points[0]?.bucket).toBe("2026-03-29T11:30:00.000Z");
    } finally {
      await fx.owner.patch("/api/v1/users/me", { timezone: "UTC" });
    }
  });

  it("sums every app in the project series and narrows it like the summary", async () => {
    const all = await project({ interval: "1h" });
    expect(busy(all)).toEqual([
      ["2026-03-30T10:00:00.000Z", 2],
      ["2026-03-30T11:00:00.000Z", 7],
    ]);
    expect(busy(await project({ interval: "1h", app_slugs: "billing" }))).toEqual([
      ["2026-03-30T11:00:00.000Z", 2],
    ]);
    expect(busy(await project({ interval: "1h", environment: "staging" }))).toEqual([
      ["2026-03-30T10:00:00.000Z", 1],
    ]);
  });

  it("gives one endpoint's series", async () => {
    const series = await get("/api/v1/apps/checkout/analytics/endpoint-timeseries", {
      method: "post",
      path: "/orders",
      interval: "1h",
      since: minutesBefore(120).toISOString(),
    });
    expect(series.points.map((point) => [point.bucket, point.total_requests, point.error_count])).toEqual([
      ["2026-03-30T10:00:00.000Z", 0, 0],
      ["2026-03-30T11:00:00.000Z", 2, 1],
      ["2026-03-30T12:00:00.000Z", 0, 0],
    ]);
  });

  it("answers 422 for a bad interval or zone, and for too many buckets", async () => {
    const cases: Array<[Params, string[]]> = [
      [{ interval: "2h" }, ["#/query/interval"]],
      [{ timezone: "Mars/Olympus" }, ["#/query/timezone"]],
      [{ timezone: "+02:00" }, ["#/query/timezone"]],
      [{ interval: "1m", since: iso(NOW.getTime() - 7 * 24 * HOUR) }, ["#/query/interval"]],
      [{ since: "2016-01-01" }, ["#/query/since"]],
    ];
    for (const [params, pointers] of cases) {
      const problem = expectProblem(
        await fx.owner.get(`/api/v1/apps/checkout/analytics/timeseries${qs(params)}`),
        "validation_error",
      );
      const found = (problem.errors as { pointer: string }[]).map((error) => error.pointer);
      expect(found, JSON.stringify(params)).toEqual(pointers);
    }
  });
});
