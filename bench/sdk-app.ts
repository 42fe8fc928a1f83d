// One app process of `npm run bench:sdk`: a framework (express | fastify | hono) serving one
// JSON route, bare or instrumented (sightline | apitally with its defaults), either at once
// (hello) or after about 0.5 ms of CPU work (work, sdk-work.ts). Reports its port, and on
// request its memory and the SDK's counts, over the IPC channel it was started with.
import type { HeapProfiler } from "node:inspector";
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";
import { constants, PerformanceObserver } from "node:perf_hooks";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type * as HonoNode from "@hono/node-server";
import type * as ApitallyExpress from "apitally/express";
import type * as ApitallyFastify from "apitally/fastify";
import type * as ApitallyHono from "apitally/hono";
import type createExpress from "express";
import type createFastify from "fastify";
import type * as HonoModule from "hono";
import type * as ExpressAdapter from "../packages/sdk-node/src/adapters/express.js";
import type * as FastifyAdapter from "../packages/sdk-node/src/adapters/fastify.js";
import type * as HonoAdapter from "../packages/sdk-node/src/adapters/hono.js";
import type * as Core from "../packages/sdk-node/src/index.js";
import { attributeCpu, attributeHeap, type CpuProfile, type HeapNode } from "./sdk-attribution.js";
import { spin, workEnv } from "./sdk-work.js";

const [framework, variant, workload = "hello"] = process.argv.slice(2);
/** The work each request does in the handler before answering: about 0.5 ms of CPU for work,
 *  as a count of iterations the parent measured once for every app it starts (sdk-work.ts). */
const WORK_ITERATIONS = workload === "work" ? Number(workEnv().BENCH_WORK_ITERATIONS) : 0;
// The frameworks and SDKs as the SDK's test suites install them.
const load = createRequire(new URL("../packages/sdk-node/package.json", import.meta.url));
// @sightline/node itself: this checkout's build, or another build of it (BENCH_SDK_PACKAGE, the
// path of its package.json) so `bench:sdk-cpu` can set two versions side by side in one run.
const loadSdk = process.env.BENCH_SDK_PACKAGE ? createRequire(process.env.BENCH_SDK_PACKAGE) : load;

interface Started {
  port: number;
  stats: (() => unknown) | undefined;
}

const order = (id: string) => {
  if (WORK_ITERATIONS > 0) spin(WORK_ITERATIONS);
  return { id, status: "shipped", items: [{ sku: "A-1", qty: 2 }], total: 42.5 };
};

function sightlineClient() {
  const { createSightline } = loadSdk("@sightline/node") as typeof Core;
  // Key, app and URL from SIGHTLINE_*; otherwise the SDK's defaults. `bench:sdk-instructions`
  // turns the minutely heartbeat off: under valgrind a minute spans ~100× fewer requests.
  return createSightline({
    logger: { warn: () => undefined },
    ...(process.env.BENCH_SDK_HEARTBEAT === "0" ? { heartbeat: false } : {}),
  });
}

function apitallyConfig() {
  // Its hub address is pointed at a closed loopback port by the parent (APITALLY_HUB_BASE_URL).
  return { clientId: "fd3c7f3c-0b0a-4d8e-9d2a-6b8d2f1a0c11", env: "bench" };
}

/** Instruments an app for the run's variant; returns the SDK's counts when there is one. */
async function instrument(ways: {
  sightline: (sdk: Core.Sightline) => unknown;
  apitally: (config: ReturnType<typeof apitallyConfig>) => unknown;
}): Promise<(() => unknown) | undefined> {
  if (variant === "sightline") {
    const sdk = sightlineClient();
    await ways.sightline(sdk);
    return () => sdk.stats();
  }
  if (variant === "apitally") await ways.apitally(apitallyConfig());
  return undefined;
}

async function listening(server: Server): Promise<number> {
  if (!server.listening) await new Promise((resolve) => server.once("listening", resolve));
  return (server.address() as AddressInfo).port;
}

async function express(): Promise<Started> {
  const app = (load("express") as typeof createExpress)();
  const stats = await instrument({
    sightline: (sdk) =>
      app.use((loadSdk("@sightline/node/express") as typeof ExpressAdapter).sightlineMiddleware(sdk)),
    apitally: (config) => (load("apitally/express") as typeof ApitallyExpress).useApitally(app, config),
  });
  app.get("/orders/:id", (req, res) => {
    res.json(order(req.params.id));
  });
  return { port: await listening(app.listen(0, "127.0.0.1")), stats };
}

