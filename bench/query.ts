// npm run bench:query — measured latency of the data and analytics routes on 10 M request records.
// A child process runs Sightline on a temporary data directory (127.0.0.1 only) and generates the
// records inside the engine (INSERT … SELECT FROM numbers()): 30 days, 5 apps in 4 projects, one
// project with 70% of the rows, ~200 routes, plus 1 M log records. This process then times each
// route over HTTP (keep-alive) and asks the child to replay, in-process and without HTTP, exactly
// the events-store statements that route ran; it prints both, their ratio and the targets.
// Knobs: BENCH_ROWS (10000000), BENCH_LOG_ROWS (1000000), BENCH_CALLS (20 per route, at least 20 so the
// nearest-rank p95 is not simply the slowest call),
// BENCH_TIMEOUT_SECONDS (1500, after which everything is stopped), BENCH_USERS (8 dashboard
// users loading the overview at once, the read-concurrency phase at the end).
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../packages/server/src/app.js";
import { loadConfig } from "../packages/server/src/config/index.js";
import { createDeps } from "../packages/server/src/deps.js";
import { createLogger } from "../packages/server/src/logger.js";
import { createAnalyticsService } from "../packages/server/src/modules/analytics/analytics.service.js";
import { createDataService } from "../packages/server/src/modules/data/data.service.js";
import { uuidV7At } from "../packages/server/src/modules/ingest/row-ids.js";
import type {
  EventsExecutor,
  InsertBatch,
  Lane,
  QueryParams,
} from "../packages/server/src/stores/events/index.js";
import { delegatingExecutor } from "../packages/server/test/support/events.js";
import { magicLinkTokenOf, outboxMessagesFor } from "../packages/server/test/support/mail.js";
import { logsSql, requestsSql } from "./dataset.js";
import { BenchChild } from "./child.js";
import { assertSamples, MIN_P95_SAMPLES, percentile } from "./stats.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? MIN_P95_SAMPLES);
assertSamples(CALLS, MIN_P95_SAMPLES, "BENCH_CALLS");
const WARMUP_CALLS = 2;
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 1500);
const DAY = 86_400_000;
const CONCURRENT_USERS = Number(process.env.BENCH_USERS ?? 8);

// ---- messages between the two processes ----

interface Layout {
  /** One entry per app: its project, and its share of the rows in percent (shares sum to 100). */
  readonly apps: ReadonlyArray<{
    readonly projectId: string;
    readonly appId: string;
    readonly share: number;
  }>;
  readonly endMs: number;
}
interface Statement {
  readonly sql: string;
  readonly params: QueryParams | undefined;
  readonly lane: Lane | undefined;
}
type ToChild =
  | { type: "load"; layout: Layout }
  | { type: "capture" }
  | { type: "replay"; calls: number }
  | { type: "round"; path: string; token: string }
  | { type: "churn"; on: boolean; projectId?: string; appId?: string }
  | { type: "stop" };
type FromChild =
  | { type: "ready"; port: number; outbox: string }
  | {
      type: "loaded";
      seconds: { requests: number; logs: number; optimize: number };
      rows: number;
      bytes: number;
    }
  | { type: "captured"; statements: number }
  | { type: "replayed"; ms: number[] }
  | { type: "rounded"; httpMs: number; sqlMs: number }
  | { type: "churned"; inserts: number; rows: number }
  | { type: "error"; message: string };

function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

// ---- the child: Sightline plus a recorder of the statements each route runs ----

/** Passes every call through; while capturing, keeps the queries (the SQL a route ran). */
function recording(inner: EventsExecutor): { executor: EventsExecutor; start(): void; take(): Statement[] } {
  let captured: Statement[] | null = null;
  const executor = delegatingExecutor(inner, {
    query<Row>(sql: string, params?: QueryParams, lane?: Lane) {
      captured?.push({ sql, params, lane });
      return inner.query<Row>(sql, params, lane);
    },
  });
  return {
    executor,
    start() {
      captured = [];
    },
    take() {
      const statements = captured ?? [];
      captured = null;
      return statements;
    },
  };
}

const CHURN_COLUMNS = [
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
];

