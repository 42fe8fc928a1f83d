// npm run bench:sdk-instructions — what @sightline/node costs per request in figures the machine's
// load cannot move: instructions (valgrind's callgrind) and V8 heap allocation and garbage
// collections, for bare apps and instrumented ones side by side (BENCH_SDK_BEFORE = the path of
// another build's package.json adds that build, so a change is measured before/after in one run).
//
// Instructions: each app runs under `valgrind --tool=callgrind --instr-atstart=no`, is warmed up
// uninstrumented (BENCH_WARMUP requests), then instrumented (callgrind_control -i on) and driven
// for BENCH_ROUNDS rounds of BENCH_REQUESTS requests; each round's count includes the batches the
// SDK ships after it (the round waits past the flush interval). Printed per variant: instructions
// per request of the main thread (JavaScript, the event loop, scavenges) and of all threads (also
// gzip on the libuv pool and V8's concurrent GC and compiler threads), medians over the rounds
// with their range, and what the SDK adds to bare. The heartbeat is off: under valgrind a
// minute spans ~100× fewer requests than natively.
// Heap: a native run per variant with young space large enough (BENCH_SEMI_SPACE_MB) that no GC
// runs while BENCH_ALLOC_REQUESTS requests are served: heapUsed after minus before, per request,
// is what a request allocates (the run says so if a GC did run). A second native run with V8's
// defaults counts scavenges and mark-compacts per 10,000 requests (BENCH_GC_REQUESTS).
// Knobs: BENCH_FRAMEWORKS (express,fastify,hono), BENCH_WORKLOAD (hello | work: the same after
// about 0.5 ms of CPU, bench/sdk-work.ts), BENCH_PARTS (heap,instructions),
// BENCH_CONNECTIONS (4), BENCH_CALLGRIND_KEEP (a directory: keep each app's callgrind dump of
// the measured rounds, `<framework>-<variant>.callgrind`, and V8's map of its JIT code,
// `<framework>-<variant>.perf-map`, for `bench/callgrind-js.ts` to name the JavaScript frames).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { type SdkVariant, sdkVariants } from "./sdk-variants.js";
import { median } from "./stats.js";
import { workEnv } from "./sdk-work.js";

const FRAMEWORKS = (process.env.BENCH_FRAMEWORKS ?? "express,fastify,hono").split(",");
const WORKLOAD = process.env.BENCH_WORKLOAD ?? "hello";
const PARTS = (process.env.BENCH_PARTS ?? "heap,instructions").split(",");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
const ALLOC_REQUESTS = Number(process.env.BENCH_ALLOC_REQUESTS ?? 5000);
const GC_REQUESTS = Number(process.env.BENCH_GC_REQUESTS ?? 20_000);
const SEMI_SPACE_MB = Number(process.env.BENCH_SEMI_SPACE_MB ?? 512);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const BEFORE = process.env.BENCH_SDK_BEFORE;
const KEEP = process.env.BENCH_CALLGRIND_KEEP;
/** The SDK's default flush interval plus room: a round's count includes the batches it caused. */
const SETTLE_MS = 2600;

const APP = fileURLToPath(new URL("./sdk-app.ts", import.meta.url));
const SINK = fileURLToPath(new URL("./sdk-sink.ts", import.meta.url));

const VARIANTS = sdkVariants(BEFORE);

interface App {
  child: ChildProcess;
  url: string;
}

const say = (text = "") => process.stdout.write(`${text}\n`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
const int = (n: number) => Math.round(n).toLocaleString("en-US");

async function startSink(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", SINK], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    out += chunk.toString();
    if (out.includes("\n")) break;
  }
  return { child, url: (JSON.parse(out.slice(0, out.indexOf("\n"))) as { url: string }).url };
}

