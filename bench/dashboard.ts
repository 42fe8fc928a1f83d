// npm run bench:dashboard — how long each dashboard page takes, in a real browser, from
// navigation until its data and, on pages that compare periods, the previous period's figures
// are painted. A child process runs Sightline (API and built dashboard), 127.0.0.1 only, either
// on a temporary data directory where it generates the bench:query dataset inside the engine
// (bench/dataset.ts: 30 days, 5 apps in 4 projects, the `big` project with 70% of the rows, plus
// logs), or on a data directory made by bench:scale (BENCH_SCALE_DATA_DIR; its big tenant is
// given a project, apps and an owner in the metadata store, and the windows end where its data
// ends). This process signs a browser session in, then with playwright-core and Debian's Chromium
// opens every page on `big` with a 24 h, 7 d and 30 d window and reads the `performance.mark`s
// the app sets: the later of "data painted" and, where the page compares, "comparison painted".
// Knobs: BENCH_ROWS (10000000), BENCH_LOG_ROWS (1000000), BENCH_RUNS (5 timed loads per page and
// range, after one warm-up), BENCH_RANGES (24h,7d,30d), BENCH_SCALE_DATA_DIR (time a bench:scale
// data directory instead of generating; CLICKHOUSE_* settings apply to it as to bench:scale),
// BENCH_PAGE_TIMEOUT_SECONDS (20), BENCH_TIMEOUT_SECONDS (1800), BENCH_DASHBOARD_DIR (serve
// another build of packages/web instead of packages/web/dist).
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { buildApp } from "../packages/server/src/app.js";
import { loadConfig } from "../packages/server/src/config/index.js";
import { createDeps } from "../packages/server/src/deps.js";
import { createLogger } from "../packages/server/src/logger.js";
import { magicLinkTokenOf, outboxMessagesFor } from "../packages/server/test/support/mail.js";
import { freePort } from "../packages/server/test/support/process.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH, INSTALL_HINT } from "../packages/web/e2e/support/chromium.js";
import { type DatasetApp, datasetParams, logsSql, requestsSql } from "./dataset.js";
import { BenchChild } from "./child.js";
import { TOP_CONSUMER, TOP_ENDPOINT } from "./scale-dataset.js";
import { adoptScaleTenant, SCALE_BIG } from "./scale-tenant.js";
import { assertSamples, median } from "./stats.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGE_TIMEOUT_MS = Number(process.env.BENCH_PAGE_TIMEOUT_SECONDS ?? 20) * 1000;
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 1800);
const SCALE_DIR = process.env.BENCH_SCALE_DATA_DIR === "" ? undefined : process.env.BENCH_SCALE_DATA_DIR;
/** What bench:scale leaves in its data directory (bench/scale.ts `Marker`). */
const SCALE_MARKER = "bench-scale.json";

/** The marks the dashboard sets (packages/web/src/lib/page-state.ts). */
export const DATA_PAINTED_MARK = "sightline:data-painted";
export const COMPARISON_PAINTED_MARK = "sightline:comparison-painted";

const DAY = 86_400_000;
/** Targets: issue 12 (24 h, 7 d) and issue 21 §5 (≤ 1.5 s at 100 M rows); median of RUNS loads. */
const RANGES = {
  "24h": { ms: DAY, targetMs: 1000 },
  "7d": { ms: 7 * DAY, targetMs: 1500 },
  "30d": { ms: 30 * DAY, targetMs: 1500 },
} as const;
type Range = keyof typeof RANGES;

assertSamples(RUNS, 1, "BENCH_RUNS");
const ranges = (process.env.BENCH_RANGES ?? "24h,7d,30d")
  .split(",")
  .map((label) => label.trim())
  .filter((label) => label !== "")
  .map((label) => {
    if (!(label in RANGES)) throw new Error(`BENCH_RANGES: unknown range "${label}"`);
    return label as Range;
  });

