// npm run bench:sdk-profile — where @sightline/node's per-request cost goes at steady state,
// function by function. For each framework, one app process per variant (bare, this build, and
// with BENCH_SDK_BEFORE another build's package.json) is warmed up with BENCH_WARMUP requests
// (20,000: V8 has optimised the SDK's functions well before that), then profiled in place over
// BENCH_REQUESTS more, trailing batches included: V8's sampling heap profiler counting every
// allocation (collected ones too) — bytes per request, which the machine's load does not move —
// and its CPU profiler, whose samples are wall-clock ticks of the main thread (a share, not µs,
// on a shared core). Ownership as in bench/sdk-attribution.ts. App pinned to CPU 0, sink to CPU 1.
// Knobs: BENCH_FRAMEWORKS (express,fastify), BENCH_WARMUP, BENCH_REQUESTS (5000),
// BENCH_CONNECTIONS (16), BENCH_WORKLOAD (hello), BENCH_SDK_BEFORE, BENCH_TOP (12).
import { once } from "node:events";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import type { Attribution } from "./sdk-attribution.js";
import { type BenchProcess, PIN, startApp, startSink } from "./sdk-processes.js";
import { sdkVariants } from "./sdk-variants.js";

const FRAMEWORKS = (process.env.BENCH_FRAMEWORKS ?? "express,fastify").split(",");
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WORKLOAD = process.env.BENCH_WORKLOAD ?? "hello";
const TOP = Number(process.env.BENCH_TOP ?? 12);
/** The SDK's default flush interval plus room: the profile includes the batches it caused. */
const SETTLE_MS = 2600;

const VARIANTS = sdkVariants();

type App = BenchProcess;

const say = (text = "") => process.stdout.write(`${text}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

async function ask(app: App, message: object): Promise<unknown> {
  const answer = once(app.child, "message");
  app.child.send(message);
  const [reply] = (await answer) as [{ answer: unknown }];
  return reply.answer;
}

async function drive(app: App, amount: number): Promise<void> {
  const result = await autocannon({ url: app.url, connections: CONNECTIONS, amount });
  if (result.errors + result.non2xx > 0) throw new Error(`errors while driving ${app.url}`);
}

async function profiled(app: App, kind: "heap" | "cpu"): Promise<Attribution> {
  await ask(app, { profile: kind, phase: "start", requests: REQUESTS });
  await drive(app, REQUESTS);
  await sleep(SETTLE_MS);
  return (await ask(app, { profile: kind, phase: "stop", requests: REQUESTS })) as Attribution;
}

function report(unit: string, figures: Attribution[], digits: number): void {
  const bare = figures[0] as Attribution;
  say(`variant      ${unit.padStart(12)}   added to bare   SDK-owned   GC`);
  VARIANTS.forEach((variant, index) => {
    const own = figures[index] as Attribution;
    say(
      `${variant.name.padEnd(12)} ${own.total.toFixed(digits).padStart(12)}   ${(own.total - bare.total).toFixed(digits).padStart(13)}` +
        `   ${own.sdk.toFixed(digits).padStart(9)}   ${own.gc.toFixed(digits)}`,
    );
  });
  VARIANTS.forEach((variant, index) => {
    if (index === 0) return;
    say(`  ${variant.name}, SDK-owned ${unit} by function:`);
    for (const [name, value] of (figures[index] as Attribution).byFunction.slice(0, TOP)) {
      say(`    ${value.toFixed(digits).padStart(9)}  ${name}`);
    }
  });
}

say(
  `bench:sdk-profile  warm-up ${WARMUP}, ${REQUESTS} requests profiled, ${CONNECTIONS} connections, workload ${WORKLOAD}; ` +
    `node ${process.version}, ${PIN ? "app on CPU 0, sink on CPU 1" : "not pinned"}, load average ${load()}`,
);
const sink = await startSink();
try {
  for (const framework of FRAMEWORKS) {
    const apps: App[] = [];
    for (const variant of VARIANTS)
      // A heartbeat landing in one variant's window and not another's would be noise.
      apps.push(await startApp(framework, variant, WORKLOAD, sink.url, { BENCH_SDK_HEARTBEAT: "0" }));
    try {
      for (const app of apps) await drive(app, WARMUP);
      const heap: Attribution[] = [];
      const cpu: Attribution[] = [];
      for (const app of apps) heap.push(await profiled(app, "heap"));
      for (const app of apps) cpu.push(await profiled(app, "cpu"));
      say(`\n${framework} / ${WORKLOAD}: V8 heap bytes allocated per request (load average ${load()})`);
      report("B/request", heap, 0);
      say(
        `\n${framework} / ${WORKLOAD}: main-thread CPU samples (100 µs ticks) per request (load average ${load()})`,
      );
      report("ticks/req", cpu, 3);
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