async function startApp(
  framework: string,
  variant: SdkVariant,
  sink: string,
  prefix: string[],
  nodeFlags: string[],
  extraEnv: NodeJS.ProcessEnv,
): Promise<App> {
  const argv = [
    ...prefix,
    process.execPath,
    ...nodeFlags,
    "--import",
    "tsx",
    APP,
    framework,
    variant.mode,
    WORKLOAD,
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extraEnv,
    ...(WORKLOAD === "work" ? workEnv() : {}),
    NODE_ENV: "production",
    SIGHTLINE_URL: sink,
    SIGHTLINE_API_KEY: "sl_bench",
    SIGHTLINE_APP: "bench",
    SIGHTLINE_ENVIRONMENT: "bench",
  };
  if (variant.sdkPackage !== undefined) env.BENCH_SDK_PACKAGE = variant.sdkPackage;
  const child = spawn(argv[0] as string, argv.slice(1), {
    env,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const exited = once(child, "exit").then(() => {
    throw new Error(`${framework}/${variant.name} exited before listening:\n${errors}`);
  });
  const [message] = (await Promise.race([once(child, "message"), exited])) as [{ port: number }];
  return { child, url: `http://127.0.0.1:${message.port}/orders/42` };
}

async function stop(app: App): Promise<void> {
  if (app.child.exitCode !== null) return;
  app.child.kill("SIGTERM");
  await once(app.child, "exit");
}

/** Drives `amount` requests; returns how many were answered 2xx. Under valgrind a connection
 *  now and then fails (the app is ~100× slower): warm-ups try again, measured rounds divide by
 *  the answers actually served. */
async function drive(app: App, amount: number): Promise<number> {
  const result = await autocannon({ url: app.url, connections: CONNECTIONS, amount, timeout: 120 });
  const served = result["2xx"];
  if (served < amount * 0.9) {
    throw new Error(`errors while driving ${app.url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  }
  return served;
}

async function ask<T>(app: App, message: string): Promise<T> {
  const answer = once(app.child, "message") as Promise<[T]>;
  app.child.send(message);
  return (await answer)[0];
}

interface Heap {
  heapUsed: number;
  minor: number;
  major: number;
}

/** Bytes of V8 heap per request: the median of up to three windows in which no GC ran (a
 *  memory-reducing GC now and then still does; NaN if every window had one). */
async function allocation(framework: string, variant: SdkVariant, sink: string): Promise<number> {
  const app = await startApp(
    framework,
    variant,
    sink,
    [],
    ["--expose-gc", `--min-semi-space-size=${SEMI_SPACE_MB}`, `--max-semi-space-size=${SEMI_SPACE_MB}`],
    { BENCH_GC_COUNT: "1" },
  );
  try {
    await drive(app, WARMUP);
    await sleep(SETTLE_MS);
    const clean: number[] = [];
    for (let window = 0; window < 3; window += 1) {
      await ask(app, "memory"); // a full GC: the young space starts empty
      const before = await ask<Heap>(app, "heap");
      await drive(app, ALLOC_REQUESTS);
      await sleep(SETTLE_MS);
      const after = await ask<Heap>(app, "heap");
      if (after.minor === before.minor && after.major === before.major) {
        clean.push((after.heapUsed - before.heapUsed) / ALLOC_REQUESTS);
      }
    }
    return clean.length === 0 ? Number.NaN : median(clean);
  } finally {
    await stop(app);
  }
}

/** Scavenges and other GCs (mark-compacts, incremental marking) per 10,000 requests with V8's default heap settings. */
async function collections(
  framework: string,
  variant: SdkVariant,
  sink: string,
): Promise<{ minor: number; major: number }> {
  const app = await startApp(framework, variant, sink, [], [], { BENCH_GC_COUNT: "1" });
  try {
    await drive(app, WARMUP);
    await sleep(SETTLE_MS);
    const before = await ask<Heap>(app, "heap");
    await drive(app, GC_REQUESTS);
    await sleep(SETTLE_MS);
    const after = await ask<Heap>(app, "heap");
    const per = 10_000 / GC_REQUESTS;
    return { minor: (after.minor - before.minor) * per, major: (after.major - before.major) * per };
  } finally {
    await stop(app);
  }
}

/** Instructions so far: the main thread's (callgrind's thread 1) and all threads'. */
function instructions(pid: number): { main: number; all: number } {
  const out = spawnSync("callgrind_control", ["-e", String(pid)], { encoding: "utf8" }).stdout;
  let main = 0;
  let all = 0;
  for (const match of out.matchAll(/^\s*Th (\d+)\s+([\d,]+)/gm)) {
    const count = Number((match[2] as string).replaceAll(",", ""));
    all += count;
    if (match[1] === "1") main = count;
  }
  if (all === 0) throw new Error(`no counts from callgrind_control for ${pid}:\n${out}`);
  return { main, all };
}

function control(pid: number, ...args: string[]): void {
  const run = spawnSync("callgrind_control", [...args, String(pid)], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`callgrind_control ${args.join(" ")} failed: ${run.stderr}`);
}

function row(name: string, cells: string[]): string {
  return `${name.padEnd(12)} ${cells.map((c) => c.padStart(26)).join(" ")}`;
}

const spread = (values: number[]) =>
  `${int(median(values))} (${int(Math.min(...values))}–${int(Math.max(...values))})`;

async function instructionPart(framework: string, sink: string, outDir: string): Promise<void> {
  const prefix = [
    "valgrind",
    "--tool=callgrind",
    "--instr-atstart=no",
    `--callgrind-out-file=${join(outDir, "callgrind.%p")}`,
  ];
  // Started and warmed up together: valgrind's start-up is the slow part; counts are per process.
  // --perf-basic-prof: V8 writes /tmp/perf-<pid>.map, the only names its JIT code has (and,
  // without --logfile, a v8.log per isolate in the working directory).
  const flags =
    KEEP === undefined ? [] : ["--perf-basic-prof", "--no-logfile-per-isolate", "--logfile=/dev/null"];
  const apps = await Promise.all(
    VARIANTS.map((variant) =>
      startApp(framework, variant, sink, prefix, flags, { BENCH_SDK_HEARTBEAT: "0" }),
    ),
  );
  try {
    await Promise.all(apps.map((app) => drive(app, WARMUP)));
    for (const app of apps) control(app.child.pid as number, "-i", "on");
    // The code is translated again once instrumented: a few more requests before counting.
    await Promise.all(apps.map((app) => drive(app, Math.min(WARMUP, 200))));
    await sleep(SETTLE_MS);
    if (KEEP !== undefined) for (const app of apps) control(app.child.pid as number, "-z");
    const main: number[][] = VARIANTS.map(() => []);
    const all: number[][] = VARIANTS.map(() => []);
    const served = VARIANTS.map(() => 0);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let i = 0; i < apps.length; i += 1) {
        const index = (i + round) % apps.length;
        const app = apps[index] as App;
        const before = instructions(app.child.pid as number);
        const answered = await drive(app, REQUESTS);
        await sleep(SETTLE_MS);
        const after = instructions(app.child.pid as number);
        main[index]?.push((after.main - before.main) / answered);
        all[index]?.push((after.all - before.all) / answered);
        served[index] = (served[index] ?? 0) + answered;
      }
    }
    if (KEEP !== undefined) keepProfiles(framework, apps, served, outDir);
    say(`\n${framework} / ${WORKLOAD} — instructions per request (load average ${load()})`);
    say(row("variant", ["main thread (range)", "added to bare", "all threads (range)", "added to bare"]));
    VARIANTS.forEach((variant, index) => {
      const ownMain = main[index] as number[];
      const ownAll = all[index] as number[];
      const addedMain = median(ownMain) - median(main[0] as number[]);
      const addedAll = median(ownAll) - median(all[0] as number[]);
      say(
        row(variant.name, [
          spread(ownMain),
          index === 0 ? "—" : int(addedMain),
          spread(ownAll),
          index === 0 ? "—" : int(addedAll),
        ]),
      );
    });
  } finally {
    await Promise.all(apps.map(stop));
  }
}

/** Dumps each app's counts since the zeroing (the measured rounds) and keeps them with its JIT map. */
function keepProfiles(framework: string, apps: App[], served: number[], outDir: string): void {
  mkdirSync(KEEP as string, { recursive: true });
  apps.forEach((app, index) => {
    const pid = app.child.pid as number;
    control(pid, "-d");
    const dump = readdirSync(outDir).find((name) => name.startsWith(`callgrind.${pid}.`));
    if (dump === undefined) throw new Error(`no callgrind dump for ${pid} in ${outDir}`);
    const name = `${framework}-${(VARIANTS[index] as SdkVariant).name}`;
    copyFileSync(join(outDir, dump), join(KEEP as string, `${name}.callgrind`));
    copyFileSync(`/tmp/perf-${pid}.map`, join(KEEP as string, `${name}.perf-map`));
    rmSync(`/tmp/perf-${pid}.map`, { force: true });
    writeFileSync(join(KEEP as string, `${name}.json`), JSON.stringify({ requests: served[index] }));
  });
}

async function heapPart(framework: string, sink: string): Promise<void> {
  const rows: string[] = [];
  let bareBytes = 0;
  let bareMinor = 0;
  for (const [index, variant] of VARIANTS.entries()) {
    const bytes = await allocation(framework, variant, sink);
    const gc = await collections(framework, variant, sink);
    if (index === 0) {
      bareBytes = bytes;
      bareMinor = gc.minor;
    }
    rows.push(
      row(variant.name, [
        Number.isNaN(bytes) ? "GC in every window" : int(bytes),
        index === 0 ? "—" : int(bytes - bareBytes),
        gc.minor.toFixed(1),
        index === 0 ? "—" : (gc.minor - bareMinor).toFixed(1),
        gc.major.toFixed(1),
      ]),
    );
  }
  say(
    `\n${framework} / ${WORKLOAD} — V8 heap per request and GCs per 10,000 requests (load average ${load()})`,
  );
  say(row("variant", ["heap bytes/request", "added", "scavenges/10k", "added", "other GCs/10k"]));
  for (const line of rows) say(line);
}

say(
  `bench:sdk-instructions  ${FRAMEWORKS.join(",")}; instructions: ${ROUNDS} rounds × ${REQUESTS} requests after ` +
    `${WARMUP} warm-up; heap: ${ALLOC_REQUESTS} requests (young space ${SEMI_SPACE_MB} MB), GCs over ` +
    `${GC_REQUESTS}; ${CONNECTIONS} connections; node ${process.version}; load average ${load()}`,
);
if (PARTS.includes("instructions") && spawnSync("valgrind", ["--version"]).status !== 0) {
  throw new Error("valgrind is needed for the instruction counts (or BENCH_PARTS=heap)");
}
const sink = await startSink();
const outDir = mkdtempSync(join(tmpdir(), "sdk-instructions-"));
try {
  for (const framework of FRAMEWORKS) {
    if (PARTS.includes("heap")) await heapPart(framework, sink.url);
    if (PARTS.includes("instructions")) await instructionPart(framework, sink.url, outDir);
  }
} finally {
  sink.child.kill("SIGTERM");
  await once(sink.child, "exit");
  rmSync(outDir, { recursive: true, force: true });
}
