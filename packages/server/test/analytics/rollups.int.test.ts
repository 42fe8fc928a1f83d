// Rolled-up reads against raw reads on the same rows, on every events backend: hand-checked
// figures, a randomised comparison of both paths over random windows (summary, timeseries and
// the errors breakdown: counts, sums and error rates equal, means to float rounding, percentiles
// within 1 %), and the backfill of rows stored before the rollups existed (resumed after an
// interruption, then equal to raw).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorGroupsPage } from "../../src/stores/events/queries/analytics/errors.js";
import { summary, timeseries } from "../../src/stores/events/queries/analytics/traffic.js";
import {
  API_REQUESTS,
  BACKFILL_SNAPSHOT,
  type EventsExecutor,
  ROLLUP_SOURCE,
  ROLLUPS,
  rollupSelect,
  TRAFFIC_HOURLY,
  eventsMigrations,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import type { RequestFilter } from "../../src/stores/events/queries/request-filter.js";
import { runRollupBackfill } from "../../src/stores/events/queries/rollups/backfill.js";
import {
  backfilledDays,
  type RollupCoverage,
  snapshotDays,
  storeCoverage,
} from "../../src/stores/events/queries/rollups/coverage.js";
import { delegatingExecutor, eventsBackends, uniqueDatabaseName } from "../support/events.js";

const HOUR = 3_600_000;
/** Hour-aligned, three days before now (rows must lie within the raw table's retention). */
const BASE = Math.floor((Date.now() - 3 * 24 * HOUR) / HOUR) * HOUR;
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
      consumer: next() < 0.15 ? "" : `c${Math.floor(next() * 40)}`,
      bytes: Math.floor(next() * 5000),
    });
  });
}

/** Rollups complete for every hour (a store migrated before any row arrived). */
const complete: RollupCoverage = { completeFrom: async () => 0, invalidate: () => undefined };

function expectSameTraffic(
  rolled: Record<string, unknown>,
  raw: Record<string, unknown>,
  label: string,
): void {
  for (const [key, value] of Object.entries(raw)) {
    const other = rolled[key];
    if (key.startsWith("p") && key.endsWith("_response_time_ms")) {
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
    });

    it("answers the summary from the hour and its raw edges, equal to raw", async () => {
      const statements: string[] = [];
      const recorded = delegatingExecutor(events, {
        query: (sql, params, lane) => {
          statements.push(sql);
          return events.query(sql, params, lane);
        },
      });
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
      const statements: string[] = [];
      const recorded = delegatingExecutor(events, {
        query: (sql, params, lane) => {
          statements.push(sql);
          return events.query(sql, params, lane);
        },
      });
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
        const until = since + Math.floor((10 + next() * 48) * HOUR) + Math.floor(next() * 1000);
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
        // Random error statuses and a route search, which the errors rollup answers too.
        const errorsFilter = {
          ...filter,
          statusClasses: next() < 0.5 ? [4, 5] : [5],
          ...(next() < 0.3 ? { statusCodes: [404] } : {}),
          ...(next() < 0.3 ? { endpointSearch: "ite" } : {}),
        };
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
      }
      // Every rollup was read: the comparison is not raw against raw.
      expect(Object.fromEntries(rollupReads)).toMatchObject(
        Object.fromEntries(ROLLUPS.map((rollup) => [rollup.table.name, expect.any(Number)])),
      );
    }, 300_000);
  });

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
      expect(await summary(events, filter, coverage)).toEqual(raw);

      const days: string[] = [];
      const first = await runRollupBackfill(events, {
        coverage,
        onDay: (progress) => days.push(progress.day),
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
        onDay: (progress) => days.push(progress.day),
      });
      expect(done).toBe("done");
      expect(new Set(days).size).toBe(days.length);
      expect(await coverage.completeFrom()).toBe(0);
      const rolled = await summary(events, filter, coverage);
      expectSameTraffic({ ...rolled }, { ...raw }, "after backfill");
      expect(rolled.total_requests).toBe(raw.total_requests);
      // Running again finds nothing to do.
      expect(await runRollupBackfill(events, { coverage })).toBe("done");
      expect(await summary(events, filter, coverage)).toEqual(rolled);
    }, 180_000);
  });
});