interface BenchPage {
  readonly name: string;
  readonly path: string;
  /** The page shows the previous period's figures (KPI changes): its timer waits for them too. */
  readonly compares: boolean;
}

/** What a dataset's pages open: an endpoint, a consumer, and whether it has logs. */
interface PageSubjects {
  readonly endpoint: { readonly app: string; readonly method: string; readonly path: string };
  readonly consumer: string;
  readonly logs: boolean;
}

/** On the bench:query dataset: a busy endpoint of `big-api`, and consumer-42. */
const OWN_SUBJECTS: PageSubjects = {
  endpoint: { app: "big-api", method: "GET", path: "/api/v1/res1/{id}" },
  consumer: "consumer-42",
  logs: true,
};

/**
 * On bench:scale's big tenant: its most requested endpoint, and consumer-0, the busiest of its
 * long tail. No logs page: bench:scale writes request records only.
 */
const SCALE_SUBJECTS: PageSubjects = {
  endpoint: { app: SCALE_BIG.apps[0]?.slug ?? "", method: TOP_ENDPOINT.method, path: TOP_ENDPOINT.route },
  consumer: TOP_CONSUMER,
  logs: false,
};

/** The pages measured, as paths under the project. */
function pages(project: string, subjects: PageSubjects): BenchPage[] {
  const endpoint = new URLSearchParams(subjects.endpoint);
  const under = (path: string) => `/projects/${project}${path}`;
  return [
    { name: "overview", path: under(""), compares: true },
    { name: "endpoint", path: under(`/endpoints/detail?${endpoint.toString()}`), compares: true },
    { name: "requests", path: under("/requests"), compares: false },
    ...(subjects.logs ? [{ name: "logs", path: under("/logs"), compares: false }] : []),
    { name: "consumers", path: under("/consumers"), compares: false },
    { name: "consumer", path: under(`/consumers/${subjects.consumer}`), compares: false },
    { name: "errors", path: under("/errors"), compares: false },
  ];
}

/**
 * The URL parameters of a window: a preset ending now on the generated dataset; on bench:scale's,
 * a custom window ending at the data's end (rounded up to the minute, as presets round "now").
 */
function windowParams(range: Range, endMs: number | undefined): string {
  if (endMs === undefined) return `range=${range}`;
  const until = Math.ceil(endMs / 60_000) * 60_000;
  const window = new URLSearchParams({
    since: new Date(until - RANGES[range].ms).toISOString(),
    until: new Date(until).toISOString(),
  });
  return window.toString();
}

function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

// ---- the child: Sightline with the dashboard, and the dataset loader ----

type ToChild =
  { type: "load"; apps: DatasetApp[]; endMs: number } | { type: "adopt"; email: string } | { type: "stop" };
type FromChild =
  | { type: "ready"; port: number; outbox: string }
  | { type: "loaded"; seconds: number; rows: number }
  | { type: "adopted"; slug: string; rows: number; projectRows: number }
  | { type: "error"; message: string };

