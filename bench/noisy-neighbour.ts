// bench:ingest's "noisy neighbour" scenario: whether one project's flood slows or refuses another
// project's ingest. On a fresh server per setting, a victim project posts BENCH_NOISY_VICTIM_BATCH
// (20) records a batch open-loop at BENCH_NOISY_VICTIM_RATE (50) batches/s (1,000 records/s, a
// busy but modest app), latency counted from each batch's intended send time, first alone and
// then while a hostile project floods the same server from another process with
// BENCH_NOISY_CLIENTS (32) closed-loop clients posting 100-record batches and ignoring
// Retry-After. It prints the victim's p99 alone and beside the flood, their ratio (target <= 1.5)
// and the victim's 503 share (target 0), with the 429 shares of both: BENCH_NOISY_ROUNDS
// (BENCH_ROUNDS, 3) pairs of BENCH_NOISY_SECONDS (BENCH_SECONDS, 15), each run once the server is
// idle, the ratio the median of the pairs'. Settings (BENCH_NOISY_SETTINGS, default
// "defaults,limited"): `defaults`, the server as configured (no limit reached: as before
// per-project admission); `limited`, INGEST_PROJECT_RATE = INGEST_PROJECT_BURST =
// BENCH_NOISY_PROJECT_RATE (2000) records/s for every project, twice the victim's rate. This file
// run with `--flood` is the hostile child.
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setUpRemoteIngest } from "../packages/server/test/ingest/remote.js";
import { runOpenLoop } from "./open-loop.js";
import { requestRecords } from "./records.js";
import { median } from "./stats.js";

export const NOISY_NEIGHBOUR = "noisy-neighbour";

