// The real Sightline for browser tests: the built CLI as a child process on a free loopback
// port, embedded stores in a temporary DATA_DIR, the development mailer's outbox for links.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../../server/test/support/process";
import type { TestSmtpServer } from "../../../server/test/support/smtp";
import { linkTokenReader } from "./mail-links";

const CLI = fileURLToPath(new URL("../../../server/dist/cli.js", import.meta.url));

export interface Sightline {
  /** e.g. http://127.0.0.1:41234 (also PUBLIC_URL). */
  readonly url: string;
  readonly dataDir: string;
  /** The newest sign-in token e-mailed to `email` after `since` (waits for the mail). */
  linkTokenFor(email: string, since?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * With `smtp`, the server sends every e-mail there (a real SMTP conversation), not to the outbox;
 * `env` adds settings for one suite (e.g. a short alert evaluation interval).
 */
export async function startSightline(
  options: { smtp?: TestSmtpServer; env?: Readonly<Record<string, string>> } = {},
): Promise<Sightline> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-e2e-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, "start"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      LOG_LEVEL: "warn",
      ...(options.smtp === undefined ? {} : { SMTP_URL: options.smtp.url }),
      ...options.env,
    },
    stdio: "pipe",
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Sightline did not start:\n${output}`)), 90_000);
    const check = () => {
      if (/Dashboard\s+http/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Sightline exited (${code}) before serving:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    linkTokenFor: linkTokenReader(dataDir, options.smtp),
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
