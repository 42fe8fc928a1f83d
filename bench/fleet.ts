// npm run bench:fleet — Sightline instances sharing one ClickHouse server under one fixed
// aggregate load: does a fleet multiply the parts its inserts create? Starts the test suite's
// ClickHouse server (packages/server/test/support/clickhouse-server.ts, with system.part_log on)
// and a fresh PostgreSQL metadata database, then per insert mode (INGEST_SERVER_BATCHING) and
// group-commit window (INGEST_SERVER_WINDOW_MS) runs one instance, then
// BENCH_FLEET_INSTANCES, each setting on a fresh events database, under the same open-loop load
// spread round-robin over the instances (bench/open-loop.ts). Per run it prints records/s, p50/
// p95/p99 from each batch's due time, insert statements and parts created per minute per table
// (part_log's NewPart events within the measured window; merges are not creations), and checks
// stored == accepted. Knobs: BENCH_FLEET_TARGET (server; a cluster target is for later),
// BENCH_FLEET_INSTANCES (4), BENCH_FLEET_RATE (aggregate records/s, 2000), BENCH_FLEET_BATCH
// (records per batch, 50), BENCH_FLEET_SECONDS (30), BENCH_FLEET_WARMUP_SECONDS (3),
// BENCH_FLEET_MODES (async,client), BENCH_FLEET_WINDOWS (group-commit windows, ms, "50,1000"), BENCH_FLEET_DATABASE_URL (a PostgreSQL server where
// the bench may create and drop a database; default TEST_DATABASE_URL or the local one).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { setUpRemoteIngest } from "../packages/server/test/ingest/remote.js";
import { startClickhouseServer } from "../packages/server/test/support/clickhouse-server.js";
import { freePort, startServer } from "./instance.js";
import { describeLatency, type OpenLoopResult, postBody, runOpenLoop, summarise } from "./open-loop.js";
import { requestRecords } from "./records.js";

const INSTANCES = Math.max(2, Number(process.env.BENCH_FLEET_INSTANCES ?? 4));
const RATE = Number(process.env.BENCH_FLEET_RATE ?? 2000);
/** Records per posted batch. */
const BATCH = Math.max(1, Number(process.env.BENCH_FLEET_BATCH ?? 50));
/** 30 s at 40 batches/s: 1,200 answers, enough for a p99 (MIN_P99_SAMPLES). */
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_FLEET_WARMUP_SECONDS ?? 3);
const MODES = list(process.env.BENCH_FLEET_MODES ?? "async,client");
const WINDOWS = list(process.env.BENCH_FLEET_WINDOWS ?? "50,1000").map(Number);
const TARGET = process.env.BENCH_FLEET_TARGET ?? "server";
const ADMIN_DATABASE_URL =
  process.env.BENCH_FLEET_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/test";
/** Distinct bodies cycled by the load; rows differ in ids anyway. */
const BODIES = 200;
/** A fleet "does not multiply parts" when it creates at most this many times one instance's. */
const FLAT = 1.25;

