// The events store's contract on every backend, then chDB's directory rule, a down HTTP server,
// and the ClickHouse server's version floor and error formats.
import { existsSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type EventsExecutor,
  type EventsMigration,
  EventsMigrationError,
  EventsStoreError,
  eventsMigrations,
  type InsertBatch,
  MINIMUM_CLICKHOUSE_VERSION,
  migrateEvents,
  openEventsExecutor,
  parseClickhouseUrl,
} from "../../src/stores/events/index.js";
import { eventsBackends, removeTestChdbPath, testChdbPath, uniqueDatabaseName } from "../support/events.js";

// Long enough on any engine that a trivial read on the other lane is certain to finish first.
const SLOW_SQL = "SELECT count() AS n FROM numbers(100000000) WHERE sipHash64(number) % 7 = 1";

const REQUEST_COLUMNS = ["id", "at", "route", "status", "tags", "duration_ms"] as const;

function requestsTableDdl(database: string): string {
  return (
    `CREATE TABLE ${database}.requests (id UInt64, at DateTime64(3, 'UTC'), route String, ` +
    "status UInt16, tags Array(String), duration_ms Float64) ENGINE = MergeTree ORDER BY id"
  );
}

function batch(rows: readonly unknown[][], table = "requests"): InsertBatch {
  const body = Buffer.from(rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
  return { table, columns: REQUEST_COLUMNS, body, rowCount: rows.length };
}

function migration(
  version: number,
  name: string,
  statements: (database: string) => string[],
): EventsMigration {
  return { version, name, statements: ({ database }) => statements(database) };
}

async function failure(promise: Promise<unknown>): Promise<EventsStoreError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EventsStoreError);
  return error as EventsStoreError;
}

// Every executor is closed by then, so no session holds the directory.
afterAll(removeTestChdbPath);