/** 10k rows of the last minute for one app, serialised once as the writer serialises a flush. */
function churnBatch(projectId: string, appId: string): InsertBatch {
  const now = Date.now();
  const lines = Array.from({ length: 10_000 }, (_, n) => {
    const at = now - (n % 60_000);
    const stamp = new Date(at).toISOString();
    return JSON.stringify([
      uuidV7At(at),
      projectId,
      appId,
      `${stamp.slice(0, 10)} ${stamp.slice(11, 23)}`,
      "production",
      "GET",
      `/churn/${n}`,
      "/churn/{id}",
      200,
      12.5,
    ]);
  });
  return {
    table: "api_requests",
    columns: CHURN_COLUMNS,
    body: Buffer.from(`${lines.join("\n")}\n`),
    rowCount: 10_000,
  };
}

async function serve(dataDir: string): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  const deps = await createDeps(config, { logger: createLogger(config.logLevel) });
  const recorder = recording(deps.events);
  // The routes measured here must run their SQL through the recorder.
  const events = recorder.executor;
  const { apps } = deps.resources;
  const app = await buildApp({
    ...deps,
    events,
    data: createDataService({
      events,
      apps,
      clock: deps.clock,
      requestsRetentionDays: config.retention.requestsDays,
      keptDays: (project, kind) => deps.resources.retention.keptDays(project, kind),
      rateLimiter: deps.rateLimiter,
    }),
    analytics: createAnalyticsService({ events, apps, users: deps.users, clock: deps.clock }),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const db = deps.events.database;
  let replaySet: Statement[] = [];
  let local: Http | undefined;
  let localToken = "";
  let churning: Promise<{ inserts: number; rows: number }> | null = null;
  let churn = false;

  const handle = async (message: ToChild): Promise<void> => {
    switch (message.type) {
      case "load": {
        const { layout } = message;
        let edge = 0;
        const params = {
          end: layout.endMs,
          edges: layout.apps.map((entry) => (edge += entry.share)),
          projects: layout.apps.map((entry) => entry.projectId),
          appIds: layout.apps.map((entry) => entry.appId),
        };
        const timed = async (work: () => Promise<void>) => {
          const started = performance.now();
          await work();
          return (performance.now() - started) / 1000;
        };
        const requests = await timed(() => deps.events.command(requestsSql(db, ROWS), params));
        const logs = await timed(() => deps.events.command(logsSql(db, LOG_ROWS), params));
        // One part per table, so background merges do not run under the measurements.
        const optimize = await timed(async () => {
          await deps.events.command(`OPTIMIZE TABLE ${db}.api_requests FINAL`);
          await deps.events.command(`OPTIMIZE TABLE ${db}.api_logs FINAL`);
        });
        const [size] = await deps.events.query<{ rows: number; bytes: number }>(
          `SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts ` +
            `WHERE database = {db:String} AND table = 'api_requests' AND active`,
          { db },
        );
        send({
          type: "loaded",
          seconds: { requests, logs, optimize },
          rows: size?.rows ?? 0,
          bytes: size?.bytes ?? 0,
        });
        return;
      }
      case "capture":
        recorder.start();
        send({ type: "captured", statements: 0 });
        return;
      case "replay": {
        if (message.calls === 0) {
          replaySet = recorder.take();
          send({ type: "captured", statements: replaySet.length });
          return;
        }
        const ms: number[] = [];
        for (let call = 0; call < message.calls; call += 1) {
          const started = performance.now();
          for (const statement of replaySet)
            await deps.events.query(statement.sql, statement.params, statement.lane);
          ms.push(performance.now() - started);
        }
        send({ type: "replayed", ms });
        return;
      }
      case "round": {
        // The same route called over loopback from inside the server process, then its SQL alone.
        local ??= httpClient(port, () => localToken);
        localToken = message.token;
        let started = performance.now();
        const response = await local.get(message.path);
        const httpMs = performance.now() - started;
        if (response.status !== 200) throw new Error(`${message.path} answered ${response.status}`);
        started = performance.now();
        for (const statement of replaySet)
          await deps.events.query(statement.sql, statement.params, statement.lane);
        send({ type: "rounded", httpMs, sqlMs: performance.now() - started });
        return;
      }
      case "churn": {
        if (message.on) {
          churn = true;
          const batch = churnBatch(message.projectId ?? "", message.appId ?? "");
          // Flush-sized inserts on the write session, exactly as the ingest writer makes them.
          churning = (async () => {
            let inserts = 0;
            while (churn && inserts < 2000) {
              await deps.events.insert(batch);
              inserts += 1;
            }
            return { inserts, rows: inserts * batch.rowCount };
          })();
          send({ type: "churned", inserts: 0, rows: 0 });
        } else {
          churn = false;
          const done = (await churning) ?? { inserts: 0, rows: 0 };
          send({ type: "churned", ...done });
        }
        return;
      }
      case "stop":
        await app.close();
        await deps.close();
        process.exit(0);
    }
  };
  process.on("message", (message: ToChild) => {
    handle(message).catch((error: unknown) =>
      send({
        type: "error",
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    );
  });
  send({ type: "ready", port, outbox: config.paths.outbox });
}

// ---- the parent: resources over HTTP, then the timings ----

/** The server child of this bench. */
class Child extends BenchChild<ToChild, FromChild> {
  constructor(dataDir: string) {
    super(fileURLToPath(import.meta.url), dataDir);
  }
}

interface Http {
  get(path: string): Promise<{ status: number; body: string }>;
  post(path: string, body: unknown): Promise<{ status: number; body: string }>;
}

function httpClient(port: number, token: () => string, sockets = 1): Http {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          agent,
          host: "127.0.0.1",
          port,
          method,
          path,
          headers: {
            ...(token() === "" ? {} : { authorization: `Bearer ${token()}` }),
            ...(payload === undefined
              ? {}
              : { "content-type": "application/json", "content-length": payload.length }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  return { get: (path) => send("GET", path), post: (path, body) => send("POST", path, body) };
}

interface Case {
  readonly name: string;
  readonly path: string;
  /** Target for the HTTP p50, in ms, when the issue sets one. */
  readonly targetMs?: number;
}

interface Result {
  readonly name: string;
  /** From this process: a separate client. */
  readonly http: { p50: number; p95: number };
  /** From inside the server process. */
  readonly local: { p50: number; p95: number };
  readonly sql: { p50: number; p95: number };
  readonly statements: number;
  readonly targetMs: number | undefined;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
const fmt = (ms: number) => ms.toFixed(1).padStart(7);

/**
 * Warm-up, then the statements one call runs, then rounds of: one call from this process (a
 * separate client, as a browser is), one call from inside the server process (no second
 * process competing for the 2 cores), and the statements alone. Interleaving keeps the three
 * series under the same background load.
 */
async function measure(child: Child, http: Http, token: string, item: Case): Promise<Result> {
  for (let call = 0; call < WARMUP_CALLS; call += 1) {
    const warm = await http.get(item.path);
    if (warm.status !== 200)
      throw new Error(`${item.path} answered ${warm.status}: ${warm.body.slice(0, 300)}`);
  }
  await child.ask({ type: "capture" }, "captured");
  await http.get(item.path);
  const { statements } = await child.ask({ type: "replay", calls: 0 }, "captured");
  const httpMs: number[] = [];
  const localMs: number[] = [];
  const sqlMs: number[] = [];
  for (let call = 0; call < CALLS; call += 1) {
    const started = performance.now();
    const response = await http.get(item.path);
    httpMs.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${item.path} answered ${response.status}`);
    const round = await child.ask({ type: "round", path: item.path, token }, "rounded", 300_000);
    localMs.push(round.httpMs);
    sqlMs.push(round.sqlMs);
  }
  const spread = (values: number[]) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95) });
  return {
    name: item.name,
    http: spread(httpMs),
    local: spread(localMs),
    sql: spread(sqlMs),
    statements,
    targetMs: item.targetMs,
  };
}

function report(result: Result): void {
  const ratio = (ms: number) => (result.sql.p50 > 0 ? ms / result.sql.p50 : 0);
  const target =
    result.targetMs === undefined
      ? ""
      : `  <${result.targetMs}ms ${result.http.p50 < result.targetMs ? "ok" : "MISSED"}`;
  say(
    `${result.name.padEnd(46)}${fmt(result.http.p50)}${fmt(result.http.p95)}${fmt(result.local.p50)}` +
      `${fmt(result.sql.p50)}${fmt(result.sql.p95)}  ${ratio(result.http.p50).toFixed(2).padStart(5)}x` +
      `${ratio(result.local.p50).toFixed(2).padStart(6)}x${target}`,
  );
}

/**
 * Dashboard users loading the overview: each user fires the page's calls at once over its own
 * keep-alive connections (as a browser does) and waits for all of them; one user alone, then
 * CONCURRENT_USERS at once. The server's CPU use over each phase tells whether the calls wait on
 * the cores (≈ 2 cores busy) or on each other (cores idle while calls queue).
 */
async function readConcurrency(child: Child, port: number, token: string, paths: string[]): Promise<void> {
  const loads = async (users: number): Promise<{ ms: number[]; cores: number }> => {
    const clients = Array.from({ length: users }, () => httpClient(port, () => token, paths.length));
    const page = async (http: Http): Promise<number> => {
      const started = performance.now();
      const answers = await Promise.all(paths.map((path) => http.get(path)));
      const failed = answers.find((answer) => answer.status !== 200);
      if (failed !== undefined) throw new Error(`overview call answered ${failed.status}: ${failed.body}`);
      return performance.now() - started;
    };
    await Promise.all(clients.map(page));
    const cpuBefore = child.cpuSeconds();
    const wallBefore = performance.now();
    const ms = (
      await Promise.all(
        clients.map(async (http) => {
          const own: number[] = [];
          for (let round = 0; round < CALLS; round += 1) own.push(await page(http));
          return own;
        }),
      )
    ).flat();
    const cores = (child.cpuSeconds() - cpuBefore) / ((performance.now() - wallBefore) / 1000);
    return { ms, cores };
  };
  say(`read concurrency: the overview's ${paths.length} calls (24 h) per page load, ${CALLS} loads per user`);
  const alone = await loads(1);
  const crowd = await loads(CONCURRENT_USERS);
  const line = (label: string, run: { ms: number[]; cores: number }) =>
    say(
      `${label.padEnd(46)}${fmt(percentile(run.ms, 0.5))}${fmt(percentile(run.ms, 0.95))}` +
        `   server CPU ${run.cores.toFixed(2)} cores`,
    );
  line("1 user, page load p50 / p95", alone);
  line(`${CONCURRENT_USERS} users at once, page load p50 / p95`, crowd);
  say(
    `${CONCURRENT_USERS} users' p50 is ${(percentile(crowd.ms, 0.5) / percentile(alone.ms, 0.5)).toFixed(1)}x ` +
      `one user's; pages per second ${(1000 / percentile(alone.ms, 0.5)).toFixed(1)} alone, ` +
      `${((CONCURRENT_USERS * 1000) / percentile(crowd.ms, 0.5)).toFixed(1)} together`,
  );
}

/** The routes and parameters the dashboard added, at 24 h (< 100 ms) and 7 d (< 200 ms). */
function dashboardCases(day: string, week: string): Case[] {
  const consumer = "consumer=consumer-42";
  const failing = `status_classes=4xx,5xx&route=${encodeURIComponent("/api/v1/res1/{id}")}`;
  const trace = "trace_id=4bf92f3577b34da6a3ce929d0e0e4736";
  const windows: Array<[string, string, number]> = [
    ["24h", day, 100],
    ["7d", week, 200],
  ];
  return windows.flatMap(([label, range, targetMs]): Case[] => [
    {
      name: `data/requests consumer ${label}`,
      path: `/api/v1/projects/big/data/requests?${range}&${consumer}`,
      targetMs,
    },
    {
      name: `data/requests 4xx,5xx + route ${label}`,
      path: `/api/v1/projects/big/data/requests?${range}&${failing}`,
      targetMs,
    },
    {
      name: `data/requests trace_id ${label}`,
      path: `/api/v1/projects/big/data/requests?${range}&${trace}`,
      targetMs,
    },
    {
      name: `project summary consumer ${label}`,
      path: `/api/v1/projects/big/analytics/summary?${range}&${consumer}`,
      targetMs,
    },
    {
      name: `project timeseries consumer ${label}`,
      path: `/api/v1/projects/big/analytics/timeseries?${range}&${consumer}&timezone=UTC`,
      targetMs,
    },
    {
      name: `project endpoints consumer ${label}`,
      path: `/api/v1/projects/big/analytics/endpoints?${range}&${consumer}`,
      targetMs,
    },
    {
      name: `project consumers page 1 ${label}`,
      path: `/api/v1/projects/big/analytics/consumers?${range}`,
      targetMs,
    },
    {
      name: `project consumers q + sort p95 ${label}`,
      path: `/api/v1/projects/big/analytics/consumers?${range}&q=consumer-4&sort_by=p95_response_time_ms`,
      targetMs,
    },
    {
      name: `project errors ${label}`,
      path: `/api/v1/projects/big/analytics/errors?${range}`,
      targetMs,
    },
  ]);
}

interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
}

/** Signs in through the magic-link flow, reading the link from the development outbox. */
async function signIn(http: Http, outbox: string, email: string): Promise<Tokens> {
  const requested = await http.post("/api/v1/auth/magic-link", { email });
  if (requested.status !== 200) throw new Error(`magic-link answered ${requested.status}: ${requested.body}`);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const message = (await outboxMessagesFor(outbox, email)).at(-1);
    if (message !== undefined) {
      const verified = await http.post("/api/v1/auth/verify", { token: magicLinkTokenOf(message) });
      if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${verified.body}`);
      return JSON.parse(verified.body) as Tokens;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no sign-in e-mail for ${email} in ${outbox}`);
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-query-"));
  const child = new Child(dataDir);
  const deadline = setTimeout(() => {
    say(`bench:query stopped after ${TIMEOUT_SECONDS} s`);
    child.kill();
    process.exit(2);
  }, TIMEOUT_SECONDS * 1000);
  try {
    const { port, outbox } = await child.next("ready", 120_000);
    const baseUrl = `http://127.0.0.1:${port}`;
    say(
      `bench:query  ${ROWS} request records + ${LOG_ROWS} log records, 30 days; ${CALLS} timed calls per route`,
    );
    say(`server       ${baseUrl} (data dir ${dataDir})`);
    say(`machine      ${cpus().length} CPUs, load average ${load()} (other processes share these cores)`);

    let tokens: Tokens | undefined;
    const http = httpClient(port, () => tokens?.access_token ?? "");
    tokens = await signIn(http, outbox, "bench@example.com");
    const create = async <T>(path: string, body: unknown): Promise<T> => {
      const response = await http.post(`/api/v1${path}`, body);
      if (response.status !== 201)
        throw new Error(`POST ${path} answered ${response.status}: ${response.body}`);
      return JSON.parse(response.body) as T;
    };
    const project = (slug: string) => create<{ id: string }>("/projects", { name: slug, slug });
    const app = (projectSlug: string, slug: string) =>
      create<{ id: string }>(`/projects/${projectSlug}/apps`, { name: slug, slug });
    const [big, mid, small1, small2] = [
      await project("big"),
      await project("mid"),
      await project("small-1"),
      await project("small-2"),
    ];
    const layout: Layout = {
      endMs: Date.now(),
      apps: [
        { projectId: big.id, appId: (await app("big", "big-api")).id, share: 55 },
        { projectId: big.id, appId: (await app("big", "big-admin")).id, share: 15 },
        { projectId: mid.id, appId: (await app("mid", "mid-api")).id, share: 20 },
        { projectId: small1.id, appId: (await app("small-1", "small-1-api")).id, share: 5 },
        { projectId: small2.id, appId: (await app("small-2", "small-2-api")).id, share: 5 },
      ],
    };
    say("tenants      big 70% (big-api 55%, big-admin 15%), mid 20%, small-1 5%, small-2 5%; ~200 routes");
    const loaded = await child.ask({ type: "load", layout }, "loaded", 900_000);
    say(
      `loaded       ${loaded.rows} requests in ${loaded.seconds.requests.toFixed(1)} s ` +
        `(${Math.round(loaded.rows / loaded.seconds.requests / 1000)}k rows/s), logs in ` +
        `${loaded.seconds.logs.toFixed(1)} s, OPTIMIZE FINAL ${loaded.seconds.optimize.toFixed(1)} s; ` +
        `api_requests ${(loaded.bytes / 1024 / 1024).toFixed(0)} MiB on disk`,
    );
    // Access tokens live 15 minutes and loading can take minutes: a fresh pair for the measurements.
    const refreshed = await http.post("/api/v1/auth/refresh", { refresh_token: tokens.refresh_token });
    if (refreshed.status !== 200) throw new Error(`refresh answered ${refreshed.status}: ${refreshed.body}`);
    tokens = JSON.parse(refreshed.body) as Tokens;

    const now = layout.endMs;
    const window = (days: number) =>
      `since=${new Date(now - days * DAY).toISOString()}&until=${new Date(now).toISOString()}`;
    const day = window(1);
    const week = window(7);
    const newest = JSON.parse((await http.get("/api/v1/projects/big/data/requests?page_size=1")).body) as {
      items: Array<{ id: string }>;
    };
    const detailId = newest.items[0]?.id ?? "";
    const endpoint = `method=GET&path=${encodeURIComponent("/api/v1/res1/{id}")}`;
    const cases: Case[] = [
      {
        name: "data/requests page 1 + total (all data)",
        path: "/api/v1/projects/big/data/requests",
        targetMs: 50,
      },
      {
        name: "data/requests 5xx + path_filter, page 1 + total",
        path: `/api/v1/projects/big/data/requests?status_codes=500,503&path_filter=${encodeURIComponent("/api/v1/res1*")}`,
      },
      { name: "data/requests page 100 (offset 4950)", path: "/api/v1/projects/big/data/requests?page=100" },
      { name: "data/requests/{id}", path: `/api/v1/projects/big/data/requests/${detailId}` },
      { name: "data/logs page 1 + total", path: "/api/v1/projects/big/data/logs" },
      {
        name: "data/logs search 'timed out' + levels",
        path: "/api/v1/projects/big/data/logs?search=timed%20out&levels=warn,error",
      },
      { name: "analytics/environments (all data)", path: "/api/v1/projects/big/analytics/environments" },
      {
        name: "project analytics/summary 24h",
        path: `/api/v1/projects/big/analytics/summary?${day}`,
        targetMs: 100,
      },
      {
        name: "project analytics/summary 7d",
        path: `/api/v1/projects/big/analytics/summary?${week}`,
        targetMs: 200,
      },
      {
        name: "project analytics/timeseries 24h",
        path: `/api/v1/projects/big/analytics/timeseries?${day}&timezone=UTC`,
        targetMs: 100,
      },
      {
        name: "project analytics/timeseries 7d",
        path: `/api/v1/projects/big/analytics/timeseries?${week}&timezone=UTC`,
        targetMs: 200,
      },
      { name: "project analytics/endpoints 24h", path: `/api/v1/projects/big/analytics/endpoints?${day}` },
      { name: "project analytics/endpoints 7d", path: `/api/v1/projects/big/analytics/endpoints?${week}` },
      {
        name: "project analytics/consumers 24h",
        path: `/api/v1/projects/big/analytics/consumers?${day}`,
        targetMs: 100,
      },
      // What the dashboard's pages added (issue 12): each at 24 h and 7 d against the targets.
      ...dashboardCases(day, week),
      { name: "app endpoint-stats 24h", path: `/api/v1/apps/big-api/endpoint-stats?${day}`, targetMs: 100 },
      { name: "app endpoint-stats 7d", path: `/api/v1/apps/big-api/endpoint-stats?${week}`, targetMs: 200 },
      {
        name: "app endpoint-stats 7d sort p95",
        path: `/api/v1/apps/big-api/endpoint-stats?${week}&sort_by=p95_response_time_ms`,
        targetMs: 200,
      },
      { name: "app endpoint-options 24h", path: `/api/v1/apps/big-api/endpoint-options?${day}` },
      { name: "app consumers 24h", path: `/api/v1/apps/big-api/consumers?${day}` },
      {
        name: "app analytics/summary 24h",
        path: `/api/v1/apps/big-api/analytics/summary?${day}`,
        targetMs: 100,
      },
      {
        name: "app analytics/summary 7d",
        path: `/api/v1/apps/big-api/analytics/summary?${week}`,
        targetMs: 200,
      },
      {
        name: "app analytics/timeseries 24h",
        path: `/api/v1/apps/big-api/analytics/timeseries?${day}&timezone=UTC`,
        targetMs: 100,
      },
      {
        name: "app analytics/timeseries 7d",
        path: `/api/v1/apps/big-api/analytics/timeseries?${week}&timezone=UTC`,
        targetMs: 200,
      },
      { name: "app analytics/related-apis 24h", path: `/api/v1/apps/big-api/analytics/related-apis?${day}` },
      {
        name: "app analytics/endpoint-detail 24h",
        path: `/api/v1/apps/big-api/analytics/endpoint-detail?${day}&${endpoint}`,
      },
      {
        name: "app analytics/endpoint-timeseries 24h",
        path: `/api/v1/apps/big-api/analytics/endpoint-timeseries?${day}&${endpoint}&timezone=UTC`,
      },
      {
        name: "app analytics/endpoint-consumers 24h",
        path: `/api/v1/apps/big-api/analytics/endpoint-consumers?${day}&${endpoint}`,
      },
      {
        name: "app analytics/endpoint-status-codes 24h",
        path: `/api/v1/apps/big-api/analytics/endpoint-status-codes?${day}&${endpoint}`,
      },
      {
        name: "app analytics/endpoint-payloads 24h",
        path: `/api/v1/apps/big-api/analytics/endpoint-payloads?${day}&${endpoint}`,
      },
      {
        name: "small tenant analytics/summary 7d",
        path: `/api/v1/apps/small-1-api/analytics/summary?${week}`,
      },
      { name: "small tenant data/requests page 1 + total", path: "/api/v1/projects/small-1/data/requests" },
    ];

    say();
    say("ms; HTTP = from this process (a separate client), in-proc = from inside the server process,");
    say("SQL = the route's own statements run alone through the events executor; ratios over SQL p50");
    say(
      `${"route (big tenant unless said)".padEnd(46)}${"HTTP50".padStart(7)}${"95".padStart(7)}` +
        `${"in-proc".padStart(7)}${"SQL50".padStart(7)}${"95".padStart(7)}  ${"HTTP".padStart(5)}  ${"in-p".padStart(5)}  target`,
    );
    const results: Result[] = [];
    for (const item of cases) {
      const result = await measure(child, http, tokens.access_token, item);
      results.push(result);
      report(result);
    }

    say();
    say("while a 10k-row insert runs back to back on the write session (the ingest writer's flushes):");
    const churnApp = layout.apps[4] as Layout["apps"][number];
    await child.ask(
      { type: "churn", on: true, projectId: churnApp.projectId, appId: churnApp.appId },
      "churned",
    );
    const underInserts = [
      "data/requests page 1 + total (all data)",
      "project analytics/summary 24h",
      "app endpoint-stats 24h",
    ];
    for (const item of cases.filter((entry) => underInserts.includes(entry.name))) {
      report(await measure(child, http, tokens.access_token, { ...item, name: `${item.name} + inserts` }));
    }
    const churned = await child.ask({ type: "churn", on: false }, "churned", 120_000);
    say(`(${churned.inserts} inserts of 10k rows ran meanwhile)`);

    say();
    await readConcurrency(child, port, tokens.access_token, [
      `/api/v1/projects/big/analytics/summary?${day}`,
      `/api/v1/projects/big/analytics/timeseries?${day}&timezone=UTC`,
      `/api/v1/projects/big/analytics/endpoints?${day}`,
    ]);

    const missed = results.filter(
      (result) => result.targetMs !== undefined && result.http.p50 >= result.targetMs,
    );
    const slowHttp = results.filter((result) => result.http.p50 > 1.3 * result.sql.p50);
    const slowLocal = results.filter((result) => result.local.p50 > 1.3 * result.sql.p50);
    const names = (list: Result[]) =>
      list.length === 0 ? "none" : list.map((result) => result.name).join("; ");
    say();
    say(`load average at the end: ${load()}`);
    say(`targets missed: ${names(missed)}`);
    say(`HTTP above 1.3x SQL: ${names(slowHttp)}`);
    say(`in-process HTTP above 1.3x SQL: ${names(slowLocal)}`);
    return 0;
  } finally {
    clearTimeout(deadline);
    await child.stop().catch(() => child.kill());
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--server") {
  await serve(process.argv[3] as string);
} else {
  process.exitCode = await main();
}