function list(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** The events store the instances share. Only a single server so far; the two-node cluster
 *  (CLICKHOUSE_CLUSTER) is to become a second target here. */
interface Target {
  readonly url: string;
  /** Rows of a read-only statement as the launcher's admin user, with `param_*` values. */
  query<T>(sql: string, params?: Readonly<Record<string, string | number>>): Promise<T[]>;
  stop(): Promise<void>;
}

async function startTarget(name: string): Promise<Target> {
  if (name !== "server") throw new Error(`BENCH_FLEET_TARGET=${name}: only "server" exists so far`);
  const server = await startClickhouseServer({ partLog: true });
  const url = new URL(server.url);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
  return {
    url: server.url,
    async query<T>(sql: string, params: Readonly<Record<string, string | number>> = {}) {
      const search = new URLSearchParams({ default_format: "JSONEachRow" });
      for (const [key, value] of Object.entries(params)) search.set(`param_${key}`, String(value));
      const response = await fetch(`http://127.0.0.1:${server.httpPort}/?${search}`, {
        method: "POST",
        headers: { authorization: auth },
        body: sql,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`ClickHouse answered ${response.status}: ${text}`);
      return text
        .split("\n")
        .filter(Boolean)
        .map((row) => JSON.parse(row) as T);
    },
    stop: () => server.stop(),
  };
}

/** A fresh metadata database on the PostgreSQL server, dropped at the end. */
async function freshMetadata(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_fleet_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

interface Setting {
  readonly mode: string;
  readonly windowMs: number;
  readonly instances: number;
}

interface TableParts {
  readonly table: string;
  readonly inserts: number;
  readonly created: number;
  readonly active: number;
}

interface Measured {
  readonly setting: Setting;
  readonly result: OpenLoopResult;
  /** Records accepted during the warm-up (stored too, outside the measured window). */
  readonly warmupAccepted: number;
  readonly seconds: number;
  readonly stored: number;
  readonly tables: readonly TableParts[];
  readonly load: readonly [string, string];
}

/** What the load sends: a project key and the request bodies. */
interface Load {
  readonly key: string;
  readonly bodies: readonly Buffer[];
}

interface Fleet {
  readonly ports: readonly number[];
  readonly children: readonly ChildProcess[];
}

async function startFleet(
  dirs: readonly string[],
  setting: Setting,
  env: Readonly<Record<string, string>>,
): Promise<Fleet> {
  const ports = await Promise.all(dirs.slice(0, setting.instances).map(() => freePort()));
  const start = (index: number) => startServer(dirs[index] as string, ports[index] as number, env);
  // The first migrates the fresh events database; the others find it at its version.
  const first = await start(0);
  const rest = await Promise.all(ports.slice(1).map((_, index) => start(index + 1)));
  return { ports, children: [first, ...rest] };
}

async function stopFleet(fleet: Fleet): Promise<void> {
  await Promise.all(
    fleet.children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }),
  );
}

/** The open-loop load: RATE records/s in BATCH-record batches, batch i to instance i mod n. */
function offer(
  fleet: Fleet,
  key: string,
  bodies: readonly Buffer[],
  seconds: number,
): Promise<OpenLoopResult> {
  return runOpenLoop({
    batchesPerSecond: RATE / BATCH,
    seconds,
    async send(index, agent) {
      const port = fleet.ports[index % fleet.ports.length] as number;
      const answer = await postBody(
        agent,
        port,
        "/api/v1/ingest/requests",
        { "content-type": "application/json", "x-api-key": key },
        bodies[index % bodies.length] as Buffer,
      );
      const accepted =
        answer.status === 200
          ? (JSON.parse(answer.body.toString("utf8")) as { accepted: number }).accepted
          : 0;
      return { status: answer.status, accepted };
    },
  });
}

/** Insert statements (query_log) and parts created (part_log NewPart) per table of `database`
 *  between `fromMs` and `toMs`, and the active parts now. */
async function partsOf(
  target: Target,
  database: string,
  fromMs: number,
  toMs: number,
): Promise<TableParts[]> {
  await target.query("SYSTEM FLUSH LOGS");
  const window = { database, from: fromMs / 1000, to: toMs / 1000 };
  const created = await target.query<{ table: string; n: string }>(
    `SELECT table, count() AS n FROM system.part_log
     WHERE database = {database:String} AND event_type = 'NewPart'
       AND event_time_microseconds BETWEEN toDateTime64({from:Float64}, 6) AND toDateTime64({to:Float64}, 6)
     GROUP BY table`,
    window,
  );
  const inserts = await target.query<{ table: string; n: string }>(
    `SELECT extract(query, {pattern:String}) AS table, count() AS n FROM system.query_log
     WHERE type = 'QueryFinish' AND query_kind = 'Insert' AND has(databases, {database:String})
       AND log_comment LIKE 'sightline:ingest:%'
       AND event_time_microseconds BETWEEN toDateTime64({from:Float64}, 6) AND toDateTime64({to:Float64}, 6)
     GROUP BY table`,
    { ...window, pattern: `^INSERT INTO \\W?${database}\\W?\\.\\W?(\\w+)` },
  );
  const active = await target.query<{ table: string; n: string }>(
    `SELECT table, count() AS n FROM system.parts WHERE database = {database:String} AND active GROUP BY table`,
    { database },
  );
  const count = (rows: readonly { table: string; n: string }[], table: string) =>
    Number(rows.find((row) => row.table === table)?.n ?? 0);
  const tables = [...new Set(created.map((row) => row.table))].sort();
  return tables.map((table) => ({
    table,
    inserts: count(inserts, table),
    created: count(created, table),
    active: count(active, table),
  }));
}

async function measure(
  target: Target,
  dirs: readonly string[],
  setting: Setting,
  shared: Readonly<Record<string, string>>,
  ingest: (fleet: Fleet) => Promise<Load>,
): Promise<Measured> {
  const database = `fleet_${setting.mode}_${setting.windowMs}_${setting.instances}`;
  const fleet = await startFleet(dirs, setting, {
    ...shared,
    CLICKHOUSE_DATABASE: database,
    INGEST_SERVER_BATCHING: setting.mode,
    INGEST_SERVER_WINDOW_MS: String(setting.windowMs),
  });
  try {
    const { key, bodies } = await ingest(fleet);
    const loadBefore = load();
    const warmup = await offer(fleet, key, bodies, WARMUP_SECONDS);
    const started = Date.now();
    const result = await offer(fleet, key, bodies, SECONDS);
    const ended = Date.now();
    const loadAfter = load();
    const warm = await target.query<{ n: string }>(`SELECT count() AS n FROM ${database}.api_requests`);
    const tables = await partsOf(target, database, started, ended);
    return {
      setting,
      result,
      warmupAccepted: warmup.accepted,
      seconds: (ended - started) / 1000,
      stored: Number(warm[0]?.n ?? 0),
      tables,
      load: [loadBefore, loadAfter],
    };
  } finally {
    await stopFleet(fleet);
  }
}

function report(measured: Measured): boolean {
  const { setting, result, seconds, warmupAccepted } = measured;
  const perMinute = (n: number) => ((n * 60) / seconds).toFixed(0);
  const summary = summarise(result.latencies);
  say("");
  say(
    `-- ${setting.mode}, window ${setting.windowMs} ms, ${setting.instances} instance(s) ` +
      `(load average ${measured.load[0]} -> ${measured.load[1]})`,
  );
  say(
    `   ${Math.round(result.accepted / seconds)} records/s accepted of ${RATE} offered; ` +
      `${result.ok} of ${result.scheduled} batches 200, ${result.unavailable} 503, ${result.failed} failed, ` +
      `${result.dropped} not sent`,
  );
  say(`   latency from due time: ${describeLatency(result.latencies)}`);
  for (const table of measured.tables)
    say(
      `   ${table.table.padEnd(28)} ` +
        (table.inserts === 0
          ? "fed by api_requests' views, "
          : `inserts ${perMinute(table.inserts).padStart(5)}/min, `) +
        `parts created ${perMinute(table.created).padStart(5)}/min, active parts now ${table.active}`,
    );
  const requests = measured.tables.find(({ table }) => table === "api_requests");
  if (setting.mode === "async" && requests !== undefined && requests.created >= requests.inserts)
    say(
      "   every async insert made a part of its own: this server batched none of them " +
        "(clickhouse-local has no async insert queue)",
    );
  const stored = measured.stored === result.accepted + warmupAccepted;
  say(
    `   stored ${measured.stored} rows in api_requests, accepted ${result.accepted + warmupAccepted}: ${stored ? "equal" : "DIFFERENT"}`,
  );
  return stored && result.failed === 0 && summary !== null;
}

async function main(): Promise<number> {
  say(
    `bench:fleet: target ${TARGET}; 1 vs ${INSTANCES} instances under ${RATE} records/s (${BATCH}-record ` +
      `batches, open loop) for ${SECONDS} s (+${WARMUP_SECONDS} s warm-up); modes ${MODES.join(", ")}; ` +
      `group-commit windows ${WINDOWS.join(", ")} ms; load average ${load()}`,
  );
  const target = await startTarget(TARGET);
  const metadata = await freshMetadata();
  const root = await mkdtemp(join(tmpdir(), "sightline-bench-fleet-"));
  let ok = true;
  try {
    const dirs = await Promise.all(
      Array.from({ length: INSTANCES }, async (_, index) => {
        const dir = join(root, `instance-${index}`);
        await mkdir(dir);
        return dir;
      }),
    );
    const shared = {
      DATABASE_URL: metadata.url,
      CLICKHOUSE_URL: target.url,
      JWT_SECRET: randomBytes(32).toString("hex"),
    };
    // Signed in once, through the first instance's development outbox: the key lives in the
    // shared metadata store, so every instance of every later run takes it.
    let setup: Load | undefined;
    const ingest = async (fleet: Fleet): Promise<Load> => {
      if (setup === undefined) {
        const remote = await setUpRemoteIngest(
          `http://127.0.0.1:${fleet.ports[0]}`,
          join(dirs[0] as string, "outbox"),
        );
        setup = {
          key: remote.key,
          bodies: Array.from({ length: BODIES }, (_, i) =>
            Buffer.from(JSON.stringify({ requests: requestRecords(i + 1, remote.appSlug, BATCH) })),
          ),
        };
      }
      return setup;
    };
    const results: Measured[] = [];
    for (const mode of MODES) {
      for (const windowMs of WINDOWS) {
        for (const instances of [1, INSTANCES]) {
          const measured = await measure(target, dirs, { mode, windowMs, instances }, shared, ingest);
          results.push(measured);
          ok = report(measured) && ok;
        }
      }
    }
    compare(results);
    return ok ? 0 : 1;
  } finally {
    await rm(root, { recursive: true, force: true });
    await metadata
      .drop()
      .catch((error: unknown) => say(`could not drop the metadata database: ${String(error)}`));
    await target.stop();
  }
}

/** Per mode and window: the fleet's parts created per minute against one instance's, per table. */
function compare(results: readonly Measured[]): void {
  say("");
  say(
    `-- parts created per minute, ${INSTANCES} instances vs 1 (target: at most ${FLAT}x, "not multiplied")`,
  );
  for (const fleet of results.filter(({ setting }) => setting.instances === INSTANCES)) {
    const single = results.find(
      ({ setting }) =>
        setting.instances === 1 &&
        setting.mode === fleet.setting.mode &&
        setting.windowMs === fleet.setting.windowMs,
    );
    if (single === undefined) continue;
    for (const table of fleet.tables) {
      const alone = single.tables.find(({ table: name }) => name === table.table);
      const fleetRate = (table.created * 60) / fleet.seconds;
      const aloneRate = alone === undefined ? 0 : (alone.created * 60) / single.seconds;
      const ratio = aloneRate === 0 ? Number.POSITIVE_INFINITY : fleetRate / aloneRate;
      const verdict = ratio <= FLAT ? "PASS" : "MISS";
      say(
        `${`${fleet.setting.mode} ${fleet.setting.windowMs} ms`.padEnd(16)} ${table.table.padEnd(28)} ` +
          `${fleetRate.toFixed(0).padStart(5)} vs ${aloneRate.toFixed(0).padStart(5)}/min = ${ratio.toFixed(2)}x  ` +
          `[target <= ${FLAT}x: ${verdict}]`,
      );
    }
  }
  const p99s = results.map(({ setting, result }) => {
    const summary = summarise(result.latencies);
    return `${setting.mode} ${setting.windowMs} ms x${setting.instances}: ${summary === null ? "n/a" : summary.p99.toFixed(0)}`;
  });
  say(`-- p99 ms from due time: ${p99s.join("; ")}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:fleet failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
