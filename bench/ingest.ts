// npm run bench:ingest — measured ingest throughput. Starts Sightline (the CLI, in a child
// process) on a temporary data directory, drives concurrent keep-alive clients posting
// 100-record batches to 127.0.0.1 for a fixed time, checks stored == accepted, then inserts the
// same rows straight into the events store in 10k-row inserts (no HTTP) and prints the ratio.
// The OTLP scenario then sends the same records as OTLP/HTTP protobuf exports (each record a
// SERVER span with HTTP semantic-convention attributes) to /api/v1/otlp/v1/traces with the same
// clients and batch size — each span is stored twice, as a span and as a request record — and
// its spans/s are compared with a baseline of as many request rows, inserted the same way.
// Knobs: BENCH_SECONDS (default 20), BENCH_CLIENTS (default 64), BENCH_WARMUP_SECONDS (default 3);
// INGEST_* variables are passed on to the server.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareBatch } from "../packages/server/src/modules/ingest/ingest.pipeline.js";
import type { RowChunk } from "../packages/server/src/stores/events/writer.js";
import { requestKind } from "../packages/server/src/modules/ingest/requests.records.js";
import { OTLP_MESSAGES } from "../packages/server/src/modules/otlp/otlp.decode.js";
import { migrateEvents, openEventsExecutor } from "../packages/server/src/stores/events/index.js";
import { setUpRemoteIngest } from "../packages/server/test/ingest/remote.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** 64 closed-loop clients keep about one 6,400-row insert in flight: see docs/performance.md. */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const BATCH = 100;
/** Distinct bodies cycled by the clients; rows differ in ids and times anyway. */
const BODIES = 200;
/** A hard cap next to the time limit, so a runaway loop cannot post forever. */
const MAX_REQUESTS = 2_000_000;
const BASELINE_ROWS_PER_INSERT = 10_000;
/** Distinct pre-serialised 10k-row inserts the baseline cycles through (bounded memory). */
const BASELINE_CHUNKS = 20;
/** The compiled CLI, as `npm start` runs it (the bench script builds first). */
const CLI = fileURLToPath(new URL("../packages/server/dist/cli.js", import.meta.url));

const METHODS = ["GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"];
const ROUTES = ["/api/v1/orders/{id}", "/api/v1/users/{id}", "/api/v1/products", "/api/v1/cart/{id}/items"];
const STATUSES = [200, 200, 200, 200, 200, 201, 204, 304, 400, 401, 404, 500, 503];

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** One figure: label, value, and the target with whether it was met. */
function line(label: string, value: string, target?: readonly [string, boolean]): void {
  const verdict = target === undefined ? "" : `  [target ${target[0]}: ${target[1] ? "met" : "MISSED"}]`;
  say(`${label.padEnd(10)}${value.padEnd(62)}${verdict}`.trimEnd());
}

