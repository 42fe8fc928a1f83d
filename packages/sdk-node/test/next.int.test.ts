// A real Next.js app (test/next-app: App Router route handlers wrapped with withSightline),
// built once with `next build` and served by `next start` in a child process that sends to a
// real Sightline: the shared adapter suite. Next.js answers unmatched paths itself, outside any
// handler, so those are not recorded (the suite is told so).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { adapterSuite } from "./support/scenario.js";

const APP_DIR = fileURLToPath(new URL("./next-app", import.meta.url));
const NEXT_BIN = fileURLToPath(new URL("../../../node_modules/next/dist/bin/next", import.meta.url));

/** A port free right now (next start takes a port number; it cannot report an ephemeral one). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return spawn(process.execPath, [NEXT_BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
}

async function build(env: NodeJS.ProcessEnv): Promise<void> {
  const child = await run(["build", APP_DIR], env);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output}`);
}

adapterSuite("Next.js App Router (next build + next start)", {
  unmatched: false,
  startTimeoutMs: 300_000,
  startExternal: async (target) => {
    const env = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      SIGHTLINE_API_KEY: target.key,
      SIGHTLINE_APP: target.app,
      SIGHTLINE_URL: target.url,
    };
    await build({ ...env, SIGHTLINE_API_KEY: "" });
    const port = await freePort();
    const child = await run(["start", APP_DIR, "--port", String(port), "--hostname", "127.0.0.1"], env);
    let output = "";
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`next start exited (${code}):\n${output}`)));
    });
    return {
      url: `http://127.0.0.1:${port}`,
      close: async () => {
        if (child.exitCode !== null) return;
        child.kill("SIGTERM");
        await once(child, "exit");
      },
    };
  },
});
