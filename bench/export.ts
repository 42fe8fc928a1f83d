// npm run bench:export — one export of every request record of a project over HTTP, from a server
// child holding BENCH_ROWS (10 M) records generated in its engine (INSERT … SELECT FROM numbers(),
// bench/dataset.ts). Prints rows/s, MB/s and the server's peak RSS growth during the export
// (VmRSS sampled every 50 ms, against the RSS just before) against the < 100 MB target.
// Knobs: BENCH_ROWS (10000000), BENCH_FORMAT (ndjson | csv), BENCH_TIMEOUT_SECONDS (1800).
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../packages/server/src/app.js";
import { loadConfig } from "../packages/server/src/config/index.js";
import { createDeps } from "../packages/server/src/deps.js";
import { createLogger } from "../packages/server/src/logger.js";
import { magicLinkTokenOf, outboxMessagesFor } from "../packages/server/test/support/mail.js";
import { BenchChild } from "./child.js";
import { datasetParams, requestsSql } from "./dataset.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const FORMAT = process.env.BENCH_FORMAT === "csv" ? "csv" : "ndjson";
const TIMEOUT_SECONDS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 1800);
const TARGET_MB = 100;

type ToChild = { type: "load"; projectId: string; appId: string } | { type: "stop" };
type FromChild =
  | { type: "ready"; port: number; outbox: string }
  | { type: "loaded"; seconds: number }
  | { type: "error"; message: string };

const say = (line = "") => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

// ---- the child: Sightline and its engine ----

async function serve(dataDir: string): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  const deps = await createDeps(config, { logger: createLogger(config.logLevel) });
  const app = await buildApp(deps);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const handle = async (message: ToChild): Promise<void> => {
    if (message.type === "stop") {
      await app.close();
      await deps.close();
      process.exit(0);
    }
    const started = performance.now();
    const db = deps.events.database;
    await deps.events.command(
      requestsSql(db, ROWS),
      datasetParams([{ projectId: message.projectId, appId: message.appId, share: 100 }], Date.now()),
    );
    // One part, so background merges do not run under the measurement.
    await deps.events.command(`OPTIMIZE TABLE ${db}.api_requests FINAL`);
    send({ type: "loaded", seconds: (performance.now() - started) / 1000 });
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

// ---- the parent: sign in, create a project, export it, watch the child's memory ----

function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb ?? 0) * 1024;
}

function call(port: number, method: string, path: string, token: string, body?: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: {
          ...(token === "" ? {} : { authorization: `Bearer ${token}` }),
          ...(payload === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function signIn(port: number, outbox: string, email: string): Promise<string> {
  await call(port, "POST", "/api/v1/auth/magic-link", "", { email });
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const message = (await outboxMessagesFor(outbox, email)).at(-1);
    if (message !== undefined) {
      const verified = await call(port, "POST", "/api/v1/auth/verify", "", {
        token: magicLinkTokenOf(message),
      });
      return (JSON.parse(verified.body) as { access_token: string }).access_token;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no sign-in e-mail for ${email}`);
}

/** Streams the export, counting bytes and lines; nothing is kept. */
function download(port: number, path: string, token: string) {
  return new Promise<{ status: number; bytes: number; lines: number }>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let bytes = 0;
        let lines = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-export-"));
  const child = new BenchChild<ToChild, FromChild>(fileURLToPath(import.meta.url), dataDir);
  const deadline = setTimeout(() => {
    say(`bench:export stopped after ${TIMEOUT_SECONDS} s`);
    child.kill();
    process.exit(2);
  }, TIMEOUT_SECONDS * 1000);
  try {
    const { port, outbox } = await child.next("ready", 120_000);
    say(`bench:export  ${ROWS} request records, format ${FORMAT}`);
    say(
      `machine       ${cpus().length} CPUs, load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}`,
    );
    const token = await signIn(port, outbox, "bench@example.com");
    const created = async (path: string, body: unknown) => {
      const response = await call(port, "POST", `/api/v1${path}`, token, body);
      if (response.status !== 201)
        throw new Error(`POST ${path} answered ${response.status}: ${response.body}`);
      return JSON.parse(response.body) as { id: string };
    };
    const project = await created("/projects", { name: "Bench", slug: "bench" });
    const app = await created("/projects/bench/apps", { name: "Api", slug: "api" });
    const loaded = await child.ask(
      { type: "load", projectId: project.id, appId: app.id },
      "loaded",
      TIMEOUT_SECONDS * 1000,
    );
    say(`loaded        ${loaded.seconds.toFixed(1)} s (generate + OPTIMIZE FINAL)`);

    const before = rssBytes(child.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(child.pid))), 50);
    const started = performance.now();
    const result = await download(
      port,
      `/api/v1/projects/bench/data/requests/export?format=${FORMAT}`,
      token,
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(child.pid));
    const rows = FORMAT === "csv" ? result.lines - 1 : result.lines;
    const growth = peak - before;
    say(`status        ${result.status}`);
    say(`rows          ${rows} of ${ROWS}${rows === ROWS ? "" : "  (MISMATCH)"}`);
    say(`time          ${seconds.toFixed(1)} s`);
    say(
      `throughput    ${Math.round(rows / seconds)} rows/s, ${mb(result.bytes / seconds)} MB/s (${mb(result.bytes)} MB sent)`,
    );
    say(`server RSS    ${mb(before)} MB before, peak ${mb(peak)} MB during the export`);
    say(
      `RSS growth    ${mb(growth)} MB  (target < ${TARGET_MB} MB: ${growth < TARGET_MB * 1024 * 1024 ? "met" : "MISSED"})`,
    );
    return result.status === 200 && rows === ROWS ? 0 : 1;
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
