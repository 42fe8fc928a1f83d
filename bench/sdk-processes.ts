// The processes the SDK benches run: helpers (the null sink, a real Sightline) pinned to CPU 1
// and each app variant pinned to CPU 0 (taskset, when there is one), so what receives the
// records never shares the measured app's core.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import type { SdkVariant } from "./sdk-variants.js";
import { workEnv } from "./sdk-work.js";

const APP = fileURLToPath(new URL("./sdk-app.ts", import.meta.url));
const SINK = fileURLToPath(new URL("./sdk-sink.ts", import.meta.url));

/** Whether apps and sink run on cores of their own. */
export const PIN = cpus().length >= 2 && spawnSync("taskset", ["-V"]).status === 0;
const pinned = (cpu: number, argv: string[]): [string, string[]] =>
  PIN ? ["taskset", ["-c", String(cpu), ...argv]] : [argv[0] as string, argv.slice(1)];

export interface BenchProcess {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Starts a helper script pinned to `cpu` that prints one JSON line (its address) and keeps
 *  running; resolves with that line's fields. */
export async function startHelper<T>(script: string, cpu: number): Promise<{ child: ChildProcess } & T> {
  const [command, args] = pinned(cpu, [process.execPath, "--import", "tsx", script]);
  const child = spawn(command, args, {
    env: { ...process.env, TEST_LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    out += chunk.toString();
    if (out.includes("\n")) break;
  }
  return { child, ...(JSON.parse(out.slice(0, out.indexOf("\n"))) as T) };
}

/** The null sink on CPU 1, acknowledging batches unread; resolves with its URL. */
export function startSink(): Promise<BenchProcess> {
  return startHelper<{ url: string }>(SINK, 1);
}

/** One app variant sending to `sink`; resolves with the URL of its route once it listens. */
export async function startApp(
  framework: string,
  variant: Pick<SdkVariant, "sdkPackage"> & { readonly mode: SdkVariant["mode"] | "apitally" },
  workload: string,
  sink: string,
  env: NodeJS.ProcessEnv = {},
): Promise<BenchProcess> {
  const [command, args] = pinned(0, [
    process.execPath,
    "--import",
    "tsx",
    "--expose-gc",
    APP,
    framework,
    variant.mode,
    workload,
  ]);
  const appEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    SIGHTLINE_URL: sink,
    SIGHTLINE_API_KEY: "sl_bench",
    SIGHTLINE_APP: "bench",
    SIGHTLINE_ENVIRONMENT: "bench",
    ...(workload === "work" ? workEnv() : {}),
    ...env,
  };
  if (variant.sdkPackage !== undefined) appEnv.BENCH_SDK_PACKAGE = variant.sdkPackage;
  const child = spawn(command, args, { env: appEnv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const [message] = (await once(child, "message")) as [{ port: number }];
  return { child, url: `http://127.0.0.1:${message.port}/orders/42` };
}