describe.each(eventsBackends())("events store on $name", ({ name, options }) => {
  let store: EventsExecutor;
  let database: string;

  beforeEach(async () => {
    database = uniqueDatabaseName("ev");
    store = await openEventsExecutor({ ...options, database });
  });

  afterEach(async () => {
    await store.command(`DROP DATABASE IF EXISTS ${database}`);
    await store.close();
  });

  it("opens on the engine the options select, with its database created", async () => {
    expect(store.engine).toBe(name);
    expect(store.database).toBe(database);
    const rows = await store.query<{ name: string }>(
      "SELECT name FROM system.databases WHERE name = {db:String}",
      {
        db: database,
      },
    );
    expect(rows).toEqual([{ name: database }]);
  });

  it("runs both lanes with the settings the row shapes rely on", async () => {
    const sql =
      "SELECT name, value FROM system.settings WHERE name IN ('date_time_output_format', " +
      "'output_format_json_quote_64bit_integers', 'session_timezone', 'date_time_input_format') ORDER BY name";
    const expected = [
      { name: "date_time_input_format", value: "best_effort" },
      { name: "date_time_output_format", value: "iso" },
      { name: "output_format_json_quote_64bit_integers", value: "0" },
      { name: "session_timezone", value: "UTC" },
    ];
    expect(await store.query(sql, undefined, "read")).toEqual(expected);
    expect(await store.query(sql, undefined, "write")).toEqual(expected);
  });

  it("binds String, UInt32, Array(String) and DateTime64 parameters as values", async () => {
    const injection = `x'); DROP DATABASE ${database}; --`;
    const rows = await store.query(
      "SELECT {s:String} AS s, {n:UInt32} AS n, {tags:Array(String)} AS tags, " +
        "{at:DateTime64(3, 'UTC')} AS at, {date:DateTime64(3, 'UTC')} AS date, {big:UInt64} AS big",
      {
        s: injection,
        n: 4_294_967_295,
        tags: ["a", "b'c", "", "d\\e"],
        at: "2026-11-21 06:00:00.123",
        date: new Date("2026-11-21T06:00:00.456Z"),
        big: 9_007_199_254_740_991n,
      },
    );
    expect(rows).toEqual([
      {
        s: injection,
        n: 4_294_967_295,
        tags: ["a", "b'c", "", "d\\e"],
        at: "2026-11-21T06:00:00.123Z",
        date: "2026-11-21T06:00:00.456Z",
        big: 9_007_199_254_740_991,
      },
    ]);
    const databases = await store.query("SELECT name FROM system.databases WHERE name = {db:String}", {
      db: database,
    });
    expect(databases).toHaveLength(1);
  });

  it("treats an injection string in a filter as data", async () => {
    await store.command(requestsTableDdl(database));
    await store.insert(batch([[1, "2026-11-21 06:00:00.000", "/a", 200, [], 1.5]]));
    const matches = await store.query(`SELECT id FROM ${database}.requests WHERE route = {route:String}`, {
      route: "/b' OR 1 = 1 OR route = '",
    });
    expect(matches).toEqual([]);
    const arrays = await store.query(
      `SELECT id FROM ${database}.requests WHERE has({routes:Array(String)}, route)`,
      {
        routes: ["/x", "/a"],
      },
    );
    expect(arrays).toEqual([{ id: 1 }]);
  });

  it("stores an inserted batch and reads back exact values", async () => {
    await store.command(requestsTableDdl(database));
    await store.insert(
      batch([
        [1, "2026-11-21 06:00:00.123", "/users/{id}", 200, ["v1"], 12.5],
        [2, "2026-11-21T06:30:00.456Z", "/users/{id}", 500, [], 80],
        [3, "2026-11-21 07:15:00.789", "/health", 204, ["probe", "k8s"], 0.25],
      ]),
    );
    const rows = await store.query(
      `SELECT id, at, route, status, tags, duration_ms FROM ${database}.requests ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: 1,
        at: "2026-11-21T06:00:00.123Z",
        route: "/users/{id}",
        status: 200,
        tags: ["v1"],
        duration_ms: 12.5,
      },
      { id: 2, at: "2026-11-21T06:30:00.456Z", route: "/users/{id}", status: 500, tags: [], duration_ms: 80 },
      {
        id: 3,
        at: "2026-11-21T07:15:00.789Z",
        route: "/health",
        status: 204,
        tags: ["probe", "k8s"],
        duration_ms: 0.25,
      },
    ]);
    const hours = await store.query(
      `SELECT toStartOfHour(at) AS hour, count() AS requests, countIf(status >= 500) AS errors ` +
        `FROM ${database}.requests WHERE at >= {from:DateTime64(3, 'UTC')} GROUP BY hour ORDER BY hour`,
      { from: new Date("2026-11-21T06:00:00.000Z") },
    );
    expect(hours).toEqual([
      { hour: "2026-11-21T06:00:00Z", requests: 2, errors: 1 },
      { hour: "2026-11-21T07:00:00Z", requests: 1, errors: 0 },
    ]);
  });

  it("rejects a batch with one malformed row whole", async () => {
    await store.command(requestsTableDdl(database));
    const error = await failure(
      store.insert(
        batch([
          [1, "2026-11-21 06:00:00.000", "/ok", 200, [], 1],
          [2, "not-a-date-secret-row", "/bad", 200, [], 1],
          [3, "2026-11-21 06:00:00.000", "/ok", 200, [], 1],
        ]),
      ),
    );
    // Refused for its rows, not as a statement: the writer isolates such a batch.
    expect(error.kind).toBe("rejected");
    expect(error.message).toContain("insert of 3 rows into requests");
    expect(error.engineError).toEqual(expect.stringMatching(/^[A-Z_]+$/));
    if (name === "chdb") expect(error.failedAtRow).toBe(2);
    expect(error.message).not.toContain("secret-row");
    // The engine's text quotes the rows: it is not kept, not even as the cause.
    expect(error.cause).toBeUndefined();
    const [count] = await store.query<{ n: number }>(`SELECT count() AS n FROM ${database}.requests`);
    expect(count).toEqual({ n: 0 });
  });

  it("answers the read lane while the write lane runs a long query", async () => {
    const finished: string[] = [];
    const slow = store.query(SLOW_SQL, undefined, "write").then(() => finished.push("write"));
    const fast = store.query("SELECT {one:UInt8} AS one", { one: 1 }, "read").then((rows) => {
      finished.push("read");
      return rows;
    });
    const [, rows] = await Promise.all([slow, fast]);
    expect(rows).toEqual([{ one: 1 }]);
    expect(finished).toEqual(["read", "write"]);
  });

  it("applies migrations in version order, records them, and applies nothing on a re-run", async () => {
    const first = migration(1, "create_a", (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.a (id UInt32) ENGINE = MergeTree ORDER BY id`,
    ]);
    // Fails unless `a` exists already: proves version order, not list order.
    const second = migration(2, "copy_a_as_b", (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.b AS ${db}.a`,
      `ALTER TABLE ${db}.b ADD COLUMN IF NOT EXISTS note String`,
    ]);
    expect(await migrateEvents(store, [second, first])).toEqual(["create_a", "copy_a_as_b"]);

    const history = await store.query<{ version: number; name: string; applied_at: string }>(
      `SELECT version, name, applied_at FROM ${database}.schema_migrations ORDER BY version`,
    );
    expect(history.map(({ version, name }) => ({ version, name }))).toEqual([
      { version: 1, name: "create_a" },
      { version: 2, name: "copy_a_as_b" },
    ]);
    for (const row of history) expect(row.applied_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const columns = await store.query(
      "SELECT name FROM system.columns WHERE database = {db:String} AND table = 'b' ORDER BY position",
      { db: database },
    );
    expect(columns).toEqual([{ name: "id" }, { name: "note" }]);

    expect(await migrateEvents(store, [first, second])).toEqual([]);
    const third = migration(3, "create_c", (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.c (id UInt32) ENGINE = MergeTree ORDER BY id`,
    ]);
    expect(await migrateEvents(store, [first, second, third])).toEqual(["create_c"]);
    const [recorded] = await store.query<{ n: number }>(
      `SELECT count() AS n FROM ${database}.schema_migrations`,
    );
    expect(recorded).toEqual({ n: 3 });
  });

  it("re-runs a migration whose statements ran but whose record was lost", async () => {
    const first = migration(1, "create_a", (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.a (id UInt32) ENGINE = MergeTree ORDER BY id`,
    ]);
    for (const statement of first.statements({ database, topology: store.topology }))
      await store.command(statement);
    expect(await migrateEvents(store, [first])).toEqual(["create_a"]);
  });

  it("refuses a history that records a version this build does not know", async () => {
    const first = migration(1, "create_a", (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.a (id UInt32) ENGINE = MergeTree ORDER BY id`,
    ]);
    const second = migration(2, "create_b", (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.b (id UInt32) ENGINE = MergeTree ORDER BY id`,
    ]);
    await migrateEvents(store, [first, second]);
    const refused = migrateEvents(store, [first]);
    await expect(refused).rejects.toBeInstanceOf(EventsMigrationError);
    await expect(refused).rejects.toThrow(/version\(s\) 2 /);
  });

  it("applies the production list in version order, records it, and creates its tables", async () => {
    const versions = eventsMigrations.map((migration) => migration.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(await migrateEvents(store)).toEqual(eventsMigrations.map((migration) => migration.name));
    expect(await migrateEvents(store)).toEqual([]);
    const tables = await store.query<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name",
      { db: database },
    );
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(["api_logs", "api_requests", "schema_migrations"]),
    );
  });

  it("shares the store with a second executor, which can close alone", async () => {
    await store.command(requestsTableDdl(database));
    const second = await openEventsExecutor({ ...options, database });
    await second.insert(batch([[7, "2026-11-21 06:00:00.000", "/shared", 200, [], 1]]));
    expect(await store.query(`SELECT id FROM ${database}.requests`)).toEqual([{ id: 7 }]);
    await second.close();
    await second.close();
    expect((await failure(second.query("SELECT 1"))).kind).toBe("unavailable");
    expect(await store.query(`SELECT route FROM ${database}.requests`)).toEqual([{ route: "/shared" }]);
    await store.ping();
  });

  it("answers ping", async () => {
    await expect(store.ping(5_000)).resolves.toBeUndefined();
  });

  it("reports query errors as kind 'query' without the SQL in the message", async () => {
    const missing = await failure(store.query(`SELECT * FROM ${database}.needle_missing_table`));
    expect(missing.kind).toBe("query");
    expect(missing.clickhouseCode).toBe(60);
    expect(missing.message).toMatch(/ClickHouse error 60 UNKNOWN_TABLE/);
    expect(missing.message).not.toContain("needle");
    expect(missing.sql).toContain("needle_missing_table");

    const syntax = await failure(store.command("SELEC 'needle_in_syntax'"));
    expect(syntax.kind).toBe("query");
    expect(syntax.clickhouseCode).toBe(62);
    expect(syntax.message).not.toContain("needle");

    const badParam = await failure(store.query("SELECT {n:UInt32} AS n", { n: "needle_not_a_number" }));
    expect(badParam.kind).toBe("query");
    expect(badParam.message).not.toContain("needle");
  });

  it("refuses identifiers that cannot be used unquoted", async () => {
    const error = await failure(store.insert({ ...batch([]), table: "requests; DROP TABLE x" }));
    expect(error.kind).toBe("query");
    await expect(openEventsExecutor({ ...options, database: "bad-name" })).rejects.toBeInstanceOf(
      EventsStoreError,
    );
  });
});

describe("chDB data directory", () => {
  const path = testChdbPath();
  const other = join(dirname(path), "other-events");

  it("loads databases synchronously and keeps data across a reopen", async () => {
    const database = uniqueDatabaseName("reopen");
    const first = await openEventsExecutor({ chdbPath: path, database });
    await first.command(requestsTableDdl(database));
    await first.insert(batch([[1, "2026-11-21 06:00:00.000", "/kept", 200, [], 1]]));
    await first.close();

    const reopened = await openEventsExecutor({ chdbPath: path, database });
    try {
      expect(await reopened.query(`SELECT route FROM ${database}.requests`)).toEqual([{ route: "/kept" }]);
      const loading = await reopened.query(
        "SELECT value FROM system.server_settings WHERE name = 'async_load_databases'",
      );
      expect(loading).toEqual([{ value: "0" }]);
    } finally {
      await reopened.command(`DROP DATABASE IF EXISTS ${database}`);
      await reopened.close();
    }
  });

  it("refuses another directory while one is held, and opens it once released", async () => {
    const database = uniqueDatabaseName("held");
    const held = await openEventsExecutor({ chdbPath: path, database });
    const refused = await failure(openEventsExecutor({ chdbPath: other, database }));
    expect(refused.kind).toBe("unavailable");
    expect(refused.message).toContain(path);
    expect(refused.message).toContain(other);
    expect(existsSync(other)).toBe(false);
    // The refusal released nothing: the holder still works.
    await held.ping();
    await held.command(`DROP DATABASE IF EXISTS ${database}`);
    await held.close();

    const moved = await openEventsExecutor({ chdbPath: other, database });
    expect(await moved.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await moved.close();
    const back = await openEventsExecutor({ chdbPath: path, database });
    await back.command(`DROP DATABASE IF EXISTS ${database}`);
    await back.close();
  });
});

describe("ClickHouse over HTTP", () => {
  it("reports a refused connection as unavailable without the credentials", async () => {
    const port = await closedPort();
    const error = await failure(
      openEventsExecutor({
        clickhouseUrl: `http://sightline:pw-needle@127.0.0.1:${port}`,
        chdbPath: testChdbPath(),
        database: "sightline",
      }),
    );
    expect(error.kind).toBe("unavailable");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).not.toContain("pw-needle");
  });

  it("reads credentials and an optional database from the URL", () => {
    expect(parseClickhouseUrl("https://ingest:p%40ss@ch.internal:8443?database=events")).toEqual({
      origin: "https://ch.internal:8443",
      username: "ingest",
      password: "p@ss",
      database: "events",
      requestTimeoutMs: undefined,
      maxOpenConnections: undefined,
      compression: { request: true, response: true },
      tls: undefined,
    });
    expect(parseClickhouseUrl("http://ch:8123").username).toBe("default");
    expect(() => parseClickhouseUrl("http://u:pw-needle@ch:8123/events")).toThrow(EventsStoreError);
    expect(() => parseClickhouseUrl("ftp://u:pw-needle@ch")).not.toThrow(/pw-needle/);
    expect(() => parseClickhouseUrl("ftp://u:pw-needle@ch")).toThrow(EventsStoreError);
  });
});