async function fastify(): Promise<Started> {
  const app = (load("fastify") as typeof createFastify)();
  const stats = await instrument({
    sightline: (sdk) =>
      app.register((loadSdk("@sightline/node/fastify") as typeof FastifyAdapter).sightlinePlugin(sdk)),
    apitally: (config) =>
      app.register((load("apitally/fastify") as typeof ApitallyFastify).apitallyPlugin, config),
  });
  app.get<{ Params: { id: string } }>("/orders/:id", async (request) => order(request.params.id));
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { port: await listening(app.server), stats };
}

async function hono(): Promise<Started> {
  const { Hono } = load("hono") as typeof HonoModule;
  const app = new Hono();
  const stats = await instrument({
    sightline: (sdk) => app.use((loadSdk("@sightline/node/hono") as typeof HonoAdapter).sightlineHono(sdk)),
    apitally: (config) => (load("apitally/hono") as typeof ApitallyHono).useApitally(app, config),
  });
  app.get("/orders/:id", (c) => c.json(order(c.req.param("id"))));
  const { serve } = load("@hono/node-server") as typeof HonoNode;
  return {
    port: await listening(serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server),
    stats,
  };
}

const starters: Record<string, () => Promise<Started>> = { express, fastify, hono };
const start = starters[framework ?? ""];
if (start === undefined || !["bare", "sightline", "apitally"].includes(variant ?? "")) {
  throw new Error(`usage: sdk-app.ts express|fastify|hono bare|sightline|apitally [hello|work]`);
}
// Garbage collections so far (BENCH_GC_COUNT=1 only: the observer costs a little per GC).
const collections = { minor: 0, major: 0 };
if (process.env.BENCH_GC_COUNT === "1") {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) collections.minor += 1;
      else collections.major += 1;
    }
  }).observe({ entryTypes: ["gc"] });
}
const started = await start();
/** `bench:sdk-profile`: V8's profilers in this process, started and stopped by the parent. */
interface ProfileMessage {
  profile: "heap" | "cpu";
  phase: "start" | "stop";
  requests: number;
}
let session: Session | undefined;
// Frames of the SDK build this app loaded (ESM and CommonJS alike live under its dist/).
const sdkRoot =
  variant === "sightline" ? loadSdk.resolve("@sightline/node").replace(/dist\/.*$/, "dist/") : "\0";
const isSdk = (url: string) => url.includes(sdkRoot);
async function profile(message: ProfileMessage): Promise<unknown> {
  session ??= new Session();
  if (message.phase === "start") {
    session.connect();
    if (message.profile === "heap") {
      // Every allocation, not only what is still alive at the end (Node 20's V8 has both flags).
      const every: HeapProfiler.StartSamplingParameterType & Record<string, unknown> = {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      };
      await session.post("HeapProfiler.startSampling", every);
    } else {
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 100 });
      await session.post("Profiler.start");
    }
    return { started: true };
  }
  if (message.profile === "heap") {
    const { profile: taken } = await session.post("HeapProfiler.stopSampling");
    session.disconnect();
    return attributeHeap(taken.head as unknown as HeapNode, isSdk, message.requests);
  }
  const { profile: taken } = await session.post("Profiler.stop");
  session.disconnect();
  return attributeCpu(taken as unknown as CpuProfile, isSdk, message.requests);
}
process.on("message", (message) => {
  if (typeof message === "object" && message !== null && "profile" in message) {
    void profile(message as ProfileMessage).then((answer) => process.send?.({ answer }));
    return;
  }
  if (message === "heap") {
    // For `bench:sdk-instructions`: heap in use (bytes allocated since the last GC included)
    // and the GC counts, without collecting.
    process.send?.({ heapUsed: process.memoryUsage().heapUsed, ...collections });
    return;
  }
  if (message !== "memory") return;
  (globalThis as { gc?: () => void }).gc?.();
  process.send?.({ memory: process.memoryUsage(), stats: started.stats?.() });
});
process.send?.({ port: started.port });
