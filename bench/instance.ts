// Sightline instances for the benches: the compiled CLI (`npm start`'s) started in a child
// process on a loopback port with a clean environment, plus the free-port and CPU probes.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The compiled CLI, as `npm start` runs it (the bench scripts build first). */
const CLI = fileURLToPath(new URL("../packages/server/dist/cli.js", import.meta.url));

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  return typeof address === "object" && address !== null ? address.port : 0;
}

/** The server gets a clean environment plus any INGEST_* knobs set for the bench run. */
function passedThrough(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [name, value] of Object.entries(process.env)) if (name.startsWith("INGEST_")) env[name] = value;
  return env;
}

/** `env`: the scenario's settings, under any INGEST_* knobs set for the bench run. Resolves
 *  once the instance serves HTTP. */
export function startServer(
  dataDir: string,
  port: number,
  env: Readonly<Record<string, string>> = {},
): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server under load.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, CLI, "start"], {
    env: { ...env, ...passedThrough(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start within 60 s")), 60_000);
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (/API docs/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`the server exited with ${code} before starting:\n${out}`)),
    );
  });
}

/** CPU seconds a process has used so far (Linux /proc: user + system): its main thread
 *  (JavaScript) and all its threads (adding the engine's and the garbage collector's). */
export async function cpuSeconds(pid: number): Promise<{ main: number; all: number } | null> {
  const read = async (path: string) => {
    const stat = await readFile(path, "utf8").catch(() => null);
    if (stat === null) return null;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const main = await read(`/proc/${pid}/task/${pid}/stat`);
  const all = await read(`/proc/${pid}/stat`);
  return main === null || all === null ? null : { main, all };
}
