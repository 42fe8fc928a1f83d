// Two stores side by side for the projection tests: one left at the migration before a
// projection, one upgraded over stored rows; the same seeded rows in both, the projection's
// materialization awaited, and the tables a read's statements read (from EXPLAIN).
import { afterEach, beforeEach } from "vitest";
import { type EventsExecutor, migrateEvents, openEventsExecutor } from "../../src/stores/events/index.js";
import { eventsMigrations } from "../../src/stores/events/migrations/index.js";
import type { RequestFilter } from "../../src/stores/events/queries/request-filter.js";
import { delegatingExecutor, type EventsBackend, uniqueDatabaseName } from "./events.js";

export const HOUR_MS = 3_600_000;
export type Window = RequestFilter & { since: number; until: number };

export interface ProjectionStores {
  /** At the migration before `version`: no projection. */
  readonly plain: EventsExecutor;
  /** Upgraded to `version` by `upgrade()`. */
  readonly projected: EventsExecutor;
  /** Migrates `projected` to the newest version. */
  upgrade(): Promise<void>;
  /**
   * `rows` requests of a seeded mix (two projects, two apps and environments, fifty consumers
   * with names that change over time and anonymous requests, several endpoints and statuses)
   * over the 48 hours before `endMs`, inserted into both stores. Latencies are whole
   * milliseconds, so every sum and mean is exact whatever order the rows are read in.
   */
  store(seed: number, rows: number, endMs: number): Promise<void>;
  /** Waits for the upgraded store's mutations; its active parts, and those with `projection`. */
  awaitMaterialized(projection: string): Promise<{ parts: number; projected: number }>;
  /**
   * The tests' rows: 100,000 stored before the upgrade (materialized by its mutation) and
   * 50,000 after it (their parts get the projection as they are written), ending at `endMs`;
   * then awaitMaterialized.
   */
  storeAcrossUpgrade(endMs: number, projection: string): Promise<{ parts: number; projected: number }>;
}

/** Registers beforeEach/afterEach hooks that open both stores for each test. */
export function projectionStores(backend: EventsBackend, prefix: string, version: number): ProjectionStores {
  let plain: EventsExecutor | undefined;
  let projected: EventsExecutor | undefined;
  const both = () => [plain, projected].filter((events): events is EventsExecutor => events !== undefined);
  const opened = (events: EventsExecutor | undefined) => {
    if (events === undefined) throw new Error("the projection stores open in beforeEach");
    return events;
  };

  beforeEach(async () => {
    plain = await openEventsExecutor({ ...backend.options, database: uniqueDatabaseName(`${prefix}_plain`) });
    projected = await openEventsExecutor({
      ...backend.options,
      database: uniqueDatabaseName(`${prefix}_proj`),
    });
    const before = eventsMigrations.filter((migration) => migration.version < version);
    for (const events of both()) {
      await events.command(`CREATE DATABASE IF NOT EXISTS ${events.database}`);
      await migrateEvents(events, before);
    }
  });
  afterEach(async () => {
    for (const events of both()) {
      await events.command(`DROP DATABASE IF EXISTS ${events.database}`);
      await events.close();
    }
    plain = undefined;
    projected = undefined;
  });

  const stores: ProjectionStores = {
    get plain() {
      return opened(plain);
    },
    get projected() {
      return opened(projected);
    },
    async upgrade() {
      await migrateEvents(opened(projected));
    },
    async store(seed, rows, endMs) {
      for (const events of both()) {
        await events.command(
          `INSERT INTO ${events.database}.api_requests (id, project_id, app_id, timestamp, environment, method, ` +
            "path, route, status_code, response_time_ms, request_size, response_size, consumer_id, " +
            "consumer_name, consumer_group, stored_on) " +
            "SELECT generateUUIDv4(), if(h % 5 = 0, 'p2', 'p1'), if(h % 3 = 0, 'web', 'api'), " +
            "fromUnixTimestamp64Milli({end:Int64} - toInt64(h % 172800000)), if(h % 4 = 0, 'staging', 'prod'), " +
            "['GET', 'POST'][1 + h % 2], '/x', concat('/r', toString(intDiv(h, 7) % 6)), " +
            "[200, 200, 201, 404, 422, 500][1 + intDiv(h, 11) % 6], toFloat64(intDiv(h, 13) % 900), " +
            "intDiv(h, 17) % 5000, intDiv(h, 19) % 20000, consumer, " +
            // A consumer's name changes each hour (and is sometimes not sent), so the newest
            // name depends on which rows a read takes.
            // c7 sent names only over a day ago, so the newest one is not in the last day.
            "if(consumer = '' OR intDiv(h, 31) % 7 = 0 OR (consumer = 'c7' AND h % 172800000 < 93600000), '', " +
            "concat('Name ', consumer, ' @', toString(toStartOfHour(fromUnixTimestamp64Milli({end:Int64} - toInt64(h % 172800000)))))), " +
            // c9 sent groups only over a day ago: its newest name and group are a day apart.
            "if(consumer = '' OR (consumer = 'c9' AND h % 172800000 < 93600000), '', ['g1', 'g2', ''][1 + intDiv(h, 37) % 3]), " +
            "toDate(fromUnixTimestamp64Milli({end:Int64})) " +
            "FROM (SELECT h, if(intDiv(h, 23) % 10 = 0, '', concat('c', toString(intDiv(h, 29) % 50))) AS consumer " +
            "FROM (SELECT cityHash64({seed:UInt64}, number) AS h FROM numbers({rows:UInt64})))",
          { end: endMs, seed, rows },
        );
      }
    },
    async awaitMaterialized(projection) {
      const events = opened(projected);
      const database = events.database;
      for (let attempt = 0; attempt < 600; attempt += 1) {
        const [pending] = await events.query<{ n: number }>(
          "SELECT count() AS n FROM system.mutations WHERE database = {database:String} AND NOT is_done",
          { database },
        );
        if (Number(pending?.n) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [parts] = await events.query<{ n: number }>(
        "SELECT count() AS n FROM system.parts WHERE database = {database:String} AND table = 'api_requests' AND active",
        { database },
      );
      const [withProjection] = await events.query<{ n: number }>(
        "SELECT count() AS n FROM system.projection_parts WHERE database = {database:String} " +
          "AND table = 'api_requests' AND name = {name:String} AND active",
        { database, name: projection },
      );
      return { parts: Number(parts?.n), projected: Number(withProjection?.n) };
    },
    async storeAcrossUpgrade(endMs, projection) {
      await stores.store(1, 100_000, endMs);
      await stores.upgrade();
      await stores.store(2, 50_000, endMs);
      return stores.awaitMaterialized(projection);
    },
  };
  return stores;
}

/** What `read` answers over `events`, and the tables (or projections) its statements read. */
export async function withReads<T>(
  events: EventsExecutor,
  read: (events: EventsExecutor) => Promise<T>,
): Promise<{ figures: T; reads: string[] }> {
  const statements: Array<{ sql: string; params: Record<string, unknown> | undefined }> = [];
  const recording = delegatingExecutor(events, {
    query: (sql, params, lane) => {
      statements.push({ sql, params });
      return events.query(sql, params, lane);
    },
  });
  const figures = await read(recording);
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