/** Deterministic pseudo-random numbers: the same bodies on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

/** One 100-record batch of about 45 KB, like the baseline measurements' records. */
function records(seed: number, appSlug: string): Record<string, unknown>[] {
  const random = generator(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const now = Date.now();
  return Array.from({ length: BATCH }, () => {
    const consumer = Math.floor(random() * 5000);
    const route = pick(ROUTES);
    return {
      app_id: appSlug,
      timestamp: new Date(now - Math.floor(random() * 600_000)).toISOString(),
      environment: random() < 0.8 ? "production" : "staging",
      method: pick(METHODS),
      path: route.replace("{id}", String(Math.floor(random() * 100_000))),
      status_code: pick(STATUSES),
      response_time_ms: Math.round(-Math.log(1 - random()) * 120 * 100) / 100,
      request_size: Math.floor(random() * 4096),
      response_size: Math.floor(random() * 65_536),
      ip_address: `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`,
      user_agent:
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      consumer_id: `consumer-${consumer}`,
      consumer_name: `Consumer ${consumer}`,
      consumer_group: `group-${consumer % 10}`,
      ...(random() < 0.13
        ? { request_payload: `{"sku":"A-${Math.floor(random() * 1000)}","quantity":2}` }
        : {}),
    };
  });
}

/** Unix nanoseconds as OTLP carries them. */
function nanos(ms: number): string {
  return `${BigInt(Math.round(ms * 1000)) * 1000n}`;
}

/** The same records as one protobuf ExportTraceServiceRequest: one SERVER span per record,
 *  with the HTTP semantic-convention attributes an instrumentation library sets. */
function otlpBody(batch: readonly Record<string, unknown>[], appSlug: string, seed: number): Buffer {
  const random = generator(seed * 7919);
  const hex = (digits: number) =>
    Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join("");
  const attribute = (key: string, value: unknown) => ({
    key,
    value: typeof value === "number" ? { intValue: value } : { stringValue: String(value) },
  });
  const byEnvironment = new Map<string, Record<string, unknown>[]>();
  for (const record of batch) {
    const environment = String(record.environment);
    byEnvironment.set(environment, [...(byEnvironment.get(environment) ?? []), record]);
  }
  const { request } = OTLP_MESSAGES.traces;
  return Buffer.from(
    request
      .encode(
        request.fromObject({
          resourceSpans: [...byEnvironment].map(([environment, records]) => ({
            resource: {
              attributes: [
                attribute("service.name", appSlug),
                attribute("deployment.environment.name", environment),
              ],
            },
            scopeSpans: [
              {
                scope: { name: "@opentelemetry/instrumentation-http" },
                spans: records.map((record) => {
                  const start = Date.parse(String(record.timestamp));
                  const path = String(record.path);
                  return {
                    traceId: Buffer.from(hex(32), "hex"),
                    spanId: Buffer.from(hex(16), "hex"),
                    name: `${String(record.method)} ${path}`,
                    kind: 2,
                    startTimeUnixNano: nanos(start),
                    endTimeUnixNano: nanos(start + Number(record.response_time_ms)),
                    attributes: [
                      attribute("http.request.method", record.method),
                      attribute("url.path", path),
                      attribute("http.response.status_code", record.status_code),
                      attribute("http.request.body.size", record.request_size),
                      attribute("http.response.body.size", record.response_size),
                      attribute("client.address", record.ip_address),
                      attribute("user_agent.original", record.user_agent),
                      attribute("enduser.id", record.consumer_id),
                      attribute("user.name", record.consumer_name),
                    ],
                  };
                }),
              },
            ],
          })),
        }),
      )
      .finish(),
  );
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  return typeof address === "object" && address !== null ? address.port : 0;
}

/** The server gets a clean environment plus any INGEST_* knobs set for the bench run. */
function passedThrough(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [name, value] of Object.entries(process.env)) if (name.startsWith("INGEST_")) env[name] = value;
  return env;
}

function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, "start"], {
    env: { ...passedThrough(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start within 60 s")), 60_000);
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (/API docs/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`the server exited with ${code} before starting:\n${out}`)),
    );
  });
}

/** CPU seconds a process has used so far (Linux /proc: user + system): its main thread
 *  (JavaScript) and all its threads (adding the engine's and the garbage collector's). */
async function cpuSeconds(pid: number): Promise<{ main: number; all: number } | null> {
  const read = async (path: string) => {
    const stat = await readFile(path, "utf8").catch(() => null);
    if (stat === null) return null;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const main = await read(`/proc/${pid}/task/${pid}/stat`);
  const all = await read(`/proc/${pid}/stat`);
  return main === null || all === null ? null : { main, all };
}

/** Peak resident set size of a process (Linux /proc), in MB. */
async function peakRssMb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => null);
  const kb = status === null ? null : /VmHWM:\s+(\d+)/.exec(status)?.[1];
  return kb === undefined || kb === null ? null : Math.round(Number(kb) / 1024);
}

interface Tally {
  accepted: number;
  requests: number;
  unavailable: number;
  failed: number;
  latencies: number[];
}

/** Where a scenario posts, and how it reads the number of stored records from a 200 answer. */
interface Target {
  readonly path: string;
  readonly contentType: string;
  accepted(answer: Buffer): number;
}

const REQUESTS_TARGET: Target = {
  path: "/api/v1/ingest/requests",
  contentType: "application/json",
  accepted: (answer) => (JSON.parse(answer.toString("utf8")) as { accepted: number }).accepted,
};

const OTLP_TARGET: Target = {
  path: "/api/v1/otlp/v1/traces",
  contentType: "application/x-protobuf",
  accepted(answer) {
    const { response } = OTLP_MESSAGES.traces;
    const decoded = response.toObject(response.decode(answer), { longs: Number }) as {
      partialSuccess?: { rejectedSpans?: number };
    };
    return BATCH - (decoded.partialSuccess?.rejectedSpans ?? 0);
  },
};

