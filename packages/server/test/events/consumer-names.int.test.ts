// Events migration 13 on every backend: the consumer rollup's view recreated to take newest
// names as (newest time, value at it) instead of comparing (time, value) tuples. Rows stored by
// the view before and after the upgrade, in the same consumer-days, merge to the newest
// non-empty name and group the raw rows hold, and a rerun of the migration loses nothing.
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CONSUMER_NAMES_VERSION,
  CONSUMERS_DAILY,
  type EventsExecutor,
  migrateEvents,
  openEventsExecutor,
} from "../../src/stores/events/index.js";
import { eventsMigrations } from "../../src/stores/events/migrations/index.js";
import { eventsBackends, removeTestChdbPath, uniqueDatabaseName } from "../support/events.js";

afterAll(removeTestChdbPath);

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD hh:mm:ss.sss` UTC, as the events store reads a DateTime64(3). */
const stamp = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 23);

interface Sent {
  readonly consumer: string;
  readonly name: string;
  readonly group: string;
  readonly atMs: number;
}

describe.each(eventsBackends())("consumer names (events migration 13) on $name", ({ options }) => {
  let events: EventsExecutor;
  let database: string;

  beforeEach(async () => {
    database = uniqueDatabaseName("cn");
    events = await openEventsExecutor({ ...options, database });
  });
  afterEach(async () => {
    await events.command(`DROP DATABASE IF EXISTS ${database}`);
    await events.close();
  });

  /** One request per entry, in one insert (so the view sees them in one block). */
  async function send(...rows: Sent[]): Promise<void> {
    await events.command(
      `INSERT INTO ${database}.api_requests (id, project_id, app_id, timestamp, environment, method, path, ` +
        "route, status_code, consumer_id, consumer_name, consumer_group, stored_on) SELECT generateUUIDv7(), " +
        "'p', 'app', at, 'prod', 'GET', '/x', '/x', 200, {consumers:Array(String)}[i], {names:Array(String)}[i], " +
        "{groups:Array(String)}[i], toDate(at) FROM (SELECT i, toDateTime64({ats:Array(String)}[i], 3, 'UTC') AS at " +
        "FROM (SELECT arrayJoin(arrayEnumerate({consumers:Array(String)})) AS i))",
      {
        consumers: rows.map((row) => row.consumer),
        names: rows.map((row) => row.name),
        groups: rows.map((row) => row.group),
        ats: rows.map((row) => stamp(row.atMs)),
      },
    );
  }

  /** Per consumer: the newest non-empty name and group, from the rollup and from raw rows. */
  async function newest(): Promise<{ rolled: string[]; raw: string[] }> {
    const rolled = await events.query<{ v: string }>(
      "SELECT concat(consumer_id, ':', argMax(tupleElement(latest_name, 2), tupleElement(latest_name, 1)), ':', " +
        "argMax(tupleElement(latest_group, 2), tupleElement(latest_group, 1))) AS v " +
        `FROM ${database}.${CONSUMERS_DAILY.table.name} GROUP BY consumer_id ORDER BY v`,
    );
    const raw = await events.query<{ v: string }>(
      "SELECT concat(consumer_id, ':', argMaxIf(consumer_name, timestamp, consumer_name != ''), ':', " +
        "argMaxIf(consumer_group, timestamp, consumer_group != '')) AS v " +
        `FROM ${database}.api_requests GROUP BY consumer_id ORDER BY v`,
    );
    return { rolled: rolled.map((row) => row.v), raw: raw.map((row) => row.v) };
  }

  it("merges names stored before and after the upgrade as the raw rows have them", async () => {
    await migrateEvents(
      events,
      eventsMigrations.filter((migration) => migration.version < CONSUMER_NAMES_VERSION),
    );
    const day = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS;
    // Before the upgrade: acme renamed within the day, globex named once.
    await send(
      { consumer: "acme", name: "Acme", group: "free", atMs: day + 1_000 },
      { consumer: "acme", name: "Acme Inc", group: "", atMs: day + 2_000 },
      { consumer: "globex", name: "Globex", group: "pro", atMs: day + 3_000 },
    );
    await migrateEvents(events);
    const view = await events.query<{ sql: string }>(
      "SELECT create_table_query AS sql FROM system.tables WHERE database = {db:String} AND name = {view:String}",
      { db: database, view: CONSUMERS_DAILY.view },
    );
    expect(view[0]?.sql).toContain("argMaxIf(consumer_name, timestamp");
    expect(view[0]?.sql).not.toContain("maxIf(tuple(");
    // After: acme renamed again the same day, then an unnamed request (no name wins over it);
    // globex's only new request is older than its name; initech is new.
    await send(
      { consumer: "acme", name: "Acme Corp", group: "paid", atMs: day + 5_000 },
      { consumer: "acme", name: "", group: "", atMs: day + 6_000 },
      { consumer: "globex", name: "Globex Old", group: "trial", atMs: day + 500 },
      { consumer: "initech", name: "", group: "", atMs: day + 7_000 },
    );
    const after = await newest();
    expect(after.rolled).toEqual(["acme:Acme Corp:paid", "globex:Globex:pro", "initech::"]);
    expect(after.rolled).toEqual(after.raw);

    // Run again (a crash before its record, say): the view is recreated once, nothing doubled.
    const migration = eventsMigrations.find((entry) => entry.version === CONSUMER_NAMES_VERSION);
    for (const statement of migration?.statements({ database, topology: events.topology }) ?? [])
      await events.command(statement);
    await send({ consumer: "acme", name: "Acme Ltd", group: "", atMs: day + 8_000 });
    const again = await newest();
    expect(again.rolled).toEqual(["acme:Acme Ltd:paid", "globex:Globex:pro", "initech::"]);
    expect(again.rolled).toEqual(again.raw);
    const [requests] = await events.query<{ n: number }>(
      `SELECT sum(requests) AS n FROM ${database}.${CONSUMERS_DAILY.table.name}`,
    );
    expect(Number(requests?.n)).toBe(8);
  }, 120_000);
});
