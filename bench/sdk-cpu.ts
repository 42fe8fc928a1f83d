// npm run bench:sdk-cpu — the app-process CPU time @sightline/node adds per request, measured
// finely enough to compare two builds of the SDK in one run on a noisy shared machine. For each
// framework, one app process per variant (bare; this checkout's SDK to a null sink; optionally a
// second build, BENCH_SDK_BEFORE = the path of its package.json) stays up for the whole run, app
// pinned to CPU 0 and sink to CPU 1 (taskset, when there is one). Each round drives every app,
// in rotating order, with the same number of requests from autocannon in this process, and reads
// the app's on-CPU nanoseconds (all threads, /proc/<pid>/task/*/schedstat) before and after —
// trailing record shipping included. Per round, each variant's µs per request minus bare's of the
// same round is its added CPU; printed: the median of those paired differences and their range.
// On-CPU time, unlike throughput, barely moves when other processes take turns on the core.
// Knobs: BENCH_FRAMEWORKS (express,fastify,hono), BENCH_REQUESTS (20000 a round),
// BENCH_ROUNDS (9), BENCH_CONNECTIONS (16), BENCH_WORKLOAD (hello), BENCH_SDK_BEFORE (none).
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { type BenchProcess, PIN, startApp, startSink } from "./sdk-processes.js";
import { sdkVariants } from "./sdk-variants.js";
import { median } from "./stats.js";

const FRAMEWORKS = (process.env.BENCH_FRAMEWORKS ?? "express,fastify,hono").split(",");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WORKLOAD = process.env.BENCH_WORKLOAD ?? "hello";
const BEFORE = process.env.BENCH_SDK_BEFORE;

const VARIANTS = sdkVariants(BEFORE);

const say = (text = "") => process.stdout.write(`${text}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

/** Nanoseconds on CPU of every thread of a process. */
function cpuNs(pid: number | undefined): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total;
}

/** µs of app CPU per request over `REQUESTS` requests (and the shipping that trails them). */
async function measure(app: BenchProcess): Promise<number> {
  const before = cpuNs(app.child.pid);
  const result = await autocannon({ url: app.url, connections: CONNECTIONS, amount: REQUESTS });
  // The SDK flushes its queue on a short timer: let the last batch go before reading.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const spent = cpuNs(app.child.pid) - before;
  if (result.errors + result.non2xx > 0) throw new Error(`errors while driving ${app.url}`);
  return spent / 1000 / result.requests.total;
}

say(
  `bench:sdk-cpu  ${REQUESTS} requests a round, ${ROUNDS} rounds, ${CONNECTIONS} connections, workload ${WORKLOAD}; ` +
    `node ${process.version}, ${PIN ? "app on CPU 0, sink on CPU 1" : "not pinned"}, load average ${load()}`,
);
const sink = await startSink();
try {
  for (const framework of FRAMEWORKS) {
    const apps = [];
    for (const variant of VARIANTS) apps.push(await startApp(framework, variant, WORKLOAD, sink.url));
    try {
      for (const app of apps) await autocannon({ url: app.url, connections: CONNECTIONS, amount: REQUESTS });
      const perRound: number[][] = VARIANTS.map(() => []);
      for (let round = 0; round < ROUNDS; round += 1) {
        for (let i = 0; i < apps.length; i += 1) {
          const index = (i + round) % apps.length;
          perRound[index]?.push(await measure(apps[index] as BenchProcess));
        }
      }
      const bare = perRound[0] as number[];
      say(`\n${framework} / ${WORKLOAD} (load average ${load()})`);
      say("variant      CPU µs/req (median)   added µs (median of paired, range)   ratio to bare");
      VARIANTS.forEach((variant, index) => {
        const own = perRound[index] as number[];
        const added = own.map((v, round) => v - (bare[round] as number));
        const ratios = own.map((v, round) => v / (bare[round] as number));
        say(
          `${variant.name.padEnd(12)} ${median(own).toFixed(1).padStart(19)}   ` +
            `${median(added).toFixed(1).padStart(8)} (${Math.min(...added).toFixed(1)} – ${Math.max(...added).toFixed(1)})`.padEnd(
              37,
            ) +
            `   ${median(ratios).toFixed(3)}`,
        );
      });
    } finally {
      for (const app of apps) {
        app.child.kill("SIGTERM");
        await once(app.child, "exit");
      }
    }
  }
} finally {
  sink.child.kill("SIGTERM");
  await once(sink.child, "exit");
}
