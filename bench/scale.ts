// npm run bench:scale — the dashboard's queries at volume: SCALE_ROWS request records over the last
// 30 days plus a thinner 60 days before them, generated inside the engine in many INSERT … SELECT
// statements and never OPTIMIZEd (the table keeps many parts, as production's does). Each line
// calls the project's own analytics and data services in-process (no HTTP) and prints p50 and a
// nearest-rank p95 over SCALE_RUNS (≥ 30) timed calls, against the issue-21 targets.
// Knobs: SCALE_ROWS (100000000, rows in the last 30 days), SCALE_OLDER_DENSITY (0.2: rows per day
// in the 60 days before, relative to the last 30), SCALE_CHUNK_ROWS (5000000 per statement),
// SCALE_RUNS (30), SCALE_WARMUP (2), SCALE_WINDOWS (24h,7d,30d,90d; empty for the Requests line
// alone), SCALE_DATA_DIR (kept; a temporary directory otherwise), SCALE_REUSE=1 (time the data
// already in SCALE_DATA_DIR), SCALE_ROLLUPS (1: read through the rollups as the server does; 0:
// raw rows only, the baseline measured on the same data), SCALE_QUERIES (comma-separated
// substrings: only the lines whose query matches one, e.g. "summary,errors"), SCALE_EXPLAIN=1
// (each line also prints the process CPU time per timed call, chDB running in process, and the
// rows its statements read by the engine's index analysis, EXPLAIN ESTIMATE summed over the
// statements of one call: measures of work that load blurs far less than wall time),
// CLICKHOUSE_URL (and the other CLICKHOUSE_* settings: a ClickHouse server instead of chDB).
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../packages/server/src/config/index.js";
import { createDeps } from "../packages/server/src/deps.js";
import { createLogger } from "../packages/server/src/logger.js";
import { mintAppScope, mintProjectScope } from "../packages/server/src/modules/access/scope.js";
import { createAnalyticsService } from "../packages/server/src/modules/analytics/analytics.service.js";
import { createDataService } from "../packages/server/src/modules/data/data.service.js";
import { runRollupBackfill } from "../packages/server/src/stores/events/queries/rollups/backfill.js";
import { createLeasesRepo } from "../packages/server/src/stores/metadata/repos/leases.repo.js";
import { withMigrationLock } from "../packages/server/src/stores/migration-lock.js";
import { storeCoverage } from "../packages/server/src/stores/events/queries/rollups/coverage.js";
import type { AppRow } from "../packages/server/src/stores/metadata/repos/apps.repo.js";
import type { ProjectRow } from "../packages/server/src/stores/metadata/repos/projects.repo.js";
import {
  SCALE_APPS,
  scaleChunks,
  scaleParams,
  scaleRequestsSql,
  TOP_CONSUMER,
  TOP_ENDPOINT,
} from "./scale-dataset.js";
import { assertSamples, percentile } from "./stats.js";

const DAY = 86_400_000;
const ROWS = Number(process.env.SCALE_ROWS ?? 100_000_000);
const OLDER_DENSITY = Number(process.env.SCALE_OLDER_DENSITY ?? 0.2);
const CHUNK_ROWS = Number(process.env.SCALE_CHUNK_ROWS ?? 5_000_000);
const RUNS = Number(process.env.SCALE_RUNS ?? 30);
const WARMUP = Number(process.env.SCALE_WARMUP ?? 2);
const DATA_DIR = process.env.SCALE_DATA_DIR;
const REUSE = process.env.SCALE_REUSE === "1";
const MARKER = "bench-scale.json";
const ROLLUPS = process.env.SCALE_ROLLUPS !== "0";
const QUERIES = splitList(process.env.SCALE_QUERIES ?? "");
const EXPLAIN = process.env.SCALE_EXPLAIN === "1";

/** Windows and their p50 targets (issue 21 §5); p95 must stay under twice the p50. */
const WINDOWS = [
  { label: "24h", ms: DAY, targetMs: 100 },
  { label: "7d", ms: 7 * DAY, targetMs: 150 },
  { label: "30d", ms: 30 * DAY, targetMs: 200 },
  { label: "90d", ms: 90 * DAY, targetMs: 200 },
] as const;
const REQUESTS_TARGET_MS = 50;

/** What generation left in the data directory, so SCALE_REUSE=1 knows the data's end and size. */
interface Marker {
  readonly rows: number;
  readonly olderDensity: number;
  readonly totalRows: number;
  readonly endMs: number;
  readonly statements: number;
  readonly seconds: number;
}

function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((label) => label.trim())
    .filter((label) => label !== "");
}

