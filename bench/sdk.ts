// npm run bench:sdk — what @sightline/node costs a host app. For Express, Fastify and Hono: the
// same JSON route served (a) bare, (b) with @sightline/node sending to a real local Sightline,
// (c) with @sightline/node sending to a sink that only acknowledges (the SDK's own cost, without
// a co-located Sightline's ingest work on the same cores), (d) with apitally and its default
// options (its hub pointed at a closed loopback port; it sends per-minute aggregates), each
// app in a child process driven by autocannon at a fixed concurrency for the same time, in
// rotating order over several rounds. Prints requests/s and its ratio to (a), p50/p99, and the
// app process's CPU time per request (all threads, from /proc) with what the SDK adds to it. Then 1 M requests to a Fastify app whose Sightline is unreachable: RSS and
// heap growth. Knobs: BENCH_SECONDS (10), BENCH_ROUNDS (3), BENCH_CONNECTIONS (32),
// BENCH_SOAK_REQUESTS (1000000), BENCH_FRAMEWORKS (express,fastify,hono).
import { type ChildProcess, fork, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SOAK_REQUESTS = Number(process.env.BENCH_SOAK_REQUESTS ?? 1_000_000);
const FRAMEWORKS = (process.env.BENCH_FRAMEWORKS ?? "express,fastify,hono").split(",");
const VARIANTS = ["bare", "sightline", "sink", "apitally"] as const;
type Variant = (typeof VARIANTS)[number];
/** Nothing listens here: connections are refused at once, without leaving the machine. */
const UNREACHABLE = "http://127.0.0.1:9";

const APP = fileURLToPath(new URL("./sdk-app.ts", import.meta.url));
const SIGHTLINE = fileURLToPath(new URL("./sdk-sightline.ts", import.meta.url));

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of the app process (all its threads) per request, µs. */
  cpuUs: number;
}
interface Memory {
  memory: NodeJS.MemoryUsage;
  stats?: { requests: { sent: number; dropped: number; failed: number; queued: number } };
}

