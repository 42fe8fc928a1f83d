// bench:ingest's "amplification" scenario: sends the amplification bodies (OTLP's 4.5 M empty
// spans in 8.8 KB of gzip, 1 M empty spans, deep AnyValue nesting, 10k attributes, and the
// /ingest bodies generated from the routes' schemas), BENCH_AMPLIFICATION_CLIENTS at once, while
// another client polls GET /api/v1/health; reports the poll's worst latency and p99 against the
// target (< 200 ms), each body's answer and the server's peak RSS. Runs on a server of its own
// when BENCH_SCENARIOS names "amplification". Timing lives here, never in the test suite.
// Knobs: BENCH_AMPLIFICATION_CLIENTS (default 3), BENCH_AMPLIFICATION_ROUNDS (default 2).
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { setUpRemoteIngest } from "../packages/server/test/ingest/remote.js";
import {
  type AmplificationBody,
  amplifiedJsonBodies,
  otlpAmplificationBodies,
} from "../packages/server/test/support/amplification.js";
import { type OpenApiDocument, operationsOf, sample } from "../packages/server/test/support/openapi-cases.js";

const CLIENTS = Math.max(1, Number(process.env.BENCH_AMPLIFICATION_CLIENTS ?? 3));
const ROUNDS = Math.max(1, Number(process.env.BENCH_AMPLIFICATION_ROUNDS ?? 2));
/** The health poll's target: the event loop is never held long enough to delay it more. */
const TARGET_MS = 200;
/** Pause between health polls. */
const POLL_EVERY_MS = 10;
/** INGEST_MAX_BODY's default, less room for the envelope. */
const BUDGET = 10 * 1024 * 1024 - 1024;

export const AMPLIFICATION = "amplification";

/** What bench/ingest.ts lends the scenario. */
export interface BenchTools {
  readonly startServer: (dataDir: string, port: number) => Promise<ChildProcess>;
  readonly freePort: () => Promise<number>;
  readonly peakRssMb: (pid: number) => Promise<number | null>;
  readonly say: (text: string) => void;
  readonly line: (label: string, value: string, target?: readonly [string, boolean]) => void;
}

/**
 * Runs `throughput` (bench:ingest's other scenarios) unless BENCH_SCENARIOS names this scenario
 * alone, then this scenario when BENCH_SCENARIOS names it; 1 when either missed its targets.
 */
export async function runWithAmplification(
  throughput: () => Promise<number>,
  tools: BenchTools,
): Promise<number> {
  const names = (process.env.BENCH_SCENARIOS ?? "").split(",").map((name) => name.trim());
  const others = names.filter((name) => name !== AMPLIFICATION && name !== "");
  const code = process.env.BENCH_SCENARIOS === undefined || others.length > 0 ? await throughput() : 0;
  if (!names.includes(AMPLIFICATION)) return code;
  return (await runAmplification(tools)) ? code : 1;
}

async function runAmplification(tools: BenchTools): Promise<boolean> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-amplification-"));
  let server: ChildProcess | undefined;
  try {
    const port = await tools.freePort();
    server = await tools.startServer(dataDir, port);
    const setup = await setUpRemoteIngest(`http://127.0.0.1:${port}`, join(dataDir, "outbox"));
    const met = await amplify({ ...tools, port, key: setup.key, appSlug: setup.appSlug });
    const rss = await tools.peakRssMb(server.pid as number);
    tools.line("peak RSS", `${rss ?? "n/a"} MB (server, whole scenario)`);
    server.kill("SIGTERM");
    await once(server, "exit");
    server = undefined;
    return met;
  } finally {
    server?.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
}

interface AmplificationTarget extends BenchTools {
  readonly port: number;
  readonly key: string;
  readonly appSlug: string;
}

interface Sent {
  readonly path: string;
  readonly body: AmplificationBody;
}

interface Answer {
  readonly status: number;
  readonly ms: number;
}

function send(agent: Agent, port: number, key: string, sent: Sent): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: sent.path,
        headers: {
          "content-type": sent.body.contentType,
          "content-length": sent.body.payload.length,
          "x-api-key": key,
          ...(sent.body.contentEncoding === undefined
            ? {}
            : { "content-encoding": sent.body.contentEncoding }),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(sent.body.payload);
  });
}

/** One health poll: when it was sent and answered (performance.now()). */
interface Poll {
  readonly start: number;
  readonly end: number;
}