function splitWindows(text: string): string[] {
  return text
    .split(",")
    .map((label) => label.trim())
    .filter((label) => label !== "");
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");

for (const [name, value] of Object.entries({ SCALE_ROWS: ROWS, SCALE_CHUNK_ROWS: CHUNK_ROWS })) {
  assertSamples(value, 1, name);
}
assertSamples(RUNS, 30, "SCALE_RUNS");
assertSamples(WARMUP, 0, "SCALE_WARMUP");
if (!(OLDER_DENSITY >= 0)) throw new RangeError("SCALE_OLDER_DENSITY must be a number >= 0");
if (REUSE && DATA_DIR === undefined) throw new Error("SCALE_REUSE=1 needs SCALE_DATA_DIR");
// An empty list leaves only the Requests page line.
const windows = splitWindows(process.env.SCALE_WINDOWS ?? "24h,7d,30d,90d").map((label) => {
  const found = WINDOWS.find((window) => window.label === label);
  if (found === undefined) throw new Error(`SCALE_WINDOWS: unknown window "${label}"`);
  return found;
});

const dataDir = DATA_DIR ?? (await mkdtemp(join(tmpdir(), "sightline-bench-scale-")));
await mkdir(dataDir, { recursive: true });
const clickhouse = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name.startsWith("CLICKHOUSE_")),
);
const config = loadConfig({ ...clickhouse, DATA_DIR: dataDir, LOG_LEVEL: "warn" });
const deps = await createDeps(config, { logger: createLogger(config.logLevel) });
const { events } = deps;
const db = events.database;
const markerPath = join(dataDir, MARKER);

async function tableSize(): Promise<{ rows: number; bytes: number; parts: number }> {
  const [row] = await events.query<{ rows: string | number; bytes: string | number; parts: string | number }>(
    "SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes, count() AS parts FROM system.parts " +
      "WHERE database = {db:String} AND table = 'api_requests' AND active",
    { db },
  );
  return { rows: Number(row?.rows ?? 0), bytes: Number(row?.bytes ?? 0), parts: Number(row?.parts ?? 0) };
}

