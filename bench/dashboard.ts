// npm run bench:dashboard — how long each dashboard page takes, in a real browser, from
// navigation until its data is painted, on the bench:query dataset. A child process runs
// Sightline (API and built dashboard) on a temporary data directory, 127.0.0.1 only, and
// generates the records inside the engine (bench/dataset.ts: 30 days, 5 apps in 4 projects, the
// `big` project with 70% of the rows, plus logs). This process signs a browser session in, then
// with playwright-core and Debian's Chromium opens every page on `big` with a 24 h and a 7 d
// range and reads the `performance.mark` the app sets once the page's data is on screen.
// Knobs: BENCH_ROWS (10000000), BENCH_LOG_ROWS (1000000), BENCH_RUNS (5 timed loads per page and
// range, after one warm-up), BENCH_PAGE_TIMEOUT_SECONDS (20), BENCH_TIMEOUT_SECONDS (1800),
// BENCH_DASHBOARD_DIR (serve another build of packages/web instead of packages/web/dist).
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { buildApp } from "../packages/server/src/app.js";
import { loadConfig } from "../packages/server/src/config/index.js";
import { createDeps } from "../packages/server/src/deps.js";
import { createLogger } from "../packages/server/src/logger.js";
import { magicLinkTokenOf, outboxMessagesFor } from "../packages/server/test/support/mail.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH, INSTALL_HINT } from "../packages/web/e2e/support/chromium.js";
import { type DatasetApp, datasetParams, logsSql, requestsSql } from "./dataset.js";
import { BenchChild } from "./child.js";
import { median } from "./stats.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGE_TIMEOUT_MS = Number(process.env.BENCH_PAGE_TIMEOUT_SECONDS ?? 20) * 1000;
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 1800);

/** The mark the dashboard sets when a page's data is painted (agreed with packages/web). */
export const DATA_PAINTED_MARK = "sightline:data-painted";

/** Targets of issue 12: median of RUNS loads. */
const TARGETS_MS = { "24h": 1000, "7d": 1500 } as const;
type Range = keyof typeof TARGETS_MS;

/** The pages measured, as paths under the project (the range is added as `range=`). */
function pages(project: string): Array<{ name: string; path: string }> {
  const endpoint = new URLSearchParams({ app: "big-api", method: "GET", path: "/api/v1/res1/{id}" });
  return [
    { name: "overview", path: `/projects/${project}` },
    { name: "endpoint", path: `/projects/${project}/endpoints/detail?${endpoint.toString()}` },
    { name: "requests", path: `/projects/${project}/requests` },
    { name: "logs", path: `/projects/${project}/logs` },
    { name: "consumers", path: `/projects/${project}/consumers` },
    { name: "consumer", path: `/projects/${project}/consumers/consumer-42` },
    { name: "errors", path: `/projects/${project}/errors` },
  ];
}

function say(line = ""): void {
  process.stdout.write(`${line}\n`);
}

// ---- the child: Sightline with the dashboard, and the dataset loader ----

type ToChild = { type: "load"; apps: DatasetApp[]; endMs: number } | { type: "stop" };
type FromChild =
  | { type: "ready"; port: number; outbox: string }
  | { type: "loaded"; seconds: number; rows: number }
  | { type: "error"; message: string };