function post(
  agent: Agent,
  port: number,
  key: string,
  target: Target,
  body: Buffer,
): Promise<{ status: number; accepted: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: target.path,
        headers: { "content-type": target.contentType, "content-length": body.length, "x-api-key": key },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const accepted = res.statusCode === 200 ? target.accepted(Buffer.concat(chunks)) : 0;
          resolve({ status: res.statusCode ?? 0, accepted });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** CLIENTS closed-loop clients until `seconds` pass (or MAX_REQUESTS are sent). */
async function drive(
  port: number,
  key: string,
  target: Target,
  bodies: readonly Buffer[],
  seconds: number,
): Promise<Tally> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const tally: Tally = { accepted: 0, requests: 0, unavailable: 0, failed: 0, latencies: [] };
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const client = async () => {
    while (performance.now() < deadline && tally.requests < MAX_REQUESTS) {
      const body = bodies[next++ % bodies.length] as Buffer;
      const started = performance.now();
      tally.requests += 1;
      try {
        const { status, accepted } = await post(agent, port, key, target, body);
        tally.latencies.push(performance.now() - started);
        if (status === 200) tally.accepted += accepted;
        else if (status === 503) tally.unavailable += 1;
        else tally.failed += 1;
      } catch {
        tally.failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  agent.destroy();
  return tally;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);
}

/**
 * The baseline, run in a child process on a fresh data directory so nothing else shares the
 * engine: the bench's own rows, serialised as ingest serialises them (before the clock starts),
 * inserted straight into api_requests 10k rows at a time, as many rows as HTTP accepted —
 * a sustained run, so background merges weigh on it as they did on the HTTP run.
 */
async function baseline(rows: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "sightline-bench-baseline-"));
  try {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), "--baseline", dir, String(rows)],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`the baseline exited with ${code}`);
    return (JSON.parse(out) as { rowsPerSecond: number }).rowsPerSecond;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runBaseline(dir: string, rows: number): Promise<void> {
  const events = await openEventsExecutor({ chdbPath: join(dir, "events"), database: "bench_baseline" });
  try {
    await migrateEvents(events);
    const app = { id: "00000000-0000-4000-8000-000000000001", slug: "api" };
    const principal = { keyId: "bench", project: { id: "bench-project", slug: "bench" }, app: null };
    const perInsert = BASELINE_ROWS_PER_INSERT / BATCH;
    const chunks = Array.from({ length: BASELINE_CHUNKS }, (_, i) => {
      const batch = prepareBatch(
        requestKind,
        Array.from({ length: perInsert }, (_, j) =>
          records(((i * perInsert + j) % BODIES) + 1, app.slug),
        ).flat(),
        { principal, apps: [app], nowMs: Date.now(), retentionDays: 90 },
      );
      if (batch.chunk === null || batch.accepted !== BASELINE_ROWS_PER_INSERT)
        throw new Error("baseline rows rejected");
      return batch.chunk;
    });
    const inserts = Math.max(1, Math.ceil(rows / BASELINE_ROWS_PER_INSERT));
    const started = performance.now();
    for (let i = 0; i < inserts; i++) {
      const chunk = chunks[i % chunks.length] as RowChunk;
      await events.insert({
        table: "api_requests",
        columns: requestKind.table.columnNames,
        body: chunk.body,
        rowCount: chunk.rowCount,
      });
    }
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(JSON.stringify({ rowsPerSecond: (inserts * BASELINE_ROWS_PER_INSERT) / seconds }));
  } finally {
    await events.close();
  }
}

interface Measured {
  readonly warmup: Tally;
  readonly run: Tally;
  /** Server CPU seconds over the run: all threads, and the JavaScript thread. */
  readonly serverCpu: { main: number; all: number } | null;
  readonly clientCpuSeconds: number;
}

/** A warm-up, then the measured run with the server's and this process's CPU time around it. */
async function measure(
  pid: number,
  warm: () => Promise<Tally>,
  measured: () => Promise<Tally>,
): Promise<Measured> {
  const warmup = await warm();
  const serverBefore = await cpuSeconds(pid);
  const clientBefore = process.cpuUsage();
  const run = await measured();
  const serverAfter = await cpuSeconds(pid);
  const client = process.cpuUsage(clientBefore);
  return {
    warmup,
    run,
    serverCpu:
      serverBefore === null || serverAfter === null
        ? null
        : { main: serverAfter.main - serverBefore.main, all: serverAfter.all - serverBefore.all },
    clientCpuSeconds: (client.user + client.system) / 1e6,
  };
}

