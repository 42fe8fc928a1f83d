// npm run bench:ingest — measured ingest throughput, per scenario: request records, spans, and
// OTLP/HTTP protobuf trace exports. Starts Sightline (the CLI, in a child process) on a temporary
// data directory, drives concurrent keep-alive clients posting 100-record batches to 127.0.0.1 for
// a fixed time per scenario, in rounds (every scenario once per round, in rotating order); after
// each, once the server is idle, inserts the same rows straight into the scenario's tables in
// 10k-row inserts (no HTTP), on one insert lane and on two, and takes the stronger as the
// baseline. It prints each scenario's median ratio with every round's figure. Then, per
// scenario, an open-loop run sends batches at a fixed rate of BENCH_OPEN_LOAD (0.7) of the
// capacity the rounds measured, each timed from when it was due (bench/open-loop.ts), for its
// p50/p95/p99. Last it checks stored == accepted. The OTLP scenario sends the request records as
// SERVER spans with HTTP semantic-convention attributes — each is stored twice, as a span and as
// a request record — and is compared with a baseline inserting both rows of each. The spans' and
// OTLP's ratios must each be at least the requests'.
// Knobs: BENCH_ROUNDS (default 3), BENCH_SECONDS (default 15), BENCH_CLIENTS (default 64),
// BENCH_WARMUP_SECONDS (default 3), BENCH_OPEN_SECONDS (default BENCH_SECONDS; stretched up to
// 120 s when needed for 1,000 answers), BENCH_OPEN_LOAD (default 0.7), BENCH_SCENARIOS (default
// "requests,spans,otlp,noisy-neighbour"; the last is bench/noisy-neighbour.ts, on servers of its
// own); INGEST_* variables are passed on to the server.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { Agent } from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AppRef } from "../packages/server/src/modules/ingest/directory.js";
import {
  type BatchContext,
  type PreparedBatch,
  prepareBatch,
  preparePlacedBatch,
} from "../packages/server/src/modules/ingest/ingest.pipeline.js";
import type { RecordKind, RowKind } from "../packages/server/src/modules/ingest/records.js";
import { requestKind } from "../packages/server/src/modules/ingest/requests.records.js";
import { spanKind } from "../packages/server/src/modules/ingest/spans.records.js";
import { decodeTraces, OTLP_MESSAGES } from "../packages/server/src/modules/otlp/otlp.decode.js";
import {
  otlpRequestRows,
  otlpSpanRows,
  type PlacedSpan,
  placeSpan,
  resourceIdentity,
  servesHttpRequest,
} from "../packages/server/src/modules/otlp/otlp.mapping.js";
import {
  applyTableSettings,
  type EventsTable,
  migrateEvents,
  openEventsExecutor,
  type RowChunk,
} from "../packages/server/src/stores/events/index.js";
import { setUpRemoteIngest } from "../packages/server/test/ingest/remote.js";
import { cpuSeconds, freePort, startServer } from "./instance.js";
import { NOISY_NEIGHBOUR, runNoisyNeighbour } from "./noisy-neighbour.js";
import {
  describeLatency,
  MIN_P99_SAMPLES,
  type OpenLoopResult,
  postBody,
  runOpenLoop,
  summarise,
} from "./open-loop.js";
import { BATCH, freshOtlpBody, otlpBody, requestRecords, spanRecords } from "./records.js";
import { median } from "./stats.js";
import { runWithAmplification } from "./amplification.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
/** The open-loop run per scenario: its length, and its arrival rate as a share of the capacity
 *  the closed-loop rounds measured (issue 21 §3: 70 %). */
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? SECONDS);
const OPEN_LOAD = Number(process.env.BENCH_OPEN_LOAD ?? 0.7);
/** The longest an open-loop run is stretched to collect MIN_P99_SAMPLES answers. */
const MAX_OPEN_SECONDS = 120;
/** Insert lanes of the engine baseline: one insert at a time, and two in flight (the chDB
 *  driver's two write sessions, as the server's writer uses them). */
const BASELINE_LANES = [1, 2] as const;
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Rounds of every scenario, then of every baseline: one sample each is at the mercy of a shared
 *  machine's neighbours (single runs put the same build anywhere from 0.39 to 0.58). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