const clickhouse = eventsBackends().find((backend) => backend.name === "clickhouse");

describe.runIf(clickhouse !== undefined)("ClickHouse server version and error formats", () => {
  const options = clickhouse?.options ?? { chdbPath: testChdbPath() };

  it("refuses a server older than the floor, naming the version found and the one needed", async () => {
    const database = uniqueDatabaseName("ver");
    const store = await openEventsExecutor({ ...options, database });
    const [row] = await store.query<{ version: string }>("SELECT version() AS version");
    await store.command(`DROP DATABASE IF EXISTS ${database}`);
    await store.close();
    const found = row?.version ?? "";
    expect(found).toMatch(/^\d+\.\d+/);

    const error = await failure(
      openEventsExecutor({ ...options, database, clickhouseMinimumVersion: "99.1" }),
    );
    expect(error.kind).toBe("unavailable");
    expect(error.message).toContain(`ClickHouse server ${found} is older than 99.1`);
    expect(error.message).not.toContain("unreachable");
  });

  it("opens on this server with the documented floor", async () => {
    const database = uniqueDatabaseName("ver");
    const store = await openEventsExecutor({
      ...options,
      database,
      clickhouseMinimumVersion: MINIMUM_CLICKHOUSE_VERSION,
    });
    await store.command(`DROP DATABASE IF EXISTS ${database}`);
    await store.close();
  });
});

