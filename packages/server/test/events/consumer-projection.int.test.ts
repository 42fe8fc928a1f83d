// Events migration 15 on every backend: api_requests' by_consumer projection. Two stores hold
// the same rows, one at migration 14 (no projection) and one upgraded to 15 over stored rows;
// a consumer's figures, series and endpoints read the projection there and equal the other
// store's, for rows stored before the upgrade (materialized by its mutation) and after it.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  API_REQUESTS,
  CONSUMER_PROJECTION_VERSION,
  type EventsExecutor,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { eventsMigrations } from "../../src/stores/events/migrations/index.js";
import { endpointStatsPage } from "../../src/stores/events/queries/analytics/endpoints.js";
import { summary, timeseries } from "../../src/stores/events/queries/analytics/traffic.js";
import type { RequestFilter } from "../../src/stores/events/queries/request-filter.js";
import {
  delegatingExecutor,
  eventsBackends,
  removeTestChdbPath,
  uniqueDatabaseName,
} from "../support/events.js";

afterAll(removeTestChdbPath);

const HOUR_MS = 3_600_000;
type Window = RequestFilter & { since: number; until: number };
const PROJECTION = API_REQUESTS.projections?.[0]?.name ?? "";

describe.each(eventsBackends())("consumer projection (events migration 15) on $name", ({ options }) => {
  let plain: EventsExecutor;
  let projected: EventsExecutor;

  beforeEach(async () => {
    plain = await openEventsExecutor({ ...options, database: uniqueDatabaseName("cp_plain") });
    projected = await openEventsExecutor({ ...options, database: uniqueDatabaseName("cp_proj") });
    const before = eventsMigrations.filter((migration) => migration.version < CONSUMER_PROJECTION_VERSION);
    for (const events of [plain, projected]) {
      await events.command(`CREATE DATABASE IF NOT EXISTS ${events.database}`);
      await migrateEvents(events, before);
    }
  });
  afterEach(async () => {
    for (const events of [plain, projected]) {
      await events.command(`DROP DATABASE IF EXISTS ${events.database}`);
      await events.close();
    }
  });

  /**
   * `rows` requests of a seeded mix (two projects, two apps and environments, fifty consumers
   * and anonymous requests, several endpoints and statuses) over the 48 hours before `endMs`,
   * inserted into both stores. Latencies are whole milliseconds, so every sum and mean is exact
   * whatever order the rows are read in.
   */
  async function store(seed: number, rows: number, endMs: number): Promise<void> {
    for (const events of [plain, projected]) {
      await events.command(
        `INSERT INTO ${events.database}.api_requests (id, project_id, app_id, timestamp, environment, method, ` +
          "path, route, status_code, response_time_ms, request_size, response_size, consumer_id, stored_on) " +
          "SELECT generateUUIDv4(), if(h % 5 = 0, 'p2', 'p1'), if(h % 3 = 0, 'web', 'api'), " +
          "fromUnixTimestamp64Milli({end:Int64} - toInt64(h % 172800000)), if(h % 4 = 0, 'staging', 'prod'), " +
          "['GET', 'POST'][1 + h % 2], '/x', concat('/r', toString(intDiv(h, 7) % 6)), " +
          "[200, 200, 201, 404, 422, 500][1 + intDiv(h, 11) % 6], toFloat64(intDiv(h, 13) % 900), " +
          "intDiv(h, 17) % 5000, intDiv(h, 19) % 20000, " +
          "if(intDiv(h, 23) % 10 = 0, '', concat('c', toString(intDiv(h, 29) % 50))), " +
          "toDate(fromUnixTimestamp64Milli({end:Int64})) " +
          "FROM (SELECT cityHash64({seed:UInt64}, number) AS h FROM numbers({rows:UInt64}))",
        { end: endMs, seed, rows },
      );
    }
  }

  /** The projection's state: every active part of the upgraded store has it once its mutation is done. */
  async function awaitMaterialized(): Promise<{ parts: number; projected: number }> {
    const database = projected.database;
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const [pending] = await projected.query<{ n: number }>(
        "SELECT count() AS n FROM system.mutations WHERE database = {database:String} AND NOT is_done",
        { database },
      );
      if (Number(pending?.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [parts] = await projected.query<{ n: number }>(
      "SELECT count() AS n FROM system.parts WHERE database = {database:String} AND table = 'api_requests' AND active",
      { database },
    );
    const [withProjection] = await projected.query<{ n: number }>(
      "SELECT count() AS n FROM system.projection_parts WHERE database = {database:String} " +
        "AND table = 'api_requests' AND name = {name:String} AND active",
      { database, name: PROJECTION },
    );
    return { parts: Number(parts?.n), projected: Number(withProjection?.n) };
  }

  /** What the consumer page reads for `filter`, and the tables its statements read. */
  async function consumerPage(events: EventsExecutor, filter: Window) {
    const statements: Array<{ sql: string; params: Record<string, unknown> | undefined }> = [];
    const recording = delegatingExecutor(events, {
      query: (sql, params, lane) => {
        statements.push({ sql, params });
        return events.query(sql, params, lane);
      },
    });
    const figures = {
      summary: await summary(recording, filter),
      series: await timeseries(recording, filter, { interval: "1h", timezone: "UTC" }),
      endpoints: await endpointStatsPage(
        recording,
        filter,
        { by: "total_requests", direction: "desc" },
        { limit: 25, offset: 0 },
        true,
      ),
    };
    const reads: string[] = [];
    for (const { sql, params } of statements) {
      const plan = await events.query<{ explain: string }>(`EXPLAIN ${sql}`, params);
      reads.push(
        ...plan
          .map((row) => /ReadFromMergeTree \(([^)]*)\)/.exec(row.explain)?.[1])
          .filter((read): read is string => read !== undefined),
      );
    }
    return { figures, reads };
  }

  it("answers a consumer's page from the projection, equal to the table's own rows", async () => {
    const endMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    await store(1, 100_000, endMs);
    await migrateEvents(projected);
    // Rows after the upgrade: their parts get the projection as they are written.
    await store(2, 50_000, endMs);
    const state = await awaitMaterialized();
    expect(state.parts).toBeGreaterThanOrEqual(2);
    expect(state.projected).toBe(state.parts);

    const window = { since: endMs - 30 * HOUR_MS, until: endMs };
    const filters: Array<Window> = [
      { projectId: "p1", consumerId: "c1", ...window },
      { projectId: "p1", consumerId: "c3", appIds: ["api"], environment: "prod", ...window },
      { projectId: "p2", consumerId: "c49", ...window },
      { projectId: "p1", consumerId: "nobody", ...window },
    ];
    for (const filter of filters) {
      const expected = await consumerPage(plain, filter);
      const got = await consumerPage(projected, filter);
      expect(got.figures).toEqual(expected.figures);
      expect(expected.reads.some((read) => read.includes(PROJECTION))).toBe(false);
      expect(got.reads.length).toBeGreaterThan(0);
      expect(got.reads, filter.consumerId).toEqual(got.reads.map(() => PROJECTION));
    }
    // Not vacuous: the consumers' pages hold requests.
    const pages = await Promise.all(filters.slice(0, 3).map((filter) => consumerPage(projected, filter)));
    for (const page of pages) expect(page.figures.summary.total_requests).toBeGreaterThan(50);

    // Without a consumer condition the table's own order (project, time) serves the read.
    const project = await consumerPage(projected, { projectId: "p1", ...window });
    for (const read of project.reads) expect(read).not.toBe(PROJECTION);
  }, 120_000);
});