/** 64 closed-loop clients keep about one 6,400-row insert in flight: see docs/performance.md. */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
/** Distinct bodies cycled by the clients; rows differ in ids and times anyway. */
const BODIES = 200;
/** A hard cap next to the time limit, so a runaway loop cannot post forever. */
const MAX_REQUESTS = 2_000_000;
const BASELINE_ROWS_PER_INSERT = 10_000;
/** Distinct pre-serialised 10k-row inserts the baseline cycles through (bounded memory). */
const BASELINE_CHUNKS = 20;

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** One figure: label, value, and the issue's target with PASS or MISS. */
function line(label: string, value: string, target?: readonly [string, boolean]): void {
  const verdict = target === undefined ? "" : `  [target ${target[0]}: ${target[1] ? "PASS" : "MISS"}]`;
  say(`${label.padEnd(10)}${value.padEnd(62)}${verdict}`.trimEnd());
}

interface Scenario {
  readonly name: "requests" | "spans" | "otlp";
  readonly path: string;
  readonly contentType: string;
  /** One posted body of BATCH records. */
  body(seed: number, appSlug: string): Buffer;
  /** The body to post as send number `send`, when a body posted again must carry new records. */
  fresh?(body: Buffer, send: number): Buffer;
  /** How many records an answer of 200 says were accepted. */
  accepted(answer: Buffer): number;
  /** The tables each accepted record is stored in. */
  readonly tables: readonly string[];
  /** The baseline: what one body stores, per table, built as the server builds it (no HTTP). */
  stored(seed: number, app: AppRef): Promise<ReadonlyArray<StoredRows>>;
}

interface StoredRows {
  readonly table: EventsTable;
  /** The inputs of one body, and how the server turns inputs into rows. */
  readonly inputs: readonly unknown[];
  prepare(inputs: readonly unknown[], context: BatchContext): PreparedBatch;
}

/** Rows of records posted to /ingest. */
function posted(kind: RecordKind<never>, records: readonly unknown[]): StoredRows {
  return {
    table: kind.table,
    inputs: records,
    prepare: (inputs, context) => prepareBatch(kind, inputs, context),
  };
}

/** The span rows and request rows the OTLP receiver builds from one export body. */
async function otlpStored(seed: number, app: AppRef): Promise<StoredRows[]> {
  const spans: PlacedSpan[] = [];
  const requests: PlacedSpan[] = [];
  for (const group of await decodeTraces(
    otlpBody(requestRecords(seed, app.slug), app.slug, seed),
    "protobuf",
  )) {
    const identity = resourceIdentity(group.resource);
    const to = { app, environment: identity.environment, serviceName: identity.serviceName };
    for (const span of group.items) {
      const placed = placeSpan(span, to);
      spans.push(placed);
      if (servesHttpRequest(span)) requests.push(placed);
    }
  }
  const placedRows = (kind: RowKind<PlacedSpan>, inputs: readonly PlacedSpan[]): StoredRows => ({
    table: kind.table,
    inputs,
    prepare: (batch, context) => preparePlacedBatch(kind, batch as readonly PlacedSpan[], context),
  });
  return [placedRows(otlpSpanRows, spans), placedRows(otlpRequestRows, requests)];
}

const jsonAccepted = (answer: Buffer) =>
  (JSON.parse(answer.toString("utf8")) as { accepted: number }).accepted;

const SCENARIOS: readonly Scenario[] = [
  {
    name: "requests",
    path: "/api/v1/ingest/requests",
    contentType: "application/json",
    body: (seed, appSlug) => Buffer.from(JSON.stringify({ requests: requestRecords(seed, appSlug) })),
    accepted: jsonAccepted,
    tables: ["api_requests"],
    stored: async (seed, app) => [posted(requestKind as RecordKind<never>, requestRecords(seed, app.slug))],
  },
  {
    name: "spans",
    path: "/api/v1/ingest/traces",
    contentType: "application/json",
    body: (seed, appSlug) => Buffer.from(JSON.stringify({ spans: spanRecords(seed, appSlug) })),
    accepted: jsonAccepted,
    tables: ["api_spans"],
    stored: async (seed, app) => [posted(spanKind as RecordKind<never>, spanRecords(seed, app.slug))],
  },
  {
    name: "otlp",
    path: "/api/v1/otlp/v1/traces",
    contentType: "application/x-protobuf",
    body: (seed, appSlug) => otlpBody(requestRecords(seed, appSlug), appSlug, seed),
    fresh: freshOtlpBody,
    accepted(answer) {
      const { response } = OTLP_MESSAGES.traces;
      const decoded = response.toObject(response.decode(answer), { longs: Number }) as {
        partialSuccess?: { rejectedSpans?: number };
      };
      return BATCH - (decoded.partialSuccess?.rejectedSpans ?? 0);
    },
    // Every span of this scenario is a SERVER span: one span row and one request record each,
    // and its baseline inserts both.
    tables: ["api_spans", "api_requests"],
    stored: otlpStored,
  },
];

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