async function generate(): Promise<Marker> {
  const endMs = Date.now();
  const chunks = scaleChunks(ROWS, OLDER_DENSITY, endMs, CHUNK_ROWS);
  const totalRows = chunks.reduce((sum, chunk) => sum + chunk.count, 0);
  say(`generating ${totalRows} rows in ${chunks.length} INSERT … SELECT statements (load ${load()})`);
  const params = scaleParams(SCALE_APPS);
  const started = performance.now();
  for (const [index, chunk] of chunks.entries()) {
    await events.command(scaleRequestsSql(db, chunk), params);
    if ((index + 1) % 10 === 0 || index + 1 === chunks.length) {
      const seconds = (performance.now() - started) / 1000;
      say(
        `  ${index + 1}/${chunks.length} statements, ${chunk.first + chunk.count} rows, ${seconds.toFixed(0)} s`,
      );
    }
  }
  const marker: Marker = {
    rows: ROWS,
    olderDensity: OLDER_DENSITY,
    totalRows,
    endMs,
    statements: chunks.length,
    seconds: (performance.now() - started) / 1000,
  };
  await writeFile(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
  return marker;
}

async function prepare(): Promise<Marker> {
  if (REUSE && existsSync(markerPath)) {
    const marker = JSON.parse(await readFile(markerPath, "utf8")) as Marker;
    say(`reusing ${dataDir}: ${marker.totalRows} rows generated in ${marker.seconds.toFixed(0)} s`);
    return marker;
  }
  const { rows } = await tableSize();
  if (rows > 0)
    throw new Error(`${dataDir} already holds ${rows} request rows: set SCALE_REUSE=1 or pick another dir`);
  return generate();
}

// ---- the scopes the routes' access check would hand the services ----

const stamp = new Date(0).toISOString();
const bigProject: ProjectRow = {
  id: SCALE_APPS[0]?.projectId ?? "",
  owner_id: "bench-scale-user",
  name: "Big",
  slug: "big",
  description: "",
  created_at: stamp,
  updated_at: stamp,
  deleted_at: null,
  requests_retention_days: null,
  logs_retention_days: null,
  spans_retention_days: null,
  rollups_retention_days: null,
};
const bigApp: AppRow = {
  id: SCALE_APPS[0]?.appId ?? "",
  project_id: bigProject.id,
  name: "Big API",
  slug: "big-api",
  description: "",
  framework: "",
  icon: "",
  created_at: stamp,
  updated_at: stamp,
  deleted_at: null,
};
const projectScope = mintProjectScope("bench-scale-user", "owner", bigProject, null);
const appScope = mintAppScope(projectScope, bigApp);
const coverage = ROLLUPS ? storeCoverage(events) : undefined;
/** The statements of one call, while `explain` records them. */
let recorded: Array<{ sql: string; params: Record<string, unknown> | undefined }> | undefined;
const recording = new Proxy(events, {
  get(target, property, receiver) {
    if (property === "query")
      return (sql: string, params: Record<string, unknown> | undefined, lane?: "read" | "write") => {
        recorded?.push({ sql, params });
        return target.query(sql, params, lane);
      };
    const value: unknown = Reflect.get(target, property, receiver);
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  },
});
/** Rows the statements of one call of `line` read, by EXPLAIN ESTIMATE (summed over tables). */
async function explain(line: Line): Promise<number> {
  recorded = [];
  await line.call();
  const statements = recorded;
  recorded = undefined;
  let rows = 0;
  for (const { sql, params } of statements) {
    const estimate = await events.query<{ rows: string | number }>(`EXPLAIN ESTIMATE ${sql}`, params);
    rows += estimate.reduce((sum, row) => sum + Number(row.rows), 0);
  }
  return rows;
}
const analytics = createAnalyticsService({
  events: recording,
  apps: deps.resources.apps,
  users: deps.users,
  clock: deps.clock,
  rollups: coverage,
});
const data = createDataService({
  events,
  apps: deps.resources.apps,
  clock: deps.clock,
  requestsRetentionDays: config.retention.requestsDays,
  keptDays: (project, kind) => deps.resources.retention.keptDays(project, kind),
  rateLimiter: deps.rateLimiter,
  rollups: coverage,
});

interface Line {
  readonly name: string;
  readonly targetMs: number;
  readonly call: () => Promise<unknown>;
}

function linesFor(endMs: number): Line[] {
  const lines: Line[] = [];
  for (const window of windows) {
    const range = {
      since: new Date(endMs - window.ms).toISOString(),
      until: new Date(endMs).toISOString(),
    };
    const line = (query: string, call: () => Promise<unknown>) =>
      (QUERIES.length === 0 || QUERIES.some((part) => query.includes(part))) &&
      lines.push({ name: `${window.label.padEnd(4)} ${query}`, targetMs: window.targetMs, call });
    line("overview summary", () => analytics.projectSummary(projectScope, range));
    line("overview timeseries", () =>
      analytics.projectTimeseries(projectScope, { ...range, timezone: "UTC" }),
    );
    line("endpoints page 1", () => analytics.projectEndpoints(projectScope, range));
    line("consumers q + sort p95", () =>
      analytics.projectConsumers(projectScope, {
        ...range,
        q: "consumer-1",
        sort_by: "p95_response_time_ms",
      }),
    );
    line("errors page 1", () => analytics.projectErrors(projectScope, range));
    const endpoint = { ...range, method: TOP_ENDPOINT.method, path: TOP_ENDPOINT.route };
    line("endpoint detail (top endpoint)", () => analytics.endpointDetail(appScope, endpoint));
    // The rest of the endpoint page, each call alone (the page runs them side by side).
    line("endpoint series", () => analytics.endpointTimeseries(appScope, { ...endpoint, timezone: "UTC" }));
    line("endpoint status codes", () => analytics.endpointStatusCodes(appScope, endpoint));
    line("endpoint consumers", () => analytics.endpointConsumers(appScope, endpoint));
    line("endpoint validation errors", () => analytics.endpointValidationErrors(appScope, endpoint));
    line("endpoint payloads", () => analytics.endpointPayloads(appScope, { ...endpoint, limit: 5 }));
    // The requests page: its first page with the total, and the latency histogram beside it.
    line("requests page 1 + total", () => data.searchRequests(projectScope, range));
    line("requests latency histogram", () => data.requestsHistogram(projectScope, range));
    // The one-consumer page's three calls, each alone (the page runs them side by side).
    const consumer = { ...range, consumer: TOP_CONSUMER };
    line("consumer summary", () => analytics.projectSummary(projectScope, consumer));
    line("consumer series", () =>
      analytics.projectTimeseries(projectScope, { ...consumer, timezone: "UTC" }),
    );
    line("consumer endpoints", () =>
      analytics.projectEndpoints(projectScope, { ...consumer, sort_by: "total_requests", page_size: 25 }),
    );
    // What the page loads beside them: the consumer's errors and newest requests.
    line("consumer errors", () => analytics.projectErrors(projectScope, { ...consumer, page_size: 10 }));
    line("consumer requests page 1", () => data.searchRequests(projectScope, { ...consumer, page_size: 20 }));
  }
  lines.push({
    name: "requests page 1 + total (no window)",
    targetMs: REQUESTS_TARGET_MS,
    call: () => data.searchRequests(projectScope, {}),
  });
  return lines;
}

const fmt = (ms: number) => ms.toFixed(1).padStart(9);

async function measure(line: Line): Promise<{ p50: number; p95: number; cpuMs: number }> {
  for (let run = 0; run < WARMUP; run += 1) await line.call();
  const ms: number[] = [];
  const cpu = process.cpuUsage();
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await line.call();
    ms.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  return {
    p50: percentile(ms, 0.5),
    p95: percentile(ms, 0.95),
    cpuMs: (used.user + used.system) / 1000 / RUNS,
  };
}

let failed = false;
try {
  const marker = await prepare();
  if (ROLLUPS) {
    // Data generated before the rollups existed is rolled up first (the server does this in
    // the background, reading raw rows meanwhile). The job createDeps started runs too: both
    // take each day under the migrator lease, so no day is rolled up twice.
    const started = performance.now();
    await runRollupBackfill(events, {
      coverage,
      stepMs: DAY,
      exclusive: (work) =>
        withMigrationLock({ leases: createLeasesRepo(deps.metadata.db), clock: deps.clock }, work),
      onDay: (day) => say(`  backfill ${day.day}: ${day.rows} rows (${day.daysDone}/${day.daysTotal})`),
    });
    say(`rollups complete (${((performance.now() - started) / 1000).toFixed(0)} s of backfill)`);
  }
  const size = await tableSize();
  const [big] = await events.query<{ rows: string | number }>(
    `SELECT count() AS rows FROM ${db}.api_requests WHERE project_id = {p:String}`,
    { p: bigProject.id },
  );
  say(
    `bench:scale  ${marker.rows} rows in the last 30 days + ${marker.totalRows - marker.rows} in the 60 before ` +
      `(${size.rows} stored, ${Number(big?.rows ?? 0)} in the big project); ${size.parts} active parts, ` +
      `${(size.bytes / 2 ** 30).toFixed(2)} GiB on disk; engine ${config.clickhouseUrl === undefined ? "chDB" : "ClickHouse server"}; ` +
      (ROLLUPS ? "reads through the rollups" : "raw reads only (SCALE_ROLLUPS=0)"),
  );
  if (ROLLUPS) {
    const rollupRows = await events.query<{ table: string; rows: number; parts: number }>(
      "SELECT table, sum(rows) AS rows, count() AS parts FROM system.parts WHERE database = {db:String} " +
        "AND active AND (table LIKE 'api_%_hourly' OR table LIKE 'api_%_daily') GROUP BY table ORDER BY table",
      { db },
    );
    say(
      `rollups: ${rollupRows.map((row) => `${row.table} ${row.rows} rows / ${row.parts} parts`).join("; ")}`,
    );
  }
  say(`generation: ${marker.statements} statements, ${marker.seconds.toFixed(0)} s; data dir ${dataDir}`);
  say(
    `${cpus().length} cores, load ${load()}; ${WARMUP} warm-up + ${RUNS} timed calls per line (nearest-rank p95)`,
  );
  say();
  say(`${"window / query".padEnd(42)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}  target`);
  let misses = 0;
  const lines = linesFor(marker.endMs);
  for (const line of lines) {
    const { p50, p95, cpuMs } = await measure(line);
    const read = EXPLAIN ? `${fmt(cpuMs)} cpu ms/call ${String(await explain(line)).padStart(10)} rows` : "";
    const problems = [
      ...(p50 < line.targetMs ? [] : [`p50 ≥ ${line.targetMs}`]),
      ...(p95 < 2 * p50 ? [] : ["p95 ≥ 2× p50"]),
    ];
    if (problems.length > 0) misses += 1;
    say(
      `${line.name.padEnd(42)}${fmt(p50)}${fmt(p95)}  p50 < ${String(line.targetMs).padStart(3)}, p95 < 2× p50  ` +
        `${problems.length === 0 ? "PASS" : `MISS (${problems.join(", ")})`}${read}`,
    );
  }
  const after = await tableSize();
  say();
  say(
    `${lines.length - misses} of ${lines.length} lines PASS; ${after.parts} active parts at the end; load ${load()}`,
  );
} catch (error) {
  failed = true;
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
} finally {
  await deps.close();
  if (DATA_DIR === undefined) {
    // Background merges can still be writing just after close (baselines §2.4 item 4).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  }
}
process.exit(failed ? 1 : 0);