function say(text = ""): void {
  process.stdout.write(`${text}\n`);
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

async function startSightline(): Promise<{ child: ChildProcess; url: string; key: string; app: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", SIGHTLINE], {
    env: { ...process.env, TEST_LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    out += chunk.toString();
    if (out.includes("\n")) break;
  }
  return {
    child,
    ...(JSON.parse(out.slice(0, out.indexOf("\n"))) as { url: string; key: string; app: string }),
  };
}

async function startApp(
  framework: string,
  variant: Variant,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(APP, [framework, variant], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    env: { ...process.env, ...env, NODE_ENV: "production" },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const [message] = (await once(child, "message")) as [{ port: number }];
  return { child, url: `http://127.0.0.1:${message.port}/orders/42` };
}

async function memoryOf(child: ChildProcess): Promise<Memory> {
  const answer = once(child, "message") as Promise<[Memory]>;
  child.send("memory");
  return (await answer)[0];
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

/** CPU seconds a process has used (Linux /proc: user + system, all threads). */
async function cpuSeconds(pid: number | undefined): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function drive(url: string, seconds: number, pid?: number): Promise<Sample> {
  const cpuBefore = await cpuSeconds(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  const cpu = (await cpuSeconds(pid)) - cpuBefore;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuUs: result.requests.total > 0 ? (cpu * 1e6) / result.requests.total : Number.NaN,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Acknowledges every batch without reading it, so the receiving end costs next to nothing. */
async function startSink(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function compare(
  framework: string,
  sightline: { url: string; key: string; app: string },
  sink: string,
) {
  const samples: Record<Variant, Sample[]> = { bare: [], sightline: [], sink: [], apitally: [] };
  let delivered = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotating the order spreads slow drift of a shared machine over all three.
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length] as Variant);
    for (const variant of order) {
      const app = await startApp(framework, variant === "sink" ? "sightline" : variant, {
        SIGHTLINE_URL: variant === "sink" ? sink : sightline.url,
        SIGHTLINE_API_KEY: sightline.key,
        SIGHTLINE_APP: sightline.app,
        SIGHTLINE_ENVIRONMENT: "bench",
        APITALLY_HUB_BASE_URL: UNREACHABLE,
      });
      await drive(app.url, 2);
      const sample = await drive(app.url, SECONDS, app.child.pid);
      samples[variant].push(sample);
      if (variant === "sightline") {
        await new Promise((resolve) => setTimeout(resolve, 2500));
        delivered += (await memoryOf(app.child)).stats?.requests.sent ?? 0;
      }
      await stop(app.child);
    }
  }
  const row = (variant: Variant) => {
    const rps = median(samples[variant].map((s) => s.rps));
    const bare = median(samples.bare.map((s) => s.rps));
    const cpuUs = median(samples[variant].map((s) => s.cpuUs));
    const addedUs = cpuUs - median(samples.bare.map((s) => s.cpuUs));
    return {
      variant,
      rps,
      cpuUs,
      p50: median(samples[variant].map((s) => s.p50)),
      p99: median(samples[variant].map((s) => s.p99)),
      addedUs,
      ratio: rps / bare,
      errors: samples[variant].reduce((sum, s) => sum + s.errors, 0),
    };
  };
  const rows = VARIANTS.map(row);
  say(`\n${framework} (median of ${ROUNDS} rounds, load average ${load()})`);
  say("variant     req/s  ratio   p50 ms  p99 ms  app CPU µs/req  added µs/req  errors");
  for (const r of rows) {
    say(
      `${r.variant.padEnd(10)}${r.rps.toFixed(0).padStart(7)}  ${r.ratio.toFixed(3)}  ${r.p50.toFixed(2).padStart(6)}  ` +
        `${r.p99.toFixed(2).padStart(6)}  ${r.cpuUs.toFixed(1).padStart(14)}  ${r.addedUs.toFixed(1).padStart(12)}  ${r.errors}`,
    );
  }
  const [, ours, , theirs] = rows as ReturnType<typeof row>[] as [
    ReturnType<typeof row>,
    ReturnType<typeof row>,
    ReturnType<typeof row>,
    ReturnType<typeof row>,
  ];
  say(`records stored by Sightline from the instrumented runs: ${delivered}`);
  say(
    `targets: sightline >= 0.95 of bare: ${ours.ratio >= 0.95 ? "met" : "MISSED"} (${ours.ratio.toFixed(3)}); ` +
      `ahead of apitally: ${ours.rps > theirs.rps ? "met" : "MISSED"} (${(ours.rps / theirs.rps).toFixed(3)}x)`,
  );
}

async function soak(): Promise<void> {
  const app = await startApp("fastify", "sightline", {
    SIGHTLINE_URL: UNREACHABLE,
    SIGHTLINE_API_KEY: "sl_unreachable",
    SIGHTLINE_APP: "bench",
  });
  await autocannon({ url: app.url, connections: CONNECTIONS, amount: 50_000 });
  const before = await memoryOf(app.child);
  const began = Date.now();
  const result = await autocannon({
    url: app.url,
    connections: CONNECTIONS,
    amount: SOAK_REQUESTS,
    timeout: 30,
  });
  const after = await memoryOf(app.child);
  await stop(app.child);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const growth = after.memory.rss - before.memory.rss;
  say(
    `\nsoak: ${result.requests.total} requests to Fastify + @sightline/node, Sightline unreachable, ${((Date.now() - began) / 1000).toFixed(0)} s, load average ${load()}`,
  );
  say(
    `RSS ${mb(before.memory.rss)} -> ${mb(after.memory.rss)} MB (growth ${mb(growth)} MB), heap used ${mb(before.memory.heapUsed)} -> ${mb(after.memory.heapUsed)} MB (after gc)`,
  );
  say(`SDK counts: ${JSON.stringify(after.stats?.requests)}`);
  say(`target: RSS growth < 50 MB: ${growth < 50 * 1024 * 1024 ? "met" : "MISSED"}`);
}

say(
  `bench:sdk  ${SECONDS} s per run, ${CONNECTIONS} connections, ${ROUNDS} rounds; node ${process.version}, ${cpus().length} CPUs, load average ${load()}`,
);
const sightline = await startSightline();
const sink = await startSink();
try {
  for (const framework of FRAMEWORKS) await compare(framework, sightline, sink.url);
  if (SOAK_REQUESTS > 0) await soak();
} finally {
  sink.close();
  await stop(sightline.child);
}