const SECONDS = Number(process.env.BENCH_NOISY_SECONDS ?? process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Pairs of runs (alone, beside the flood); the ratio is the median of the pairs'. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_NOISY_ROUNDS ?? process.env.BENCH_ROUNDS ?? 3));
const VICTIM_RATE = Number(process.env.BENCH_NOISY_VICTIM_RATE ?? 50);
/** Records per victim batch; the hostile always posts 100. */
const VICTIM_BATCH = Number(process.env.BENCH_NOISY_VICTIM_BATCH ?? 20);
const HOSTILE_CLIENTS = Number(process.env.BENCH_NOISY_CLIENTS ?? 32);
const PROJECT_RATE = process.env.BENCH_NOISY_PROJECT_RATE ?? "2000";
/** Seconds the flood runs before the victim is measured beside it. */
const FLOOD_LEAD_SECONDS = 1;
const BODIES = 50;
const PATH = "/api/v1/ingest/requests";

/** What bench/ingest.ts lends the scenario: its server start-up and its printing. */
export interface NoisyNeighbourHost {
  startServer(dataDir: string, port: number, env: Readonly<Record<string, string>>): Promise<ChildProcess>;
  freePort(): Promise<number>;
  /** Resolves once the server's CPU is idle (its merges done). */
  idle(pid: number): Promise<void>;
  say(text: string): void;
  line(label: string, value: string, target?: readonly [string, boolean]): void;
}

interface Setting {
  readonly name: string;
  readonly describe: string;
  readonly env: Readonly<Record<string, string>>;
}

const SETTINGS: readonly Setting[] = [
  { name: "defaults", describe: "server defaults (no per-project limit reached)", env: {} },
  {
    name: "limited",
    describe: `INGEST_PROJECT_RATE = INGEST_PROJECT_BURST = ${PROJECT_RATE} records/s`,
    env: { INGEST_PROJECT_RATE: PROJECT_RATE, INGEST_PROJECT_BURST: PROJECT_RATE },
  },
];

/** Answers by status, and the victim's latencies. */
interface Tally {
  sent: number;
  ok: number;
  limited: number;
  unavailable: number;
  other: number;
  latencies: number[];
}

const emptyTally = (): Tally => ({ sent: 0, ok: 0, limited: 0, unavailable: 0, other: 0, latencies: [] });

function count(tally: Tally, status: number): void {
  if (status === 200) tally.ok += 1;
  else if (status === 429) tally.limited += 1;
  else if (status === 503) tally.unavailable += 1;
  else tally.other += 1;
}

/** One POST; resolves with the status (0 when the connection failed). */
function post(agent: Agent, port: number, key: string, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method: "POST",
        path: PATH,
        headers: { "content-type": "application/json", "content-length": body.length, "x-api-key": key },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

const bodiesFor = (appSlug: string, seed: number, size: number) =>
  Array.from({ length: BODIES }, (_, i) =>
    Buffer.from(JSON.stringify({ requests: requestRecords(seed + i, appSlug, size) })),
  );

/** The victim: a batch every 1/VICTIM_RATE s for `seconds`, each timed from when it was due. */
async function victim(port: number, key: string, bodies: readonly Buffer[], seconds: number): Promise<Tally> {
  const result = await runOpenLoop({
    batchesPerSecond: VICTIM_RATE,
    seconds,
    send: async (index, agent) => ({
      status: await post(agent, port, key, bodies[index % bodies.length] as Buffer),
      accepted: 0,
    }),
  });
  return {
    sent: result.scheduled - result.dropped,
    ok: result.ok,
    limited: result.limited,
    unavailable: result.unavailable,
    other: result.failed + result.dropped,
    latencies: [...result.latencies],
  };
}

type FloodMessage = { type: "stop" } | { type: "tally"; tally: Tally; seconds: number };

/** The hostile child: closed-loop clients posting as fast as they can until told to stop. */
async function flood(port: number, key: string, appSlug: string, clients: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const bodies = bodiesFor(appSlug, 1_000, 100);
  const tally = emptyTally();
  let stopping = false;
  process.on("message", (message: FloodMessage) => {
    if (message.type === "stop") stopping = true;
  });
  const started = performance.now();
  let next = 0;
  const client = async () => {
    while (!stopping) {
      tally.sent += 1;
      count(tally, await post(agent, port, key, bodies[next++ % bodies.length] as Buffer));
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  agent.destroy();
  process.send?.({
    type: "tally",
    tally,
    seconds: (performance.now() - started) / 1000,
  } satisfies FloodMessage);
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const percent = (value: number) => `${(value * 100).toFixed(2)} %`;

interface Round {
  readonly solo: Tally;
  readonly beside: Tally;
  readonly hostile: Tally;
  readonly hostileSeconds: number;
}

/** Starts the hostile child; `stop()` ends the flood and resolves with what it saw. */
function startFlood(port: number, key: string, appSlug: string) {
  const child = fork(
    fileURLToPath(import.meta.url),
    ["--flood", String(port), key, appSlug, String(HOSTILE_CLIENTS)],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  const exited = once(child, "exit");
  const report = new Promise<{ tally: Tally; seconds: number }>((resolve, reject) => {
    child.on("message", (message: FloodMessage) => {
      if (message.type === "tally") resolve(message);
    });
    child.once("exit", (code) => reject(new Error(`the flood exited with ${code} before reporting`)));
  });
  return {
    kill: () => child.kill("SIGKILL"),
    async stop() {
      child.send({ type: "stop" } satisfies FloodMessage);
      const result = await report;
      await exited;
      return result;
    },
  };
}

/** One setting on a fresh server: ROUNDS of the victim alone, then beside the flood, each
 *  started once the server is idle. True when nothing failed outside 200/429/503. */
async function runSetting(host: NoisyNeighbourHost, setting: Setting): Promise<boolean> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-bench-noisy-"));
  let server: ChildProcess | undefined;
  let flood: ReturnType<typeof startFlood> | undefined;
  try {
    const port = await host.freePort();
    server = await host.startServer(dataDir, port, setting.env);
    const pid = server.pid as number;
    const baseUrl = `http://127.0.0.1:${port}`;
    const outbox = join(dataDir, "outbox");
    const victimSetup = await setUpRemoteIngest(baseUrl, outbox, {
      owner: "victim@example.com",
      project: "Victim",
    });
    const hostileSetup = await setUpRemoteIngest(baseUrl, outbox, {
      owner: "hostile@example.com",
      project: "Hostile",
    });
    const bodies = bodiesFor(victimSetup.appSlug, 1, VICTIM_BATCH);
    await victim(port, victimSetup.key, bodies, WARMUP_SECONDS);

    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await host.idle(pid);
      const solo = await victim(port, victimSetup.key, bodies, SECONDS);
      await host.idle(pid);
      flood = startFlood(port, hostileSetup.key, hostileSetup.appSlug);
      await new Promise((resolve) => setTimeout(resolve, FLOOD_LEAD_SECONDS * 1000));
      const beside = await victim(port, victimSetup.key, bodies, SECONDS);
      const flooded = await flood.stop();
      flood = undefined;
      rounds.push({ solo, beside, hostile: flooded.tally, hostileSeconds: flooded.seconds });
    }

    const p = (tallies: readonly Tally[], q: number) =>
      percentile(
        tallies.flatMap((tally) => tally.latencies),
        q,
      );
    const solos = rounds.map((round) => round.solo);
    const besides = rounds.map((round) => round.beside);
    const roundRatios = rounds.map((round) => p([round.beside], 0.99) / p([round.solo], 0.99));
    const ratio = median(roundRatios);
    const sum = (tallies: readonly Tally[], field: "sent" | "ok" | "limited" | "unavailable" | "other") =>
      tallies.reduce((total, tally) => total + tally[field], 0);
    const hostiles = rounds.map((round) => round.hostile);
    const hostileSeconds = rounds.reduce((total, round) => total + round.hostileSeconds, 0);
    const victimSent = sum(besides, "sent");
    const hostileSent = sum(hostiles, "sent");
    const figures = (values: readonly number[], digits: number) =>
      values.map((value) => value.toFixed(digits)).join(" / ");

    host.say("");
    host.say(`-- ${NOISY_NEIGHBOUR}, ${setting.name}: ${setting.describe}`);
    host.line(
      "victim",
      `${VICTIM_RATE} batches/s of ${VICTIM_BATCH} records, open loop; ${HOSTILE_CLIENTS} hostile clients, closed loop`,
    );
    host.line(
      "solo",
      `p50 ${p(solos, 0.5).toFixed(1)} ms, p99 ${p(solos, 0.99).toFixed(1)} ms ` +
        `(rounds' p99: ${figures(
          rounds.map((round) => p([round.solo], 0.99)),
          0,
        )})`,
    );
    host.line(
      "beside",
      `p50 ${p(besides, 0.5).toFixed(1)} ms, p99 ${p(besides, 0.99).toFixed(1)} ms ` +
        `(rounds' p99: ${figures(
          rounds.map((round) => p([round.beside], 0.99)),
          0,
        )})`,
    );
    host.line(
      "p99 ratio",
      `${ratio.toFixed(2)} median, beside / alone (rounds: ${figures(roundRatios, 2)})`,
      ["<= 1.5", ratio <= 1.5],
    );
    host.line("p50 ratio", `${(p(besides, 0.5) / p(solos, 0.5)).toFixed(2)} (all rounds' batches)`);
    host.line(
      "503 share",
      `${percent(share(sum(besides, "unavailable"), victimSent))} of the victim's batches beside the flood`,
      ["0", sum(besides, "unavailable") + sum(solos, "unavailable") === 0],
    );
    host.line(
      "429 share",
      `${percent(share(sum(besides, "limited"), victimSent))} of the victim's batches beside the flood; ` +
        `other failures ${sum(besides, "other") + sum(solos, "other")}`,
    );
    host.line(
      "hostile",
      `${Math.round(hostileSent / hostileSeconds)} requests/s, ` +
        `${Math.round((sum(hostiles, "ok") * 100) / hostileSeconds)} records/s accepted; ` +
        `429 ${percent(share(sum(hostiles, "limited"), hostileSent))}, ` +
        `503 ${percent(share(sum(hostiles, "unavailable"), hostileSent))}`,
    );
    return sum(solos, "other") + sum(besides, "other") + sum(hostiles, "other") === 0;
  } finally {
    flood?.kill();
    if (server !== undefined) {
      server.kill("SIGTERM");
      await once(server, "exit");
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Every selected setting in turn; true when none saw a failure other than 429 or 503. */
export async function runNoisyNeighbour(host: NoisyNeighbourHost): Promise<boolean> {
  const names = (process.env.BENCH_NOISY_SETTINGS ?? "defaults,limited")
    .split(",")
    .map((name) => name.trim());
  const settings = SETTINGS.filter((setting) => names.includes(setting.name));
  if (settings.length === 0)
    throw new Error(`BENCH_NOISY_SETTINGS names none of ${SETTINGS.map((s) => s.name).join(", ")}`);
  host.say("");
  host.say(
    `${NOISY_NEIGHBOUR}: ${settings.map((s) => s.name).join(", ")}; victim ${VICTIM_RATE} batches/s for ` +
      `${SECONDS} s alone and ${SECONDS} s beside ${HOSTILE_CLIENTS} flooding clients (+${WARMUP_SECONDS} s warm-up)`,
  );
  let ok = true;
  for (const setting of settings) ok = (await runSetting(host, setting)) && ok;
  return ok;
}

if (process.argv[2] === "--flood") {
  const [port, key, appSlug, clients] = process.argv.slice(3);
  flood(Number(port), key as string, appSlug as string, Number(clients)).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(
        `noisy-neighbour flood failed: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