/** GET /api/v1/health in a loop until `stop()` resolves; every poll's times. */
function pollHealth(port: number): { stop: () => Promise<Poll[]> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const polls: Poll[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      await new Promise<void>((resolve) => {
        const req = request({ agent, host: "127.0.0.1", port, path: "/api/v1/health" }, (res) => {
          res.resume();
          res.on("end", () => resolve());
        });
        req.on("error", () => resolve());
        req.end();
      });
      polls.push({ start, end: performance.now() });
      await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
      return polls;
    },
  };
}

/** The bodies: the schema-generated /ingest ones (gzip-coded, as a hostile client sends them)
 *  and OTLP's hand-written ones. */
async function bodiesOf(port: number, appSlug: string): Promise<Sent[]> {
  const doc = (await (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).json()) as OpenApiDocument;
  const sent: Sent[] = [];
  for (const operation of operationsOf(doc)) {
    const path = operation.template;
    const otlp = /\/otlp\/v1\/(traces|logs)$/.exec(path)?.[1] as "traces" | "logs" | undefined;
    if (otlp !== undefined) {
      for (const body of otlpAmplificationBodies(otlp, BUDGET)) sent.push({ path, body });
    } else if (path.includes("/ingest/") && operation.body !== undefined) {
      const base = sample(operation.body.schema, undefined, { app_id: appSlug });
      for (const body of amplifiedJsonBodies(operation.body.schema, base, BUDGET)) {
        sent.push({
          path,
          body: { ...body, contentEncoding: "gzip", payload: gzipSync(body.payload) },
        });
      }
    }
  }
  return sent;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);
}

/** Runs the scenario against a running server; true when the poll's worst latency meets the target. */
async function amplify(target: AmplificationTarget): Promise<boolean> {
  const { port, key, say, line } = target;
  const bodies = await bodiesOf(port, target.appSlug);
  say("");
  say(
    `-- ${AMPLIFICATION}: ${bodies.length} bodies, ${CLIENTS} at once, ${ROUNDS} rounds; GET /api/v1/health ` +
      `polled every ${POLL_EVERY_MS} ms meanwhile`,
  );
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const poll = pollHealth(port);
  const sent: Array<{ label: string; answers: Answer[]; windows: Array<[number, number]> }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, body] of bodies.entries()) {
      const entry = (sent[i] ??= {
        label: `${body.path.replace("/api/v1", "")} ${body.body.label}`,
        answers: [],
        windows: [],
      });
      const start = performance.now();
      entry.answers.push(
        ...(await Promise.all(Array.from({ length: CLIENTS }, () => send(agent, port, key, body)))),
      );
      entry.windows.push([start, performance.now()]);
    }
  }
  const polls = await poll.stop();
  agent.destroy();
  // A poll counts against a body when it was in flight while the body was being answered.
  const worstPollIn = (windows: ReadonlyArray<[number, number]>) =>
    Math.max(
      0,
      ...polls
        .filter((p) => windows.some(([from, to]) => p.end >= from && p.start <= to))
        .map((p) => p.end - p.start),
    );
  say(`${"body".padEnd(72)} ${"status".padEnd(8)} slowest answer / worst poll meanwhile`);
  for (const { label, answers, windows } of sent) {
    const statuses = [...new Set(answers.map((answer) => answer.status))].join("/");
    const slowest = Math.max(...answers.map((answer) => answer.ms));
    say(
      `${label.slice(0, 72).padEnd(72)} ${statuses.padEnd(8)} ${slowest.toFixed(0)} ms / ` +
        `${worstPollIn(windows).toFixed(0)} ms`,
    );
  }
  const latencies = polls.map((p) => p.end - p.start).sort((a, b) => a - b);
  const worst = latencies.at(-1) ?? 0;
  const p99 = percentile(latencies, 0.99);
  const ingestWorst = worstPollIn(
    sent.filter((s) => s.label.startsWith("/ingest/")).flatMap((s) => s.windows),
  );
  line("polls", `${latencies.length}, p50 ${percentile(latencies, 0.5).toFixed(1)} ms`);
  line("poll p99", `${p99.toFixed(1)} ms`, [`< ${TARGET_MS} ms`, p99 < TARGET_MS]);
  line("worst", `${worst.toFixed(1)} ms`, [`< ${TARGET_MS} ms`, worst < TARGET_MS]);
  line("/ingest", `worst poll while /ingest bodies were answered: ${ingestWorst.toFixed(1)} ms`, [
    `< ${TARGET_MS} ms`,
    ingestWorst < TARGET_MS,
  ]);
  return (
    worst < TARGET_MS && sent.every(({ answers }) => answers.every((a) => a.status > 0 && a.status < 500))
  );
}