async function post(
  agent: Agent,
  port: number,
  scenario: Scenario,
  key: string,
  body: Buffer,
): Promise<{ status: number; accepted: number }> {
  const answer = await postBody(
    agent,
    port,
    scenario.path,
    { "content-type": scenario.contentType, "x-api-key": key },
    body,
  );
  return { status: answer.status, accepted: answer.status === 200 ? scenario.accepted(answer.body) : 0 };
}

/** Bodies posted so far in this run, every scenario and round: what makes a fresh body new. */
let sends = 0;

/** CLIENTS closed-loop clients until `seconds` pass (or MAX_REQUESTS are sent). */
async function drive(
  port: number,
  scenario: Scenario,
  key: string,
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
      const posted = scenario.fresh?.(body, ++sends) ?? body;
      const started = performance.now();
      tally.requests += 1;
      try {
        const { status, accepted } = await post(agent, port, scenario, key, posted);
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

/** Seconds of open loop at `recordsPerSecond`: OPEN_SECONDS, or longer (up to MAX_OPEN_SECONDS)
 *  when that would send too few batches for a p99. */
function openSeconds(recordsPerSecond: number): number {
  const needed = Math.ceil(MIN_P99_SAMPLES / (recordsPerSecond / BATCH));
  return Math.min(MAX_OPEN_SECONDS, Math.max(OPEN_SECONDS, needed));
}

/** The open-loop run of one scenario: `recordsPerSecond` as 100-record batches, each body new. */
function driveOpen(
  port: number,
  scenario: Scenario,
  key: string,
  bodies: readonly Buffer[],
  recordsPerSecond: number,
): Promise<OpenLoopResult> {
  return runOpenLoop({
    batchesPerSecond: recordsPerSecond / BATCH,
    seconds: openSeconds(recordsPerSecond),
    send: (index, agent) => {
      const body = bodies[index % bodies.length] as Buffer;
      return post(agent, port, scenario, key, scenario.fresh?.(body, ++sends) ?? body);
    },
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);
}

/**
 * The baseline, run in a child process on a fresh data directory so nothing else shares the
 * engine: the rows the scenario stores, serialised as ingest serialises them (before the clock
 * starts), inserted straight into their tables 10k rows at a time, as many records as HTTP
 * accepted (OTLP: a span row and a request row each) — a sustained run, so background merges
 * weigh on it as they did on the HTTP run.
 */
async function baseline(scenario: Scenario, rows: number, lanes: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "sightline-bench-baseline-"));
  try {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        fileURLToPath(import.meta.url),
        "--baseline",
        scenario.name,
        dir,
        String(rows),
        String(lanes),
      ],
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

async function runBaseline(scenario: Scenario, dir: string, rows: number, lanes: number): Promise<void> {
  const events = await openEventsExecutor({ chdbPath: join(dir, "events"), database: "bench_baseline" });
  try {
    await migrateEvents(events);
    // The server's tables carry the driver's settings: so do the baseline's.
    await applyTableSettings(events);
    const app = { id: "00000000-0000-4000-8000-000000000001", slug: "api" };
    const principal = { keyId: "bench", project: { id: "bench-project", slug: "bench" }, app: null };
    const perInsert = BASELINE_ROWS_PER_INSERT / BATCH;
    // Per table the scenario stores: distinct 10k-row inserts built from the bench's bodies.
    // Decoding is asynchronous (paced): every body's rows first.
    const stored = await Promise.all(Array.from({ length: BODIES }, (_, k) => scenario.stored(k + 1, app)));
    const tables = (stored[0] ?? []).map(({ table: target, prepare }, table) => ({
      target,
      chunks: Array.from({ length: BASELINE_CHUNKS }, (_, i) => {
        const inputs = Array.from(
          { length: perInsert },
          (_, j) => stored[(i * perInsert + j) % BODIES]?.[table]?.inputs ?? [],
        ).flat();
        const batch = prepare(inputs, {
          principal,
          apps: [app],
          nowMs: Date.now(),
          retentionDays: 90,
          // The server's insert bodies (RowBinary by default), so the baseline is the engine's best.
          insertFormat: events.insertFormat,
        });
        if (batch.chunk === null || batch.accepted !== BASELINE_ROWS_PER_INSERT)
          throw new Error("baseline rows rejected");
        return batch.chunk;
      }),
    }));
    const inserts = Math.max(1, Math.ceil(rows / BASELINE_ROWS_PER_INSERT));
    const started = performance.now();
    // `lanes` workers take the next insert as soon as their previous one is stored: with two,
    // one insert is parsed while the other is written, as the server's writer does.
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < inserts; i = next++) {
        for (const { target, chunks } of tables) {
          const chunk = chunks[i % chunks.length] as RowChunk;
          await events.insert({
            table: target.name,
            columns: target.columnNames,
            body: chunk.body,
            rowCount: chunk.rowCount,
            ...(chunk.format === undefined ? {} : { format: chunk.format }),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(JSON.stringify({ rowsPerSecond: (inserts * BASELINE_ROWS_PER_INSERT) / seconds }));
  } finally {
    await events.close();
  }
}

interface ScenarioRun {
  readonly scenario: Scenario;
  readonly warmup: Tally;
  readonly run: Tally;
  /** Cores the server used while measured: all its threads, and its JavaScript thread. */
  readonly serverCores: { readonly all: number; readonly main: number } | null;
  readonly clientCores: number;
}

/** Warm-up, then the measured run of one scenario against the running server. */
async function runScenario(
  scenario: Scenario,
  bodies: readonly Buffer[],
  server: ChildProcess,
  port: number,
  key: string,
): Promise<ScenarioRun> {
  const warmup = await drive(port, scenario, key, bodies, WARMUP_SECONDS);
  const serverCpuBefore = await cpuSeconds(server.pid as number);
  const clientCpuBefore = process.cpuUsage();
  const run = await drive(port, scenario, key, bodies, SECONDS);
  const serverCpuAfter = await cpuSeconds(server.pid as number);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  return {
    scenario,
    warmup,
    run,
    serverCores:
      serverCpuBefore === null || serverCpuAfter === null
        ? null
        : {
            all: (serverCpuAfter.all - serverCpuBefore.all) / SECONDS,
            main: (serverCpuAfter.main - serverCpuBefore.main) / SECONDS,
          },
    clientCores: (clientCpu.user + clientCpu.system) / 1e6 / SECONDS,
  };
}

/** Waits until the server uses under a tenth of a core (its merges done), for at most 60 s. */
async function idle(pid: number): Promise<void> {
  const deadline = performance.now() + 60_000;
  let before = await cpuSeconds(pid);
  while (before !== null && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await cpuSeconds(pid);
    if (after === null || after.all - before.all < 0.1) return;
    before = after;
  }
}

/** The scenarios in round `round`'s order: rotated, so none always meets the fullest tables. */
function rotated<T>(items: readonly T[], round: number): T[] {
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const scenarioNames = () =>
  (process.env.BENCH_SCENARIOS ?? `requests,spans,otlp,${NOISY_NEIGHBOUR}`)
    .split(",")
    .map((name) => name.trim());

function selectedScenarios(): Scenario[] {
  const names = scenarioNames();
  const chosen = SCENARIOS.filter((scenario) => names.includes(scenario.name));
  if (chosen.length === 0 && !names.includes(NOISY_NEIGHBOUR))
    throw new Error(`BENCH_SCENARIOS names none of ${SCENARIOS.map((s) => s.name).join(", ")}`);
  return chosen;
}

async function main(): Promise<number> {
  const scenarios = selectedScenarios();
  let code = scenarios.length > 0 ? await throughput(scenarios) : 0;
  if (scenarioNames().includes(NOISY_NEIGHBOUR)) {
    if (!(await runNoisyNeighbour({ startServer, freePort, idle, say, line }))) code = 1;
  }
  return code;
}

async function throughput(scenarios: readonly Scenario[]): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-"));
  let server: ChildProcess | undefined;
  try {
    const port = await freePort();
    say(
      `bench:ingest: ${scenarios.map((s) => s.name).join(", ")}; ${CLIENTS} clients x ${BATCH}-record ` +
        `batches, ${ROUNDS} rounds of ${SECONDS} s each (+${WARMUP_SECONDS} s warm-up)`,
    );
    say(`data dir: ${dataDir}`);
    server = await startServer(dataDir, port);
    const setup = await setUpRemoteIngest(`http://127.0.0.1:${port}`, join(dataDir, "outbox"));
    const bodies = new Map<Scenario, Buffer[]>();
    for (const scenario of scenarios) {
      const made = Array.from({ length: BODIES }, (_, i) => scenario.body(i + 1, setup.appSlug));
      bodies.set(scenario, made);
      say(`${scenario.name}: ${(made[0]?.length ?? 0) / 1000} KB per ${BATCH} records`);
    }
    // Each round runs every scenario and then its baseline, once the server is idle: a ratio
    // pairs two measurements a minute apart, not the whole run apart, and no scenario pays for
    // the merges of the one before.
    const runs = new Map<Scenario, ScenarioRun[]>(scenarios.map((scenario) => [scenario, []]));
    /** Per scenario, per round: the baseline's rows/s on each of BASELINE_LANES. */
    const baselines = new Map<Scenario, number[][]>(scenarios.map((scenario) => [scenario, []]));
    const pid = server.pid as number;
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of rotated(scenarios, round)) {
        await idle(pid);
        const run = await runScenario(scenario, bodies.get(scenario) ?? [], server, port, setup.key);
        runs.get(scenario)?.push(run);
        await idle(pid);
        const laneRates: number[] = [];
        for (const lanes of BASELINE_LANES) laneRates.push(await baseline(scenario, run.run.accepted, lanes));
        baselines.get(scenario)?.push(laneRates);
        say(
          `round ${round + 1}: ${scenario.name} ${Math.round(run.run.accepted / SECONDS)} records/s, ` +
            `baseline ${BASELINE_LANES.map((lanes, k) => `${lanes} lane(s) ${Math.round(laneRates[k] ?? 0)}`).join(", ")}`,
        );
      }
    }
    // Open loop, once the capacity is known: a fixed arrival rate at OPEN_LOAD of it.
    const open = new Map<Scenario, { rate: number; result: OpenLoopResult }>();
    for (const scenario of scenarios) {
      const capacity = median((runs.get(scenario) ?? []).map(({ run }) => run.accepted / SECONDS));
      const rate = capacity * OPEN_LOAD;
      await idle(pid);
      const result = await driveOpen(port, scenario, setup.key, bodies.get(scenario) ?? [], rate);
      open.set(scenario, { rate, result });
      say(
        `open loop: ${scenario.name} at ${Math.round(rate)} records/s, ${describeLatency(result.latencies)}`,
      );
    }
    const rss = await peakRssMb(pid);
    server.kill("SIGTERM");
    const [code] = (await once(server, "exit")) as [number | null];
    server = undefined;
    if (code !== 0) throw new Error(`the server exited with ${code}`);

    const events = await openEventsExecutor({ chdbPath: join(dataDir, "events"), database: "sightline" });
    const stored = new Map<string, number>();
    for (const table of new Set(scenarios.flatMap((scenario) => scenario.tables))) {
      const [row] = await events.query<{ n: number }>(`SELECT count() AS n FROM sightline.${table}`);
      stored.set(table, row?.n ?? 0);
    }
    await events.close();
    const expected = new Map<string, number>();
    for (const [scenario, scenarioRuns] of runs) {
      const openAccepted = open.get(scenario)?.result.accepted ?? 0;
      for (const table of scenario.tables) {
        expected.set(table, (expected.get(table) ?? 0) + openAccepted);
        for (const { warmup, run } of scenarioRuns)
          expected.set(table, (expected.get(table) ?? 0) + warmup.accepted + run.accepted);
      }
    }

    let ok = true;
    const ratios = new Map<string, number>();
    const figures = (values: readonly number[], digits = 0) =>
      values.map((value) => value.toFixed(digits)).join(" / ");
    for (const [scenario, scenarioRuns] of runs) {
      const rates = scenarioRuns.map(({ run }) => run.accepted / SECONDS);
      const laneRounds = baselines.get(scenario) ?? [];
      // Each round's ratio is to the stronger of its baselines (issue 21 §3: two lanes reach far
      // more than one, and the ceiling is what the ratio is measured against).
      const baselineRates = laneRounds.map((rounds) => Math.max(...rounds));
      const roundRatios = rates.map((rate, round) => rate / (baselineRates[round] ?? Number.NaN));
      const ratio = median(roundRatios);
      ratios.set(scenario.name, ratio);
      const requests = scenarioRuns.reduce((sum, { run }) => sum + run.requests, 0);
      const unavailable = scenarioRuns.reduce((sum, { run }) => sum + run.unavailable, 0);
      const failed = scenarioRuns.reduce((sum, { run }) => sum + run.failed, 0);
      const sorted = scenarioRuns.flatMap(({ run }) => run.latencies).sort((a, b) => a - b);
      const p50 = percentile(sorted, 0.5);
      const p99 = percentile(sorted, 0.99);
      const unavailableShare = requests === 0 ? 0 : unavailable / requests;
      const measured = scenarioRuns.flatMap(({ serverCores }) => (serverCores === null ? [] : [serverCores]));
      const serverCores =
        measured.length === 0
          ? "n/a"
          : `${mean(measured.map(({ all }) => all)).toFixed(2)} (JS thread ${mean(measured.map(({ main }) => main)).toFixed(2)})`;
      ok &&= failed === 0;
      say("");
      say(`-- ${scenario.name} (${scenario.path} -> ${scenario.tables.join(", ")})`);
      line("requests", `${requests} (${unavailable} answered 503, ${failed} other failures)`);
      line("accepted", `${Math.round(median(rates))} records/s median (rounds: ${figures(rates)})`);
      line("latency", `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (closed loop: ${CLIENTS} clients)`);
      line("503 share", `${(unavailableShare * 100).toFixed(2)} %`, ["< 1 %", unavailableShare < 0.01]);
      line(
        "CPU",
        `server ${serverCores} cores, load generator ` +
          `${mean(scenarioRuns.map(({ clientCores }) => clientCores)).toFixed(2)} cores, of ${availableParallelism()}`,
      );
      for (const [k, lanes] of BASELINE_LANES.entries()) {
        const laneRates = laneRounds.map((rounds) => rounds[k] ?? Number.NaN);
        line(
          `base ${lanes}L`,
          `${Math.round(median(laneRates))} records/s median (rounds: ${figures(laneRates)}; ${lanes} insert ` +
            `lane${lanes === 1 ? "" : "s"} into ${scenario.tables.join(" + ")}, 10k-row inserts, no HTTP)`,
        );
      }
      line("baseline", `${Math.round(median(baselineRates))} records/s median of each round's stronger`);
      line("ratio", `${ratio.toFixed(2)} of the baseline median (rounds: ${figures(roundRatios, 2)})`, [
        ">= 0.6",
        ratio >= 0.6,
      ]);
      const opened = open.get(scenario);
      if (opened !== undefined) {
        const { rate, result } = opened;
        const summary = summarise(result.latencies);
        ok &&= result.failed === 0;
        line(
          "open loop",
          `${Math.round(rate)} records/s offered (${OPEN_LOAD} of ${Math.round(median(rates))}) for ` +
            `${openSeconds(rate)} s: ${result.ok} of ${result.scheduled} batches 200, ${result.unavailable} 503, ` +
            `${result.failed} failed, ${result.dropped} not sent (generator lagged at worst ` +
            `${result.worstSendLagMs.toFixed(0)} ms)`,
        );
        line("open lat.", describeLatency(result.latencies), [
          "p99 < 150 ms",
          summary !== null && summary.p99 < 150 && result.dropped === 0,
        ]);
      }
    }
    say("");
    line("peak RSS", `${rss ?? "n/a"} MB (server, whole run)`, ["< 1024 MB", rss !== null && rss < 1024]);
    for (const [table, rows] of stored) {
      const want = expected.get(table) ?? 0;
      ok &&= rows === want;
      line("stored", `${rows} of ${want} accepted rows in ${table}`, ["equal", rows === want]);
    }
    const requestsRatio = ratios.get("requests");
    for (const name of ["spans", "otlp"]) {
      const ratio = ratios.get(name);
      if (requestsRatio === undefined || ratio === undefined) continue;
      line(name, `ratio ${ratio.toFixed(2)} vs requests ${requestsRatio.toFixed(2)} (medians)`, [
        ">= requests' ratio",
        ratio >= requestsRatio,
      ]);
    }
    return ok ? 0 : 1;
  } finally {
    server?.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
}

const entry =
  process.argv[2] === "--baseline"
    ? runBaseline(
        SCENARIOS.find((scenario) => scenario.name === process.argv[3]) as Scenario,
        process.argv[4] as string,
        Number(process.argv[5]),
        Number(process.argv[6] ?? 1),
      ).then(() => 0)
    : // BENCH_SCENARIOS naming "amplification" adds bench/amplification.ts, on a server of its own.
      runWithAmplification(main, { startServer, freePort, peakRssMb, say, line });
entry.then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:ingest failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
