// Runs the real `sightline` CLI (or a test script) as a child process from TypeScript sources
// via tsx, with a clean environment so a developer's own settings never leak into a test.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const CLI_PATH = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

const INHERITED = ["PATH", "HOME", "TMPDIR", "LANG"];

export function cleanEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  return { ...env, ...extra };
}

export interface Child {
  readonly process: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first stdout line matching `pattern` (rejects if the child exits first). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runTs(script: string, args: readonly string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env, stdio: "pipe" });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exit = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exit,
    waitForLine(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const check = () => {
          const line = out.split("\n").find((candidate) => pattern.test(candidate));
          if (line !== undefined) {
            cleanup();
            resolve(line);
          }
        };
        const onExit = () => {
          cleanup();
          reject(new Error(`child exited before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout.off("data", check);
          child.off("exit", onExit);
        };
        child.stdout.on("data", check);
        child.once("exit", onExit);
        check();
      });
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  server.close();
  await once(server, "close");
  return port;
}

/** Tries a port freePort() found for the server before giving up: another process may take it. */
const PORT_ATTEMPTS = 3;

/**
 * `sightline start` on a free port, once it serves (its "API docs" line). freePort() only finds a
 * port that was free a moment ago, and any outgoing connection may take it before the child
 * listens: a child that exits with EADDRINUSE is started again on another port.
 */
export async function startCliOnFreePort(
  envFor: (port: number) => NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<{ child: Child; port: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const child = runTs(CLI_PATH, ["start"], envFor(port));
    try {
      await child.waitForLine(/API docs/, timeoutMs);
      return { child, port };
    } catch (error) {
      if (child.process.exitCode === null) child.process.kill("SIGTERM");
      await child.exited();
      if (!/EADDRINUSE/.test(child.stderr()) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}