/** Prints one scenario's figures; returns its ratio to the baseline. */
function report(label: string, measured: Measured, baselineRate: number): number {
  const { run } = measured;
  const rate = run.accepted / SECONDS;
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  const unavailableShare = run.requests === 0 ? 0 : run.unavailable / run.requests;
  const ratio = rate / baselineRate;
  const cores = (seconds: number) => (seconds / SECONDS).toFixed(2);
  const serverCores =
    measured.serverCpu === null
      ? "n/a"
      : `${cores(measured.serverCpu.all)} (JS thread ${cores(measured.serverCpu.main)})`;
  say("");
  line("requests", `${run.requests} (${run.unavailable} answered 503, ${run.failed} other failures)`);
  line("accepted", `${Math.round(rate)} records/s (${label})`);
  line("latency", `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`, ["p99 < 150 ms", p99 < 150]);
  line("503 share", `${(unavailableShare * 100).toFixed(2)} %`, ["< 1 %", unavailableShare < 0.01]);
  line(
    "CPU",
    `server ${serverCores} cores, load generator ${cores(measured.clientCpuSeconds)} ` +
      `cores, of ${availableParallelism()}`,
  );
  line("baseline", `${Math.round(baselineRate)} rows/s (${run.accepted} rows, 10k-row inserts, no HTTP)`);
  line("ratio", `${ratio.toFixed(2)} of the baseline`, [">= 0.6", ratio >= 0.6]);
  return ratio;
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-"));
  let server: ChildProcess | undefined;
  try {
    const port = await freePort();
    say(
      `bench:ingest: ${CLIENTS} clients x ${BATCH}-record batches, ${SECONDS} s (+${WARMUP_SECONDS} s warm-up)`,
    );
    say(`data dir: ${dataDir}`);
    server = await startServer(dataDir, port);
    const setup = await setUpRemoteIngest(`http://127.0.0.1:${port}`, join(dataDir, "outbox"));
    const bodies = Array.from({ length: BODIES }, (_, i) =>
      Buffer.from(JSON.stringify({ requests: records(i + 1, setup.appSlug) })),
    );
    say(`body: ${(bodies[0]?.length ?? 0) / 1000} KB per ${BATCH} records`);

    const requests = await measure(
      server.pid as number,
      () => drive(port, setup.key, REQUESTS_TARGET, bodies, WARMUP_SECONDS),
      () => drive(port, setup.key, REQUESTS_TARGET, bodies, SECONDS),
    );
    const otlpBodies = Array.from({ length: BODIES }, (_, i) =>
      otlpBody(records(i + 1, setup.appSlug), setup.appSlug, i + 1),
    );
    say(`OTLP body: ${(otlpBodies[0]?.length ?? 0) / 1000} KB per ${BATCH} spans (protobuf)`);
    const otlp = await measure(
      server.pid as number,
      () => drive(port, setup.key, OTLP_TARGET, otlpBodies, WARMUP_SECONDS),
      () => drive(port, setup.key, OTLP_TARGET, otlpBodies, SECONDS),
    );
    const rss = await peakRssMb(server.pid as number);
    server.kill("SIGTERM");
    const [code] = (await once(server, "exit")) as [number | null];
    server = undefined;
    if (code !== 0) throw new Error(`the server exited with ${code}`);

    // Before this process opens the events directory: nothing else runs while it measures.
    const requestsBaseline = await baseline(requests.run.accepted);
    const otlpBaseline = await baseline(otlp.run.accepted);
    const events = await openEventsExecutor({ chdbPath: join(dataDir, "events"), database: "sightline" });
    const [row] = await events.query<{ n: number }>("SELECT count() AS n FROM sightline.api_requests");
    const [spanRow] = await events.query<{ n: number }>("SELECT count() AS n FROM sightline.api_spans");
    await events.close();
    const stored = row?.n ?? 0;
    const storedSpans = spanRow?.n ?? 0;
    const acceptedSpans = otlp.warmup.accepted + otlp.run.accepted;
    // Every OTLP span of the bench is a server span: each is one request record.
    const accepted =
      requests.warmup.accepted + requests.run.accepted + otlp.warmup.accepted + otlp.run.accepted;

    const requestsRatio = report("requests", requests, requestsBaseline);
    say("");
    say(`OTLP/HTTP protobuf traces (the same records as SERVER spans, ${BATCH} per export):`);
    const otlpRatio = report("OTLP", otlp, otlpBaseline);
    line("ratio/req", `${(otlpRatio / requestsRatio).toFixed(2)} of request ingest's ratio`, [
      ">= 1",
      otlpRatio >= requestsRatio,
    ]);
    say("");
    line("peak RSS", `${rss ?? "n/a"} MB (server)`, ["< 1024 MB", rss !== null && rss < 1024]);
    line("stored", `${stored} of ${accepted} accepted request records`, ["equal", stored === accepted]);
    line("spans", `${storedSpans} of ${acceptedSpans} accepted spans stored`, [
      "equal",
      storedSpans === acceptedSpans,
    ]);
    const complete = stored === accepted && storedSpans === acceptedSpans;
    return complete && requests.run.failed === 0 && otlp.run.failed === 0 ? 0 : 1;
  } finally {
    server?.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
}

const entry =
  process.argv[2] === "--baseline"
    ? runBaseline(process.argv[3] as string, Number(process.argv[4])).then(() => 0)
    : main();
entry.then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:ingest failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