async function serve(dataDir: string): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  const dashboardDir = process.env.BENCH_DASHBOARD_DIR;
  const deps = await createDeps(config, {
    logger: createLogger(config.logLevel),
    ...(dashboardDir === undefined || dashboardDir === "" ? {} : { dashboardDir }),
  });
  const app = await buildApp(deps);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const db = deps.events.database;
  const handle = async (message: ToChild): Promise<void> => {
    if (message.type === "stop") {
      await app.close();
      await deps.close();
      process.exit(0);
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

/** Milliseconds from navigation start to the data-painted mark, or null if it never came. */
async function timeLoad(page: Page, url: string): Promise<number | null> {
  await page.goto(url, { waitUntil: "commit" });
  try {
    const handle = await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark, "mark")[0]?.startTime ?? false,
      DATA_PAINTED_MARK,
      { timeout: PAGE_TIMEOUT_MS, polling: "raf" },
    );
    return (await handle.jsonValue()) as number;
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

async function measurePages(browser: Browser, baseUrl: string, signIn: (page: Page) => Promise<void>) {
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
    `${"page".padEnd(12)}${"range".padEnd(7)}${"median".padStart(8)}${"min".padStart(8)}${"max".padStart(8)}  target`,
  );
  const missed: string[] = [];
  for (const entry of pages("big")) {
    for (const range of ["24h", "7d"] as Range[]) {
      const url = `${entry.path}${entry.path.includes("?") ? "&" : "?"}range=${range}`;
      const target = TARGETS_MS[range];
      const times: number[] = [];
      let failed = false;
      for (let run = 0; run <= RUNS && !failed; run += 1) {
        const ms = await timeLoad(page, url);
        if (ms === null) failed = true;
        else if (run > 0) times.push(ms);
      }
      const label = `${entry.name.padEnd(12)}${range.padEnd(7)}`;
      if (failed) {
        say(
          `${label}${"n/a".padStart(8)}${"".padStart(16)}  ≤${target} ms: no mark within ${PAGE_TIMEOUT_MS / 1000} s (${url})`,
        );
        missed.push(`${entry.name} ${range} (no mark)`);
        continue;
      }
      const figure = median(times);
      const ok = figure <= target;
      if (!ok) missed.push(`${entry.name} ${range}`);
      say(
        `${label}${figure.toFixed(0).padStart(8)}${Math.min(...times)
          .toFixed(0)
          .padStart(8)}` +
          `${Math.max(...times)
            .toFixed(0)
            .padStart(8)}  ≤${target} ms ${ok ? "ok" : "MISSED"}`,
      );
    }
  }
  await context.close();
  return missed;
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-dashboard-"));
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
    say(
      `bench:dashboard  ${ROWS} request records + ${LOG_ROWS} log records, 30 days; ${RUNS} loads per page`,
    );
    say(`server           ${baseUrl} (data dir ${dataDir})`);
    say(`machine          ${cpus().length} CPUs, load average ${load()} (other processes share these cores)`);

    const email = "bench@example.com";
    const http = api(baseUrl);
    let sent = (await outboxMessagesFor(outbox, email)).length;
    await http.call("POST", "/auth/magic-link", { email });
    const tokens = await http.call<{ access_token: string }>("POST", "/auth/verify", {
      token: await linkToken(outbox, email, sent),
    });
    http.useToken(tokens.access_token);
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
    say(
      `loaded           ${rows} requests and the logs in ${seconds.toFixed(1)} s (OPTIMIZE FINAL included)`,
    );

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }).catch((error) => {
      throw new Error(`${String(error)}\n${INSTALL_HINT}`);
    });
    // The browser signs in as a person would end up: a session cookie from a mailed link.
    const signIn = async (page: Page) => {
      sent = (await outboxMessagesFor(outbox, email)).length;
      const requested = await page.request.post("/api/v1/auth/magic-link", { data: { email } });
      if (!requested.ok()) throw new Error(`magic-link answered ${requested.status()}`);
      const session = await page.request.post("/api/v1/auth/session", {
        data: { token: await linkToken(outbox, email, sent) },
        headers: { origin: baseUrl, "x-sightline-csrf": "1" },
      });
      if (!session.ok()) throw new Error(`session answered ${session.status()}: ${await session.text()}`);
    };
    const missed = await measurePages(browser, baseUrl, signIn);
    say();
    say(`load average at the end: ${load()}`);
    say(`targets missed: ${missed.length === 0 ? "none" : missed.join("; ")}`);
    return 0;
  } finally {
    clearTimeout(deadline);
    await browser?.close().catch(() => undefined);
    await child.stop().catch(() => child.kill());
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--server") {
  await serve(process.argv[3] as string);
} else {
  process.exitCode = await main();
}