async function serve(dataDir: string): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  // A bench:scale directory may keep its events on a ClickHouse server, as bench:scale reads them.
  const clickhouse =
    SCALE_DIR === undefined
      ? {}
      : Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("CLICKHOUSE_")));
  // The browser's origin must be the server's configured one, or the CSRF guard refuses sign-in.
  const port = await freePort();
  const config = loadConfig({
    ...clickhouse,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  const dashboardDir = process.env.BENCH_DASHBOARD_DIR;
  const deps = await createDeps(config, {
    logger: createLogger(config.logLevel),
    ...(dashboardDir === undefined || dashboardDir === "" ? {} : { dashboardDir }),
  });
  const app = await buildApp(deps);
  await app.listen({ host: "127.0.0.1", port });
  const db = deps.events.database;
  const handle = async (message: ToChild): Promise<void> => {
    if (message.type === "stop") {
      await app.close();
      await deps.close();
      process.exit(0);
    }
    if (message.type === "adopt") {
      const slug = await adoptScaleTenant(deps.metadata.db, message.email, new Date().toISOString());
      const [size] = await deps.events.query<{ rows: string | number; projectRows: string | number }>(
        `SELECT count() AS rows, countIf(project_id = {p:String}) AS projectRows FROM ${db}.api_requests`,
        { p: SCALE_BIG.projectId },
      );
      send({
        type: "adopted",
        slug,
        rows: Number(size?.rows ?? 0),
        projectRows: Number(size?.projectRows ?? 0),
      });
      return;
    }
    const started = performance.now();
    const params = datasetParams(message.apps, message.endMs);
    await deps.events.command(requestsSql(db, ROWS), params);
    await deps.events.command(logsSql(db, LOG_ROWS), params);
    // One part per table, so no background merge runs under the timings.
    await deps.events.command(`OPTIMIZE TABLE ${db}.api_requests FINAL`);
    await deps.events.command(`OPTIMIZE TABLE ${db}.api_logs FINAL`);
    const [size] = await deps.events.query<{ rows: number }>(
      `SELECT count() AS rows FROM ${db}.api_requests`,
    );
    send({ type: "loaded", seconds: (performance.now() - started) / 1000, rows: size?.rows ?? 0 });
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

// ---- the parent: set-up over HTTP, then the browser ----

/** The server child of this bench. */
class Child extends BenchChild<ToChild, FromChild> {
  constructor(dataDir: string) {
    super(fileURLToPath(import.meta.url), dataDir);
  }
}

/** JSON over fetch against the child, with an optional bearer token or same-origin headers. */
function api(baseUrl: string) {
  let token = "";
  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        ...(token === "" ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  return {
    call,
    useToken(value: string) {
      token = value;
    },
  };
}

/** The newest magic-link token e-mailed to `email` after `since` messages had been sent. */
async function linkToken(outbox: string, email: string, before: number): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const messages = await outboxMessagesFor(outbox, email);
    if (messages.length > before) return magicLinkTokenOf(messages.at(-1) as string);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no sign-in e-mail for ${email} in ${outbox}`);
}

/**
 * Milliseconds from navigation start to each of `marks` (in order), or null if one never came.
 */
async function timeLoad(page: Page, url: string, marks: readonly string[]): Promise<number[] | null> {
  await page.goto(url, { waitUntil: "commit" });
  try {
    const handle = await page.waitForFunction(
      (names) => {
        const times = names.map((name) => performance.getEntriesByName(name, "mark")[0]?.startTime);
        return times.every((time) => time !== undefined) ? times : false;
      },
      marks,
      { timeout: PAGE_TIMEOUT_MS, polling: "raf" },
    );
    return (await handle.jsonValue()) as number[];
  } catch {
    // A page that sent the browser to sign-in says the session is wrong, not that it is slow.
    if (new URL(page.url()).pathname.startsWith("/auth/")) {
      throw new Error(`${url} sent the browser to ${page.url()}: the session was not accepted`);
    }
    return null;
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");

const ms = (value: number) => value.toFixed(0).padStart(8);

async function measurePages(
  browser: Browser,
  baseUrl: string,
  signIn: (page: Page) => Promise<void>,
  list: readonly BenchPage[],
  endMs: number | undefined,
) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1440, height: 900 },
    locale: "en-US",
    timezoneId: "UTC",
  });
  const page = await context.newPage();
  await signIn(page);
  say();
  say(`median of ${RUNS} loads after one warm-up; ms from navigation start to "${DATA_PAINTED_MARK}"`);
  say(
    `(data), and to the later of it and "${COMPARISON_PAINTED_MARK}" (median, min, max) on pages that ` +
      `compare periods (${list
        .filter((entry) => entry.compares)
        .map((entry) => entry.name)
        .join(", ")}); the target applies to the median`,
  );
  say(
    `${"page".padEnd(12)}${"range".padEnd(7)}${"data".padStart(8)}${"median".padStart(8)}${"min".padStart(8)}${"max".padStart(8)}  target`,
  );
  const missed: string[] = [];
  let lines = 0;
  for (const entry of list) {
    const marks = entry.compares ? [DATA_PAINTED_MARK, COMPARISON_PAINTED_MARK] : [DATA_PAINTED_MARK];
    for (const range of ranges) {
      lines += 1;
      const url = `${entry.path}${entry.path.includes("?") ? "&" : "?"}${windowParams(range, endMs)}`;
      const target = RANGES[range].targetMs;
      const data: number[] = [];
      const all: number[] = [];
      let failed = false;
      for (let run = 0; run <= RUNS && !failed; run += 1) {
        const times = await timeLoad(page, url, marks);
        if (times === null) failed = true;
        else if (run > 0) {
          data.push(times[0] ?? Number.NaN);
          all.push(Math.max(...times));
        }
      }
      const label = `${entry.name.padEnd(12)}${range.padEnd(7)}`;
      if (failed) {
        say(
          `${label}${"n/a".padStart(16)}${"".padStart(16)}  ≤${target} ms MISS: no ${marks.join(" + ")} within ${PAGE_TIMEOUT_MS / 1000} s (${url})`,
        );
        missed.push(`${entry.name} ${range} (no mark)`);
        continue;
      }
      const figure = median(all);
      const ok = figure <= target;
      if (!ok) missed.push(`${entry.name} ${range}`);
      say(
        `${label}${ms(median(data))}${ms(figure)}${ms(Math.min(...all))}${ms(Math.max(...all))}  ≤${target} ms ${ok ? "PASS" : "MISS"}`,
      );
    }
  }
  await context.close();
  return { lines, missed };
}

/** The bench:scale marker of `dir`, or an error saying how to make one. */
async function scaleMarker(dir: string): Promise<{ endMs: number; rows: number; totalRows: number }> {
  const path = join(dir, SCALE_MARKER);
  if (!existsSync(path)) {
    throw new Error(
      `BENCH_SCALE_DATA_DIR=${dir} has no ${SCALE_MARKER}: make it with SCALE_DATA_DIR=${dir} npm run bench:scale`,
    );
  }
  const marker = JSON.parse(await readFile(path, "utf8")) as {
    endMs?: unknown;
    rows?: unknown;
    totalRows?: unknown;
  };
  if (
    typeof marker.endMs !== "number" ||
    typeof marker.rows !== "number" ||
    typeof marker.totalRows !== "number"
  ) {
    throw new Error(`${path} lacks endMs, rows or totalRows`);
  }
  return { endMs: marker.endMs, rows: marker.rows, totalRows: marker.totalRows };
}

/** Signs `email` in over the API (the first sign-in creates the user) and answers the client. */
async function signedInApi(baseUrl: string, outbox: string, email: string) {
  const http = api(baseUrl);
  const sent = (await outboxMessagesFor(outbox, email)).length;
  await http.call("POST", "/auth/magic-link", { email });
  const tokens = await http.call<{ access_token: string }>("POST", "/auth/verify", {
    token: await linkToken(outbox, email, sent),
  });
  http.useToken(tokens.access_token);
  return http;
}

/** Creates the bench:query tenants over the API and loads the dataset into them. */
async function loadOwnDataset(child: Child, baseUrl: string, outbox: string, email: string): Promise<void> {
  const http = await signedInApi(baseUrl, outbox, email);
  const project = (slug: string) => http.call<{ id: string }>("POST", "/projects", { name: slug, slug });
  const app = async (projectSlug: string, slug: string) =>
    (await http.call<{ id: string }>("POST", `/projects/${projectSlug}/apps`, { name: slug, slug })).id;
  const [big, mid, small1, small2] = [
    await project("big"),
    await project("mid"),
    await project("small-1"),
    await project("small-2"),
  ];
  const apps: DatasetApp[] = [
    { projectId: big.id, appId: await app("big", "big-api"), share: 55 },
    { projectId: big.id, appId: await app("big", "big-admin"), share: 15 },
    { projectId: mid.id, appId: await app("mid", "mid-api"), share: 20 },
    { projectId: small1.id, appId: await app("small-1", "small-1-api"), share: 5 },
    { projectId: small2.id, appId: await app("small-2", "small-2-api"), share: 5 },
  ];
  const loaded = child.next("loaded", 1_200_000);
  child.send({ type: "load", apps, endMs: Date.now() });
  const { seconds, rows } = await loaded;
  say(`loaded           ${rows} requests and the logs in ${seconds.toFixed(1)} s (OPTIMIZE FINAL included)`);
}

async function main(): Promise<number> {
  const marker = SCALE_DIR === undefined ? undefined : await scaleMarker(SCALE_DIR);
  const dataDir = SCALE_DIR ?? (await mkdtemp(join(tmpdir(), "sightline-bench-dashboard-")));
  const child = new Child(dataDir);
  let browser: Browser | undefined;
  const deadline = setTimeout(() => {
    say(`bench:dashboard stopped after ${TIMEOUT_SECONDS} s`);
    void browser?.close();
    child.kill();
    process.exit(2);
  }, TIMEOUT_SECONDS * 1000);
  try {
    const { port, outbox } = await child.next("ready", 120_000);
    const baseUrl = `http://127.0.0.1:${port}`;
    const email = "bench@example.com";
    let list: BenchPage[];
    if (marker === undefined) {
      say(
        `bench:dashboard  ${ROWS} request records + ${LOG_ROWS} log records, 30 days; ${RUNS} loads per page`,
      );
      say(`server           ${baseUrl} (data dir ${dataDir})`);
      say(
        `machine          ${cpus().length} CPUs, load average ${load()} (other processes share these cores)`,
      );
      await loadOwnDataset(child, baseUrl, outbox, email);
      list = pages("big", OWN_SUBJECTS);
    } else {
      const adopted = await child.ask({ type: "adopt", email }, "adopted");
      say(
        `bench:dashboard  bench:scale data: ${marker.rows} rows in its last 30 days + ${marker.totalRows - marker.rows} ` +
          `in the 60 before (${adopted.rows} stored, ${adopted.projectRows} in project ${adopted.slug}); ` +
          `windows end at ${new Date(marker.endMs).toISOString()}; ${RUNS} loads per page`,
      );
      say(`server           ${baseUrl} (data dir ${dataDir}, kept)`);
      say(
        `machine          ${cpus().length} CPUs, load average ${load()} (other processes share these cores)`,
      );
      list = pages(adopted.slug, SCALE_SUBJECTS);
    }

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }).catch((error) => {
      throw new Error(`${String(error)}\n${INSTALL_HINT}`);
    });
    // The browser signs in as a person would end up: a session cookie from a mailed link.
    const signIn = async (page: Page) => {
      const sent = (await outboxMessagesFor(outbox, email)).length;
      const requested = await page.request.post("/api/v1/auth/magic-link", { data: { email } });
      if (!requested.ok()) throw new Error(`magic-link answered ${requested.status()}`);
      const session = await page.request.post("/api/v1/auth/session", {
        data: { token: await linkToken(outbox, email, sent) },
        headers: { origin: baseUrl, "x-sightline-csrf": "1" },
      });
      if (!session.ok()) throw new Error(`session answered ${session.status()}: ${await session.text()}`);
    };
    const { lines, missed } = await measurePages(browser, baseUrl, signIn, list, marker?.endMs);
    say();
    say(`load average at the end: ${load()}`);
    say(
      `${lines - missed.length} of ${lines} lines PASS; missed: ${missed.length === 0 ? "none" : missed.join("; ")}`,
    );
    return 0;
  } finally {
    clearTimeout(deadline);
    await browser?.close().catch(() => undefined);
    await child.stop().catch(() => child.kill());
    if (SCALE_DIR === undefined) await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--server") {
  await serve(process.argv[3] as string);
} else {
  process.exitCode = await main();
}