describe("a ClickHouse server's older answers", () => {
  // Real answers of older servers, served by a loopback stand-in: the server is the outside thing.
  it("refuses a server that reports an old version", async () => {
    const old = await answeringServer(200, '{"version":"23.3.22.3"}\n');
    try {
      const error = await failure(
        openEventsExecutor({ clickhouseUrl: old.url, chdbPath: testChdbPath(), database: "sightline" }),
      );
      expect(error.message).toContain(
        `ClickHouse server 23.3.22.3 is older than ${MINIMUM_CLICKHOUSE_VERSION}`,
      );
    } finally {
      await old.close();
    }
  });

  it("shows an error in the pre-21 format as the server's error, not as unreachable", async () => {
    const old = await answeringServer(
      500,
      "Code: 115, e.displayText() = DB::Exception: Unknown setting date_time_output_format " +
        "(version 20.3.21.2 (official build))\n",
    );
    try {
      const error = await failure(
        openEventsExecutor({ clickhouseUrl: old.url, chdbPath: testChdbPath(), database: "sightline" }),
      );
      expect(error.message).toBe("Events store version check failed: ClickHouse error 115");
      expect(error.clickhouseCode).toBe(115);
      expect(error.kind).toBe("query");
    } finally {
      await old.close();
    }
  });

  it("shows an error without the trailing error name as the server's error", async () => {
    const old = await answeringServer(
      500,
      "Code: 115. DB::Exception: Unknown setting date_time_output_format (version 21.3.20.1 (official build))\n",
    );
    try {
      const error = await failure(
        openEventsExecutor({ clickhouseUrl: old.url, chdbPath: testChdbPath(), database: "sightline" }),
      );
      expect(error.message).toBe("Events store version check failed: ClickHouse error 115");
      expect(error.message).not.toContain("unreachable");
    } finally {
      await old.close();
    }
  });
});

/** A loopback HTTP server giving every request the same answer, as a server of another
 *  ClickHouse version would. */
async function answeringServer(
  status: number,
  body: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(status, { "content-type": "text/plain; charset=UTF-8" });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://sightline:pw@127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
