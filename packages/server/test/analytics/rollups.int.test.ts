// Rolled-up reads against raw reads on the same rows, on every events backend: hand-checked
// figures (the tiers too: a coarse rollup's whole days, its finer rollup's whole hours at the
// edges, raw partial hours; a finer rollup not yet backfilled), a randomised comparison of both paths over random windows (summary, timeseries, the
// errors breakdown, the endpoint and consumer lists and an endpoint's detail: counts, sums and
// error rates equal, means to float rounding, percentiles within 1 %), and the backfill of rows
// stored before the rollups existed (resumed after an interruption, then equal to raw).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerStatsPage } from "../../src/stores/events/queries/analytics/consumers.js";
import {
  endpointDetail,
  endpointStatsPage,
  statusCodeCounts,
} from "../../src/stores/events/queries/analytics/endpoints.js";
import { errorCodeCounts, errorGroupsPage } from "../../src/stores/events/queries/analytics/errors.js";
import { summary, timeseries } from "../../src/stores/events/queries/analytics/traffic.js";
import { requestLatencyHistogram } from "../../src/stores/events/queries/data/requests-histogram.js";
import {
  API_REQUESTS,
  BACKFILL_SNAPSHOT,
  CONSUMERS_DAILY,
  ENDPOINT_STATUSES_HOURLY,
  REQUEST_LATENCY_HOURLY,
  ENDPOINTS_DAILY,
  ENDPOINTS_HOURLY,
  ERRORS_DAILY,
  ERRORS_HOURLY,
  type EventsExecutor,
  type Rollup,
  ROLLUP_SOURCE,
  ROLLUPS,
  rollupSelect,
  TRAFFIC_DAILY,
  TRAFFIC_HOURLY,
  eventsMigrations,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { type RequestFilter, requestFilterClause } from "../../src/stores/events/queries/request-filter.js";
import { SqlParams } from "../../src/stores/events/queries/sql.js";
import { RESPONSE_TIME_SQL } from "../../src/stores/events/queries/traffic.js";
import { runRollupBackfill } from "../../src/stores/events/queries/rollups/backfill.js";
import {
  backfilledDays,
  type RollupCoverage,
  snapshotDays,
  storeCoverage,
} from "../../src/stores/events/queries/rollups/coverage.js";
import { delegatingExecutor, eventsBackends, uniqueDatabaseName } from "../support/events.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Hour-aligned, three days before now (rows must lie within the raw table's retention). */
const BASE = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
/** The UTC day before BASE's: whole, so the daily rollups answer it. */
const PAST_DAY = Math.floor(BASE / DAY) * DAY - DAY;
const COLUMNS = [
  "id",
  "project_id",
  "app_id",
  "timestamp",
  "environment",
  "method",
  "path",
  "route",
  "status_code",
  "response_time_ms",
  "request_size",
  "response_size",
  "consumer_id",
  "consumer_name",
  "consumer_group",
] as const;
type Row = [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  number,
  number,
  number,
  string,
  string,
  string,
];

function row(
  at: number,
  fields: Partial<{
    project: string;
    app: string;
    env: string;
    method: string;
    route: string;
    status: number;
    ms: number;
    consumer: string;
    name: string;
    group: string;
    bytes: number;
  }> = {},
): Row {
  const route = fields.route ?? "/items/{id}";
  return [
    randomUUID(),
    fields.project ?? "p1",
    fields.app ?? "a1",
    new Date(at).toISOString(),
    fields.env ?? "prod",
    fields.method ?? "GET",
    route.replace("{id}", "7"),
    route,
    fields.status ?? 200,
    fields.ms ?? 10,
    fields.bytes ?? 100,
    (fields.bytes ?? 100) * 2,
    fields.consumer ?? "",
    fields.name ?? "",
    fields.group ?? "",
  ];
}

async function insert(events: EventsExecutor, rows: readonly Row[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 20_000) {
    const chunk = rows.slice(start, start + 20_000);
    await events.insert({
      table: API_REQUESTS.name,
      columns: COLUMNS,
      body: Buffer.from(chunk.map((values) => JSON.stringify(values)).join("\n")),
      rowCount: chunk.length,
    });
  }
}

/** Project p3 on PAST_DAY: 12,000 rows of one endpoint, 1..100 ms 120 times each, a tenth 500s
 *  and a tenth 404s, three consumers; and the edges, read raw: a row of it (1000 ms) the hour
 *  before the day and one of /edge (consumer k9) the hour after it. */
function listedDayRows(): Row[] {
  const listed: Row[] = [];
  for (let n = 0; n < 12_000; n += 1) {
    listed.push(
      row(PAST_DAY + (n % 1_440) * 60_000, {
        project: "p3",
        route: "/listed",
        status: n % 10 === 0 ? 500 : n % 10 === 1 ? 404 : 200,
        ms: (n % 100) + 1,
        consumer: `k${n % 3}`,
      }),
    );
  }
  listed.push(row(PAST_DAY - HOUR, { project: "p3", route: "/listed", ms: 1000, consumer: "k0" }));
  listed.push(row(PAST_DAY + DAY + HOUR, { project: "p3", route: "/edge", ms: 3, consumer: "k9" }));
  return listed;
}

/** A small seeded generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function randomRows(seed: number, count: number): Row[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)] as T;
  const routes = ["/hot", "/items/{id}", "/users", "/orders/{id}", "/a", "/b", "/c"];
  return Array.from({ length: count }, () => {
    // Most traffic on one endpoint, so some groups exceed the exact-percentile limit.
    const route = next() < 0.7 ? "/hot" : pick(routes);
    return row(BASE + Math.floor(next() * 60 * HOUR), {
      project: next() < 0.9 ? "p1" : "p2",
      app: next() < 0.8 ? "a1" : "a2",
      env: next() < 0.85 ? "prod" : "staging",
      method: next() < 0.8 ? "GET" : "POST",
      route,
      status: pick([200, 200, 200, 201, 204, 404, 400, 500, 503]),
      ms: Math.round(Math.exp(2 + next() * 4) * 1000) / 1000,
      bytes: Math.floor(next() * 5000),
      ...randomConsumer(next),
    });
  });
}

/** A consumer (15 % none), named in half its requests with one of a few names (so its newest name
 *  changes over the rows), grouped in a third of them. */
function randomConsumer(next: () => number): { consumer: string; name: string; group: string } {
  if (next() < 0.15) return { consumer: "", name: "", group: "" };
  return {
    consumer: `c${Math.floor(next() * 40)}`,
    name: next() < 0.5 ? `Name ${Math.floor(next() * 5)}` : "",
    group: next() < 0.3 ? `team-${Math.floor(next() * 3)}` : "",
  };
}

/** The hand-checked endpoint's window: hour 2 whole, the half hours around it raw. */
const ITEMS_AROUND_HOUR_2 = {
  projectId: "p1",
  endpoints: [{ method: "GET", route: "/items/{id}" }],
  since: BASE + HOUR + 30 * 60_000,
  until: BASE + 3 * HOUR + 30 * 60_000,
};

/** Rollups complete for every hour (a store migrated before any row arrived). */
const complete: RollupCoverage = { completeFrom: async () => 0, invalidate: () => undefined };
/** Every rollup complete but `pending`, whose backfill has not begun. */
const completeBut = (pending: Rollup): RollupCoverage => ({
  completeFrom: async (rollup) => (rollup === pending ? Number.POSITIVE_INFINITY : 0),
  invalidate: () => undefined,
});
/** The rollup tables a statement reads (the raw table as `api_requests`). */
const tablesRead = (sql: string): string[] =>
  [API_REQUESTS, ...ROLLUPS.map((rollup) => rollup.table)]
    .map((table) => table.name)
    .filter((name) => new RegExp(`\\.${name}\\b(?!_)`).test(sql))
    .sort();

const PERCENTILE_KEYS = ["p50_response_time_ms", "p95_response_time_ms", "p99_response_time_ms"];

/** Equal figures; percentiles within 1 % of raw's, or of `exact` when given (raw's own are
 *  then a sketch's, itself within 1 % of exact: the two may differ by more). */
function expectSameTraffic(
  rolled: Record<string, unknown>,
  raw: Record<string, unknown>,
  label: string,
  exact?: readonly number[],
): void {
  for (const [key, value] of Object.entries(raw)) {
    const other = rolled[key];
    const level = PERCENTILE_KEYS.indexOf(key);
    if (level >= 0 && exact !== undefined) {
      const want = exact[level] as number;
      expect(Math.abs((other as number) - want), `${label} ${key} vs exact ${want}`).toBeLessThanOrEqual(
        want * 0.01 + 1e-9,
      );
    } else if (key.startsWith("p") && key.endsWith("_response_time_ms")) {
      expect(Math.abs((other as number) - (value as number)), `${label} ${key}`).toBeLessThanOrEqual(
        Math.abs(value as number) * 0.01 + 1e-9,
      );
    } else if (key === "avg_response_time_ms" || key === "error_rate") {
      expect(other as number, `${label} ${key}`).toBeCloseTo(value as number, 6);
    } else {
      expect(other, `${label} ${key}`).toEqual(value);
    }
  }
}

/** Exact p50/p95/p99 (quantilesExactInclusive over every value) of `filter`'s rows per group. */
async function exactPercentiles(
  events: EventsExecutor,
  filter: RequestFilter,
  keys: readonly string[],
  keyOf: (row: Record<string, string>) => string,
): Promise<Map<string, number[]>> {
  const params = new SqlParams();
  const rows = await events.query<Record<string, string> & { exact: number[] }>(
    `SELECT ${[...keys, ""].join(", ")}quantilesExactInclusive(0.5, 0.95, 0.99)(${RESPONSE_TIME_SQL}) AS exact ` +
      `FROM ${events.database}.${API_REQUESTS.name} ${requestFilterClause(filter, params)}` +
      (keys.length === 0 ? "" : ` GROUP BY ${keys.join(", ")}`),
    params.values,
  );
  return new Map(rows.map((row) => [keyOf(row), row.exact]));
}

/** Two pages of list items equal item by item, percentiles within 1 % of `exact` (by `keyOf`);
 *  `sorted`: compared in key order, for sorts on percentiles (the order may differ within 1 %). */
function expectSameItems(
  rolled: ReadonlyArray<object>,
  raw: ReadonlyArray<object>,
  label: string,
  exact: Map<string, number[]>,
  keyOf: (item: object) => string,
  sorted = false,
): void {
  expect(rolled.length, `${label} length`).toBe(raw.length);
  const ordered = (items: ReadonlyArray<object>) =>
    sorted ? [...items].sort((a, b) => keyOf(a).localeCompare(keyOf(b))) : items;
  const others = ordered(rolled);
  ordered(raw).forEach((item, index) =>
    expectSameTraffic(
      { ...others[index] },
      { ...item },
      `${label} item ${index}`,
      exact.get(keyOf(item)) ?? [],
    ),
  );
}

function endpointKey(item: object): string {
  const { app_id, method, path } = item as { app_id?: string; method: string; path: string };
  return `${app_id ?? ""} ${method} ${path}`;
}
const consumerKey = (item: object) => (item as { consumer_id: string }).consumer_id;
const endpointExact = (events: EventsExecutor, filter: RequestFilter, perApp: boolean) =>
  exactPercentiles(
    events,
    filter,
    perApp ? ["app_id", "method", "route"] : ["method", "route"],
    (row) => `${perApp ? row.app_id : ""} ${row.method} ${row.route}`,
  );
const consumerExact = (events: EventsExecutor, filter: RequestFilter) =>
  exactPercentiles(events, filter, ["consumer_id"], (row) => row.consumer_id as string);
const wholeExact = async (events: EventsExecutor, filter: RequestFilter) =>
  (await exactPercentiles(events, filter, [], () => "")).get("") ?? [];

describe.each(eventsBackends())("rollups on $name", (backend) => {
  const opened: EventsExecutor[] = [];

  async function freshStore(migrations = eventsMigrations): Promise<EventsExecutor> {
    const events = await openEventsExecutor({ ...backend.options, database: uniqueDatabaseName("rollups") });
    opened.push(events);
    await migrateEvents(events, migrations);
    return events;
  }

  afterAll(async () => {
    for (const events of opened) {
      await events.command(`DROP DATABASE IF EXISTS ${events.database}`);
      await events.close();
    }
  });

  describe("hand-checked", () => {
    let events: EventsExecutor;
    beforeAll(async () => {
      events = await freshStore();
      // 12,000 rows in hour 2 (a sketch answers), 3 in the edge minutes around it.
      const rows: Row[] = [];
      for (let n = 0; n < 12_000; n += 1) {
        rows.push(
          row(BASE + 2 * HOUR + (n % 3_600) * 1000, {
            status: n % 10 === 0 ? 500 : n % 10 === 1 ? 404 : 200,
            ms: (n % 100) + 1,
            consumer: `c${n % 7}`,
          }),
        );
      }
      rows.push(row(BASE + HOUR + 59 * 60_000, { status: 503, ms: 1000, consumer: "edge" }));
      rows.push(row(BASE + 3 * HOUR + 60_000, { route: "/other", ms: 2 }));
      rows.push(row(BASE + 2 * HOUR, { project: "p2", ms: 5 }));
      await insert(events, rows);
      // p3's day, read by the endpoints test and both tier tests: each passes alone, in any order.
      await insert(events, listedDayRows());
    });

    it("answers the summary from the hour and its raw edges, equal to raw", async () => {
      const { recorded, statements } = recording(events);
      const filter: RequestFilter = {
        projectId: "p1",
        since: BASE + HOUR + 30 * 60_000,
        until: BASE + 3 * HOUR + 30 * 60_000,
      };
      const rolled = await summary(recorded, filter, complete);
      // One statement, reading the rollup for hour 2 and raw rows for the edges around it.
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain(`${events.database}.${TRAFFIC_HOURLY.table.name}`);
      expect(rolled).toMatchObject({
        total_requests: 12_002,
        error_count: 2_401,
        server_errors: 1_201,
        client_errors: 1_200,
        unique_endpoints: 2,
        unique_consumers: 8,
        total_request_bytes: 1_200_200,
        total_response_bytes: 2_400_400,
      });
      expect(rolled.avg_response_time_ms).toBeCloseTo((12_000 * 50.5 + 1000 + 2) / 12_002, 9);
      expect(rolled.p50_response_time_ms).toBeGreaterThan(50 * 0.99);
      expect(rolled.p50_response_time_ms).toBeLessThan(51 * 1.01);
      expectSameTraffic({ ...rolled }, { ...(await summary(events, filter)) }, "summary");
    });

    it("answers a series from the rollup, small edge buckets exactly from raw rows", async () => {
      const { recorded, statements } = recording(events);
      const filter = {
        projectId: "p1",
        since: BASE + HOUR + 30 * 60_000,
        until: BASE + 3 * HOUR + 30 * 60_000,
      };
      const bucketing = { interval: "1h" as const, timezone: "UTC" };
      const rolled = await timeseries(recorded, filter, bucketing, complete);
      // The rolled-up series, then one exact read per small bucket (hours 1 and 3).
      expect(statements).toHaveLength(3);
      expect(statements[0]).toContain(`${events.database}.${TRAFFIC_HOURLY.table.name}`);
      expect(rolled.map((point) => [point.bucket, point.total_requests, point.p50_response_time_ms])).toEqual(
        [
          [new Date(BASE + HOUR).toISOString(), 1, 1000],
          [new Date(BASE + 2 * HOUR).toISOString(), 12_000, expect.any(Number)],
          [new Date(BASE + 3 * HOUR).toISOString(), 1, 2],
        ],
      );
      const raw = await timeseries(events, filter, bucketing);
      raw.forEach((point, index) => expectSameTraffic({ ...rolled[index] }, { ...point }, `bucket ${index}`));
    });

    it("answers an endpoint's series from the endpoint rollup's hours, percentiles within 1 % of exact", async () => {
      const { recorded, statements } = recording(events);
      const filter = ITEMS_AROUND_HOUR_2;
      const bucketing = { interval: "1h" as const, timezone: "UTC" };
      const rolled = await timeseries(recorded, filter, bucketing, complete);
      // The rolled-up series (hour 2 from the rollup, the edges raw), then hour 1's exact read:
      // hour 3 has no row of the endpoint (its one row is /other).
      expect(statements).toHaveLength(2);
      expect(tablesRead(statements[0] as string)).toEqual([ENDPOINTS_HOURLY.table.name, API_REQUESTS.name]);
      expect(rolled.map((point) => [point.bucket, point.total_requests, point.error_count])).toEqual([
        [new Date(BASE + HOUR).toISOString(), 1, 1],
        [new Date(BASE + 2 * HOUR).toISOString(), 12_000, 2_400],
        [new Date(BASE + 3 * HOUR).toISOString(), 0, 0],
      ]);
      const raw = await timeseries(events, filter, bucketing);
      for (const [index, point] of raw.entries()) {
        const since = Math.max(filter.since, BASE + (index + 1) * HOUR);
        const until = Math.min(filter.until, BASE + (index + 2) * HOUR - 1);
        const exact = await wholeExact(events, { ...filter, since, until });
        expectSameTraffic({ ...rolled[index] }, { ...point }, `bucket ${index}`, exact);
      }
    });

    it("answers an endpoint's daily series in UTC from the daily tier, its edges from the hourly one", async () => {
      const { recorded, statements } = recording(events);
      const filter = {
        projectId: "p3",
        routes: ["/listed"],
        since: PAST_DAY - 2 * HOUR,
        until: PAST_DAY + DAY + 2 * HOUR,
      };
      const rolled = await timeseries(recorded, filter, { interval: "1d", timezone: "UTC" }, complete);
      // The day from the daily tier, the hours around it from the hourly one, the window's last
      // millisecond raw; then the day before's one row exactly.
      expect(statements).toHaveLength(2);
      expect(tablesRead(statements[0] as string)).toEqual(
        [ENDPOINTS_DAILY.table.name, ENDPOINTS_HOURLY.table.name, API_REQUESTS.name].sort(),
      );
      expect(rolled.map((point) => [point.bucket, point.total_requests, point.error_count])).toEqual([
        [new Date(PAST_DAY - DAY).toISOString(), 1, 0],
        [new Date(PAST_DAY).toISOString(), 12_000, 2_400],
        [new Date(PAST_DAY + DAY).toISOString(), 0, 0],
      ]);
      const exact = await wholeExact(events, { ...filter, since: PAST_DAY, until: PAST_DAY + DAY - 1 });
      expectSameTraffic(
        { ...rolled[1] },
        { ...(await timeseries(events, filter, { interval: "1d", timezone: "UTC" }))[1] },
        "day",
        exact,
      );
      expect(rolled[0]?.p50_response_time_ms).toBe(1000);
      // Days in another zone are not UTC days: the hourly tier answers.
      statements.length = 0;
      await timeseries(recorded, filter, { interval: "1d", timezone: "Europe/Berlin" }, complete);
      expect(tablesRead(statements[0] as string)).toEqual([ENDPOINTS_HOURLY.table.name, API_REQUESTS.name]);
    });

    it("counts an endpoint's status codes from the status rollup's hours and raw edges, exactly", async () => {
      const { recorded, statements } = recording(events);
      const filter = ITEMS_AROUND_HOUR_2;
      const rolled = await statusCodeCounts(recorded, filter, 10, complete);
      expect(statements).toHaveLength(1);
      expect(tablesRead(statements[0] as string)).toEqual([
        ENDPOINT_STATUSES_HOURLY.table.name,
        API_REQUESTS.name,
      ]);
      expect(rolled).toEqual([
        { status_code: 200, total_requests: 9_600 },
        { status_code: 404, total_requests: 1_200 },
        { status_code: 500, total_requests: 1_200 },
        { status_code: 503, total_requests: 1 },
      ]);
      expect(await statusCodeCounts(events, filter, 10)).toEqual(rolled);
      // The limit keeps the most frequent; ties go to the lower code.
      expect(await statusCodeCounts(events, filter, 2, complete)).toEqual(rolled.slice(0, 2));
    });

    it("counts the requests page's latency histogram from the hourly counts and raw edges, exactly", async () => {
      const { recorded, statements } = recording(events);
      // Hour 2 whole (each of 1..100 ms 120 times), the edges raw: 1,000 ms before it, 2 ms after.
      const filter = { projectId: "p1", since: ITEMS_AROUND_HOUR_2.since, until: ITEMS_AROUND_HOUR_2.until };
      const rolled = await requestLatencyHistogram(recorded, filter, complete);
      expect(statements).toHaveLength(1);
      expect(tablesRead(statements[0] as string)).toEqual([
        REQUEST_LATENCY_HOURLY.table.name,
        API_REQUESTS.name,
      ]);
      // Bounds are [min, max): 5, 10, 25, 50 and 100 ms each open the next bucket.
      expect(rolled.buckets.map((bucket) => bucket.count)).toEqual([
        481, 600, 1_800, 3_000, 6_000, 120, 0, 0, 1, 0, 0, 0, 0,
      ]);
      expect(rolled.total_count).toBe(12_002);
      expect(await requestLatencyHistogram(events, filter)).toEqual(rolled);
      // A condition the rollup does not keep (a status) reads raw rows.
      statements.length = 0;
      const failed = await requestLatencyHistogram(recorded, { ...filter, statusClasses: [5] }, complete);
      expect(tablesRead(statements[0] as string)).toEqual([API_REQUESTS.name]);
      expect(failed.total_count).toBe(1_201);
    });

    it("answers endpoints, an endpoint's detail and consumers from the daily rollups and raw edges", async () => {
      const day = PAST_DAY;
      const { recorded, statements } = recording(events);
      const filter: RequestFilter = { projectId: "p3", since: day - 2 * HOUR, until: day + DAY + 2 * HOUR };
      const sort = { by: "total_requests" as const, direction: "desc" as const };
      const page = await endpointStatsPage(recorded, filter, sort, { limit: 10, offset: 0 }, true, complete);
      // The page from counts, then the page's histograms: both from the rollup and raw edges.
      expect(statements).toHaveLength(2);
      for (const statement of statements)
        expect(statement).toContain(`${events.database}.${ENDPOINTS_DAILY.table.name}`);
      expect(page.total).toBe(2);
      expect(page.items[0]).toMatchObject({
        method: "GET",
        path: "/listed",
        total_requests: 12_001,
        error_count: 2_400,
        server_errors: 1_200,
        client_errors: 1_200,
        total_request_bytes: 1_200_100,
        last_seen_at: new Date(day + 1_439 * 60_000).toISOString(),
      });
      // Exact: 12,001 values (1..100 ms 120 times each, and 1000): p50 is the value at rank
      // 12,000 × 0.5 = 6,000 (0-based), 51; p95 the one at rank 11,400, 96.
      const top = page.items[0] as (typeof page.items)[number];
      expect(top.avg_response_time_ms).toBeCloseTo((12_000 * 50.5 + 1000) / 12_001, 9);
      expect(Math.abs(top.p50_response_time_ms - 51)).toBeLessThanOrEqual(51 * 0.01);
      expect(Math.abs(top.p95_response_time_ms - 96)).toBeLessThanOrEqual(96 * 0.01);
      expectSameItems(
        page.items,
        (await endpointStatsPage(events, filter, sort, { limit: 10, offset: 0 }, true)).items,
        "endpoints",
        await endpointExact(events, filter, true),
        endpointKey,
      );

      statements.length = 0;
      const endpointFilter = { ...filter, endpoints: [{ method: "GET", route: "/listed" }] };
      const detail = await endpointDetail(
        recorded,
        endpointFilter,
        { method: "GET", route: "/listed" },
        complete,
      );
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain(`${events.database}.${ENDPOINTS_DAILY.table.name}`);
      expect(detail.total_requests).toBe(12_001);
      expectSameTraffic(
        { ...detail },
        { ...(await endpointDetail(events, endpointFilter, { method: "GET", route: "/listed" })) },
        "detail",
        await wholeExact(events, endpointFilter),
      );

      statements.length = 0;
      const consumerSort = { by: "p95_response_time_ms" as const, direction: "desc" as const };
      const consumers = await consumerStatsPage(
        recorded,
        filter,
        "k",
        consumerSort,
        { limit: 10, offset: 0 },
        complete,
      );
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain(`${events.database}.${CONSUMERS_DAILY.table.name}`);
      expect(consumers.total).toBe(4);
      expect(consumers.items.map((item) => item.consumer_id).sort()).toEqual(["k0", "k1", "k2", "k9"]);
      expectSameItems(
        consumers.items,
        (await consumerStatsPage(events, filter, "k", consumerSort, { limit: 10, offset: 0 })).items,
        "consumers",
        await consumerExact(events, filter),
        consumerKey,
        true,
      );
    });

    it("searches consumers by id and newest name or group, sorted by percentiles, as raw rows do", async () => {
      // A UTC day (rolled up) and raw edges around it, one project. Each consumer's latencies lie
      // far apart from the others', so percentile orders cannot differ within the 1 % allowed.
      const day = PAST_DAY;
      const at = (n: number) => day + (n % 1_440) * 60_000 + Math.floor(n / 1_440);
      const named: Row[] = [];
      const add = (
        count: number,
        consumer: string,
        ms: number,
        fields: (minute: number) => { name?: string; group?: string },
      ) => {
        for (let n = 0; n < count; n += 1)
          named.push(
            row(at(n), { project: "p4", consumer, ms: ms + (n % 10), ...fields(n % 1_440), status: 200 }),
          );
      };
      // Renamed within the day: only the later name is the newest.
      add(9_000, "acct-1", 10, (minute) => ({
        name: minute < 720 ? "Old Name" : "Zeta Corp",
        group: "team-a",
      }));
      add(6_000, "acct-2", 100, () => ({ group: "team-b" }));
      add(11_000, "beta-7", 50, () => ({ name: "Beta" }));
      add(6_000, "acct-3", 200, () => ({ name: "Gamma Old", group: "team-a" }));
      add(3_000, "", 5, () => ({ name: "Zeta Anonymous" }));
      add(2_000, "acct-4", 1_000, () => ({ name: "zeta small", group: "team-a" }));
      // Edges read raw: an older name before the day, newer names and a group after it.
      named.push(row(day - HOUR, { project: "p4", consumer: "acct-1", name: "Ancient", ms: 12 }));
      named.push(row(day + DAY + HOUR, { project: "p4", consumer: "beta-7", name: "Renamed", ms: 55 }));
      named.push(
        row(day + DAY + HOUR, { project: "p4", consumer: "acct-3", name: "Delta", group: "team-c", ms: 205 }),
      );
      await insert(events, named);
      const filter: RequestFilter = { projectId: "p4", since: day - 2 * HOUR, until: day + DAY + 2 * HOUR };
      const p95 = { by: "p95_response_time_ms" as const, direction: "desc" as const };
      const ids = async (search: string | undefined, page = { limit: 100, offset: 0 }) =>
        (await consumerStatsPage(events, filter, search, p95, page, complete)).items.map(consumerKey);

      expect(await ids("zeta")).toEqual(["acct-4", "acct-1"]);
      expect(await ids("acct")).toEqual(["acct-4", "acct-3", "acct-2", "acct-1"]);
      expect(await ids("acct", { limit: 2, offset: 2 })).toEqual(["acct-2", "acct-1"]);
      expect(await ids("team-a")).toEqual(["acct-4", "acct-1"]);
      expect(await ids("renamed")).toEqual(["beta-7"]);
      expect(await ids("delta")).toEqual(["acct-3"]);
      // Names (and groups) that are no longer the newest, and the unknown consumer's, never match.
      for (const stale of ["old", "gamma", "ancient", "anonymous"])
        expect(await ids(stale), stale).toEqual([]);
      expect(await ids(undefined)).toEqual(["acct-4", "acct-3", "acct-2", "beta-7", "acct-1", ""]);

      // One statement over the rollup and the raw edges answers the searched, percentile-sorted page.
      const { recorded, statements } = recording(events);
      const searched = await consumerStatsPage(
        recorded,
        filter,
        "zeta",
        p95,
        { limit: 10, offset: 0 },
        complete,
      );
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain(`${events.database}.${CONSUMERS_DAILY.table.name}`);
      expect(searched.items[1]).toMatchObject({
        consumer_id: "acct-1",
        consumer: "Zeta Corp",
        consumer_group: "team-a",
        total_requests: 9_001,
      });

      // Every search, sort and page against raw rows: same consumers, order, totals and figures.
      const exact = await consumerExact(events, filter);
      const sorts = [
        p95,
        { by: "p50_response_time_ms", direction: "asc" },
        { by: "total_requests", direction: "desc" },
      ] as const;
      for (const search of [undefined, "zeta", "acct", "team-a", "beta", "old"]) {
        for (const sort of sorts) {
          const pages = [
            { limit: 100, offset: 0 },
            { limit: 2, offset: 2 },
            { limit: 2, offset: 10 },
          ];
          for (const page of sort === p95 ? pages : pages.slice(0, 1)) {
            const label = `${search} ${sort.by} ${page.offset}`;
            const rolled = await consumerStatsPage(events, filter, search, sort, page, complete);
            const raw = await consumerStatsPage(events, filter, search, sort, page);
            expect(rolled.total, label).toBe(raw.total);
            expect(rolled.items.map(consumerKey), label).toEqual(raw.items.map(consumerKey));
            expectSameItems(rolled.items, raw.items, label, exact, consumerKey);
          }
        }
      }
    }, 120_000);

    it("reads the tiers: whole days coarse, their partial days' whole hours fine, partial hours raw", async () => {
      // The p3 day (listedDayRows: 12,000 rows), an hour before it and an hour after it.
      const day = PAST_DAY;
      const { recorded, statements } = recording(events);
      // [day - 1h30, day + 1 day + 1h30]: the day, the hours day - 1h and day + 1 day whole, the
      // half hours at either end (the row at day + 1 day + 1h among them) raw.
      const filter: RequestFilter & { since: number } = {
        projectId: "p3",
        since: day - 90 * 60_000,
        until: day + DAY + 90 * 60_000,
      };
      const rolled = await summary(recorded, filter, complete);
      expect(statements).toHaveLength(1);
      expect(tablesRead(statements[0] as string)).toEqual(
        [API_REQUESTS.name, TRAFFIC_DAILY.table.name, TRAFFIC_HOURLY.table.name].sort(),
      );
      expect(rolled).toMatchObject({
        total_requests: 12_002,
        error_count: 2_400,
        server_errors: 1_200,
        client_errors: 1_200,
        unique_endpoints: 2,
        unique_consumers: 4,
      });
      expectSameTraffic({ ...rolled }, { ...(await summary(events, filter)) }, "tiered summary");

      statements.length = 0;
      const sort = { by: "total_requests" as const, direction: "desc" as const };
      const page = await endpointStatsPage(recorded, filter, sort, { limit: 10, offset: 0 }, true, complete);
      for (const statement of statements)
        expect(tablesRead(statement)).toEqual(
          [API_REQUESTS.name, ENDPOINTS_DAILY.table.name, ENDPOINTS_HOURLY.table.name].sort(),
        );
      expect(page.items.map((item) => [item.path, item.total_requests])).toEqual([
        ["/listed", 12_001],
        ["/edge", 1],
      ]);
      expectSameItems(
        page.items,
        (await endpointStatsPage(events, filter, sort, { limit: 10, offset: 0 }, true)).items,
        "tiered endpoints",
        await endpointExact(events, filter, true),
        endpointKey,
      );

      // The errors page: its window and every group's first occurrence from the daily tier.
      statements.length = 0;
      const errorsFilter = { ...filter, statusClasses: [4, 5] };
      const errorSort = { by: "count" as const, direction: "desc" as const };
      /** The first ten groups of `errorsOf`, through `executor`, with `coverage` (none: raw). */
      const errorsPage = (
        executor: EventsExecutor,
        errorsOf: typeof errorsFilter,
        coverage?: RollupCoverage,
      ) => errorGroupsPage(executor, errorsOf, errorSort, { limit: 10, offset: 0 }, 0, coverage);
      const errors = await errorsPage(recorded, errorsFilter, complete);
      // The page with each group's first occurrence in the window, then the page's groups'
      // distinct consumers over the window and their first occurrences before it (whole days of
      // the daily tier).
      expect(statements).toHaveLength(3);
      for (const statement of statements.slice(0, 2)) {
        expect(tablesRead(statement)).toEqual(
          [API_REQUESTS.name, ERRORS_DAILY.table.name, ERRORS_HOURLY.table.name].sort(),
        );
      }
      expect(tablesRead(statements[2] as string)).toContain(ERRORS_DAILY.table.name);
      expect(errors.items.map((item) => [item.status_code, item.count, item.first_seen_at])).toEqual([
        [404, 1_200, new Date(day + 60_000).toISOString()],
        [500, 1_200, new Date(day).toISOString()],
      ]);
      expect(errors).toEqual(await errorsPage(events, errorsFilter));

      // Three weeks of whole days: the same three statements.
      statements.length = 0;
      const longFilter = { ...errorsFilter, since: day - 20 * DAY };
      const long = await errorsPage(recorded, longFilter, complete);
      expect(statements).toHaveLength(3);
      for (const statement of statements.slice(0, 2)) {
        expect(tablesRead(statement)).toEqual(
          [API_REQUESTS.name, ERRORS_DAILY.table.name, ERRORS_HOURLY.table.name].sort(),
        );
      }
      expect(long.items.map((item) => item.affected_consumers)).toEqual(
        errors.items.map((item) => item.affected_consumers),
      );
      expect(long).toEqual(await errorsPage(events, longFilter));
    });

    it("reads a window holding no whole day from the finer tier, and raw where it is not backfilled", async () => {
      const day = PAST_DAY;
      const { recorded, statements } = recording(events);
      // 24 h from the day's 01:30: whole hours of the hourly rollup, partial hours raw.
      const filter: RequestFilter = {
        projectId: "p3",
        since: day + 90 * 60_000,
        until: day + DAY + 90 * 60_000 - 1,
      };
      const sort = { by: "p95_response_time_ms" as const, direction: "desc" as const };
      const window = { limit: 10, offset: 0 };
      const raw = await endpointStatsPage(events, filter, sort, window, false);
      const exact = await endpointExact(events, filter, false);
      const rolled = await endpointStatsPage(recorded, filter, sort, window, false, complete);
      expect(statements).toHaveLength(1);
      expect(tablesRead(statements[0] as string)).toEqual(
        [API_REQUESTS.name, ENDPOINTS_HOURLY.table.name].sort(),
      );
      expectSameItems(rolled.items, raw.items, "24 h endpoints", exact, endpointKey, true);
      const endpoint = { method: "GET", route: "/listed" };
      const endpointFilter = { ...filter, endpoints: [endpoint] };
      expectSameTraffic(
        { ...(await endpointDetail(events, endpointFilter, endpoint, complete)) },
        { ...(await endpointDetail(events, endpointFilter, endpoint)) },
        "24 h detail",
        await wholeExact(events, endpointFilter),
      );

      // The hourly rollup not backfilled yet: the whole 24 h raw, the same figures.
      statements.length = 0;
      const pending = await endpointStatsPage(
        recorded,
        filter,
        sort,
        window,
        false,
        completeBut(ENDPOINTS_HOURLY),
      );
      expect(statements.map(tablesRead)).toEqual([[API_REQUESTS.name]]);
      expectSameItems(pending.items, raw.items, "24 h endpoints, hourly pending", exact, endpointKey, true);
      // With a whole day: the day from the daily rollup, its edges raw (not from the hourly).
      statements.length = 0;
      const longer = { ...filter, since: day - 90 * 60_000 };
      const edgesRaw = await endpointStatsPage(
        recorded,
        longer,
        sort,
        window,
        false,
        completeBut(ENDPOINTS_HOURLY),
      );
      expect(tablesRead(statements[0] as string)).toEqual(
        [API_REQUESTS.name, ENDPOINTS_DAILY.table.name].sort(),
      );
      expectSameItems(
        edgesRaw.items,
        (await endpointStatsPage(events, longer, sort, window, false)).items,
        "endpoints, hourly pending",
        await endpointExact(events, longer, false),
        endpointKey,
        true,
      );
      // The daily summary not backfilled: whole hours from the hourly rollup.
      statements.length = 0;
      const summaryFilter = { ...longer, projectId: "p3" };
      const hourly = await summary(recorded, summaryFilter, completeBut(TRAFFIC_DAILY));
      expect(tablesRead(statements[0] as string)).toEqual(
        [API_REQUESTS.name, TRAFFIC_HOURLY.table.name].sort(),
      );
      expectSameTraffic(
        { ...hourly },
        { ...(await summary(events, summaryFilter)) },
        "summary, daily pending",
      );
    });

    it("reads a small window of the lists raw, exactly", async () => {
      const filter: RequestFilter = { projectId: "p2", since: BASE - 2 * DAY, until: BASE + 2 * DAY };
      const sort = { by: "total_requests" as const, direction: "desc" as const };
      expect(await endpointStatsPage(events, filter, sort, { limit: 5, offset: 0 }, false, complete)).toEqual(
        await endpointStatsPage(events, filter, sort, { limit: 5, offset: 0 }, false),
      );
      expect(
        await consumerStatsPage(events, filter, undefined, sort, { limit: 5, offset: 0 }, complete),
      ).toEqual(await consumerStatsPage(events, filter, undefined, sort, { limit: 5, offset: 0 }));
    });

    it("answers a small group from raw rows, exactly", async () => {
      const filter: RequestFilter = { projectId: "p2", since: BASE, until: BASE + 5 * HOUR };
      expect(await summary(events, filter, complete)).toEqual(await summary(events, filter));
    });
  });

  describe("randomised: both paths agree", () => {
    let stored: EventsExecutor;
    const seed = Number(process.env.ROLLUP_TEST_SEED ?? Date.now() % 100_000);
    beforeAll(async () => {
      stored = await freshStore();
      await insert(stored, randomRows(seed, 50_000));
    });

    it(`over random windows, filters and figures (seed ${seed})`, async () => {
      const next = random(seed + 1);
      const rollupReads = new Map<string, number>();
      const events = delegatingExecutor(stored, {
        query: (sql, params, lane) => {
          for (const rollup of ROLLUPS) {
            if (sql.includes(`.${rollup.table.name} `))
              rollupReads.set(rollup.table.name, (rollupReads.get(rollup.table.name) ?? 0) + 1);
          }
          return stored.query(sql, params, lane);
        },
      });
      for (let round = 0; round < 6; round += 1) {
        const since = BASE - HOUR + Math.floor(next() * 30 * HOUR);
        // Odd rounds span two days or more, so they hold a whole UTC day (the daily tiers).
        const hours = round % 2 === 1 ? 48 + next() * 12 : 10 + next() * 48;
        const until = since + Math.floor(hours * HOUR) + Math.floor(next() * 1000);
        const filter: RequestFilter & { since: number; until: number } = {
          projectId: "p1",
          since,
          until,
          ...(next() < 0.3 ? { appIds: ["a1"] } : {}),
          ...(next() < 0.3 ? { environment: "prod" } : {}),
        };
        const label = `seed ${seed} round ${round} ${JSON.stringify(filter)}`;
        expectSameTraffic(
          { ...(await summary(events, filter, complete)) },
          { ...(await summary(events, filter)) },
          label,
        );
        const bucketing = { interval: "1h" as const, timezone: next() < 0.5 ? "UTC" : "Europe/Berlin" };
        const rolledSeries = await timeseries(events, filter, bucketing, complete);
        const rawSeries = await timeseries(events, filter, bucketing);
        expect(rolledSeries.map((point) => point.bucket)).toEqual(rawSeries.map((point) => point.bucket));
        rawSeries.forEach((point, index) =>
          expectSameTraffic({ ...rolledSeries[index] }, { ...point }, `${label} series ${index}`),
        );
        // An endpoint's series per day (from the endpoint rollups where a day holds more than
        // 10,000 requests: daily in UTC, hourly in Berlin), percentiles against exact ones.
        const routeFilter = { ...filter, routes: ["/hot"] };
        const daily = { interval: "1d" as const, timezone: bucketing.timezone };
        const rolledRoute = await timeseries(events, routeFilter, daily, complete);
        const rawRoute = await timeseries(events, routeFilter, daily);
        expect(rolledRoute.map((point) => point.bucket)).toEqual(rawRoute.map((point) => point.bucket));
        for (const [index, point] of rawRoute.entries()) {
          const next = rawRoute[index + 1];
          const exact = await wholeExact(events, {
            ...routeFilter,
            since: Math.max(since, Date.parse(point.bucket)),
            until: next === undefined ? until : Date.parse(next.bucket) - 1,
          });
          expectSameTraffic({ ...rolledRoute[index] }, { ...point }, `${label} route ${index}`, exact);
        }
        expect(await requestLatencyHistogram(events, filter, complete), label).toEqual(
          await requestLatencyHistogram(events, filter),
        );
        for (const statusFilter of [filter, routeFilter, { ...routeFilter, statusClasses: [2, 5] }]) {
          expect(await statusCodeCounts(events, statusFilter, 100, complete), label).toEqual(
            await statusCodeCounts(events, statusFilter, 100),
          );
        }
        // Random error statuses and a route search, which the errors rollup answers too.
        const errorsFilter = {
          ...filter,
          statusClasses: next() < 0.5 ? [4, 5] : [5],
          ...(next() < 0.3 ? { statusCodes: [404] } : {}),
          ...(next() < 0.3 ? { endpointSearch: "ite" } : {}),
          // A consumer, which the rollup cannot answer: raw rows, their look-back bounded by it.
          ...(next() < 0.4 ? { consumerId: `c${Math.floor(next() * 40)}` } : {}),
        };
        await expectSameLists(events, label, next, round % 3 === 2);
        const errorSort = { by: "count" as const, direction: "desc" as const };
        const retained = BASE - 24 * HOUR + Math.floor(next() * 30 * HOUR);
        expect(
          await errorGroupsPage(
            events,
            errorsFilter,
            errorSort,
            { limit: 10, offset: 0 },
            retained,
            complete,
          ),
          label,
        ).toEqual(await errorGroupsPage(events, errorsFilter, errorSort, { limit: 10, offset: 0 }, retained));
        // A comparison's error codes, both windows in one statement, on either path.
        const baseline = { since: since - (until - since) - 1, until: since - 1 };
        const errorsBaseline = { ...errorsFilter, ...baseline };
        const codes = await errorCodeCounts(events, [errorsFilter, errorsBaseline], complete);
        expect(codes, label).toEqual(await errorCodeCounts(events, [errorsFilter, errorsBaseline]));
        const groups = await errorGroupsPage(events, errorsFilter, errorSort, { limit: 10_000, offset: 0 });
        const byCode = new Map<number, number>();
        for (const group of groups.items)
          byCode.set(group.status_code, (byCode.get(group.status_code) ?? 0) + group.count);
        expect(codes[0], label).toEqual(byCode);
      }
      // Every rollup was read: the comparison is not raw against raw.
      expect(Object.fromEntries(rollupReads)).toMatchObject(
        Object.fromEntries(ROLLUPS.map((rollup) => [rollup.table.name, expect.any(Number)])),
      );
    }, 300_000);
  });

  /** The endpoint and consumer lists and an endpoint's detail over a random window, at least two
   *  days (so it holds a whole UTC day the daily rollups answer) or, `short`, under a day (the
   *  endpoints' hourly tier alone), both paths. */
  async function expectSameLists(
    events: EventsExecutor,
    label: string,
    next: () => number,
    short: boolean,
  ): Promise<void> {
    const since = BASE - Math.floor(next() * 20 * HOUR) - Math.floor(next() * 1000);
    const filter: RequestFilter = {
      projectId: "p1",
      since,
      until:
        since + (short ? Math.floor((20 + next() * 4) * HOUR) : 2 * DAY + Math.floor(next() * 12 * HOUR)),
      ...(next() < 0.3 ? { appIds: ["a1"] } : {}),
      ...(next() < 0.3 ? { environment: "prod" } : {}),
      ...(next() < 0.2 ? { methods: ["GET"] } : {}),
    };
    const listLabel = `${label} lists ${JSON.stringify(filter)}`;
    const all = { limit: 100, offset: 0 };
    for (const sort of [
      { by: "total_requests" as const, direction: "desc" as const },
      { by: "p95_response_time_ms" as const, direction: "desc" as const },
    ]) {
      const byPercentile = sort.by !== "total_requests";
      for (const perApp of [true, false]) {
        expectSameItems(
          (await endpointStatsPage(events, filter, sort, all, perApp, complete)).items,
          (await endpointStatsPage(events, filter, sort, all, perApp)).items,
          `${listLabel} endpoints ${sort.by} ${perApp}`,
          await endpointExact(events, filter, perApp),
          endpointKey,
          byPercentile,
        );
      }
      // No search; by id; by the newest name or group (broad ones keep the read rolled up, above
      // 10,000 requests; narrow ones may be re-read raw).
      const searches = [undefined, "c", next() < 0.5 ? "c1" : "c2", "name", `name ${Math.floor(next() * 5)}`];
      for (const search of [...searches, `team-${Math.floor(next() * 3)}`]) {
        const searchLabel = `${listLabel} consumers ${search} ${sort.by}`;
        const rolledConsumers = await consumerStatsPage(events, filter, search, sort, all, complete);
        const rawConsumers = await consumerStatsPage(events, filter, search, sort, all);
        expect(rolledConsumers.total, searchLabel).toBe(rawConsumers.total);
        expectSameItems(
          rolledConsumers.items,
          rawConsumers.items,
          searchLabel,
          await consumerExact(events, filter),
          consumerKey,
          byPercentile,
        );
        // A page past the first is the same slice of the same order, and tells the same total.
        const later = await consumerStatsPage(
          events,
          filter,
          search,
          sort,
          { limit: 3, offset: 2 },
          complete,
        );
        expect(later.items.map(consumerKey), searchLabel).toEqual(
          rolledConsumers.items.slice(2, 5).map(consumerKey),
        );
        expect(later.total, searchLabel).toBe(rolledConsumers.total);
      }
      // A page in the middle: the same groups, in the same order, as raw.
      const middle = { limit: 3, offset: 2 };
      expect(
        (
          await consumerStatsPage(
            events,
            filter,
            undefined,
            { by: "total_requests", direction: "desc" },
            middle,
            complete,
          )
        ).items.map(consumerKey),
      ).toEqual(
        (
          await consumerStatsPage(
            events,
            filter,
            undefined,
            { by: "total_requests", direction: "desc" },
            middle,
          )
        ).items.map(consumerKey),
      );
    }
    const endpoint = { method: "GET", route: "/hot" };
    const endpointFilter = { ...filter, endpoints: [endpoint] };
    expectSameTraffic(
      { ...(await endpointDetail(events, endpointFilter, endpoint, complete)) },
      { ...(await endpointDetail(events, endpointFilter, endpoint)) },
      `${listLabel} detail`,
      await wholeExact(events, endpointFilter),
    );
  }

  describe("backfill", () => {
    it("rolls up rows stored before the rollups, resumes after an interruption, then equals raw", async () => {
      // A store at version 4 holding rows, then upgraded.
      const events = await freshStore(eventsMigrations.filter((migration) => migration.version <= 4));
      const before = randomRows(7, 6_000);
      await insert(events, before);
      await migrateEvents(events);
      // Rows arriving after the upgrade go through the views.
      await insert(events, randomRows(8, 2_000));
      const coverage = storeCoverage(events, 0);
      const filter: RequestFilter = { projectId: "p1", since: BASE - HOUR, until: BASE + 60 * HOUR };
      const raw = await summary(events, filter);
      // Nothing backfilled yet: the rollups are complete only after the snapshot's newest day.
      expect(await coverage.completeFrom()).toBeGreaterThan(BASE + 59 * HOUR);
      // Averages may differ in the last bit: the engine sums floats in whatever order its threads take.
      expectSameTraffic({ ...(await summary(events, filter, coverage)) }, { ...raw }, "before backfill");

      const days: string[] = [];
      const first = await runRollupBackfill(events, {
        coverage,
        onDay: (progress) => days.push(`${progress.rollups} ${progress.day}`),
        stopped: () => days.length >= 1,
        stepMs: 6 * HOUR,
      });
      expect(first).toBe("stopped");
      const partial = await coverage.completeFrom();
      expect(partial).toBeGreaterThan(BASE);
      expectSameTraffic({ ...(await summary(events, filter, coverage)) }, { ...raw }, "partial");

      // Interrupted mid-day: the next day's coarse rollup written, the day not recorded as done.
      const [next] = (await snapshotDays(events)).slice(1);
      if (next !== undefined && !(await backfilledDays(events)).has(next.dayMs)) {
        await events.command(
          `INSERT INTO ${events.database}.${TRAFFIC_HOURLY.table.name} ` +
            rollupSelect(
              TRAFFIC_HOURLY,
              `${events.database}.${BACKFILL_SNAPSHOT}`,
              `WHERE toDate(timestamp) = toDate({day:DateTime64(3, 'UTC')})`,
              ROLLUP_SOURCE.backfill,
            ),
          { day: new Date(next.dayMs) },
        );
      }
      const done = await runRollupBackfill(events, {
        coverage,
        onDay: (progress) => days.push(`${progress.rollups} ${progress.day}`),
      });
      expect(done).toBe("done");
      expect(new Set(days).size).toBe(days.length);
      expect(await coverage.completeFrom()).toBe(0);
      expect(await coverage.completeFrom(ENDPOINTS_DAILY)).toBe(0);
      for (const tier of [ENDPOINTS_HOURLY, TRAFFIC_DAILY, ERRORS_DAILY])
        expect(await coverage.completeFrom(tier), tier.table.name).toBe(0);
      // The list rollups and the tiers were backfilled too (their own snapshots and progress).
      const listFilter: RequestFilter = { projectId: "p1", since: BASE - 2 * DAY, until: BASE + 3 * DAY };
      const sort = { by: "total_requests" as const, direction: "desc" as const };
      expectSameItems(
        (await endpointStatsPage(events, listFilter, sort, { limit: 50, offset: 0 }, true, coverage)).items,
        (await endpointStatsPage(events, listFilter, sort, { limit: 50, offset: 0 }, true)).items,
        "endpoints after backfill",
        await endpointExact(events, listFilter, true),
        endpointKey,
      );
      const rolled = await summary(events, filter, coverage);
      expectSameTraffic({ ...rolled }, { ...raw }, "after backfill");
      expect(rolled.total_requests).toBe(raw.total_requests);
      // Running again finds nothing to do.
      expect(await runRollupBackfill(events, { coverage })).toBe("done");
      expectSameTraffic({ ...(await summary(events, filter, coverage)) }, { ...rolled }, "again");
    }, 180_000);
  });
});

/** An executor that runs every query on `events` and keeps its SQL text in `statements`. */
function recording(events: EventsExecutor): { recorded: EventsExecutor; statements: string[] } {
  const statements: string[] = [];
  const recorded = delegatingExecutor(events, {
    query: (sql, params, lane) => {
      statements.push(sql);
      return events.query(sql, params, lane);
    },
  });
  return { recorded, statements };
}
