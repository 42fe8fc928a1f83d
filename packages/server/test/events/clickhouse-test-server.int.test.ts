// The test ClickHouse server itself (support/clickhouse-server.ts): password auth as the suites
// use it, and no server left behind by a stop() or by a test process killed outright.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, inject, it } from "vitest";
import { CLICKHOUSE_TEST_USER, startClickhouseServer } from "../support/clickhouse-server.js";
import { cleanEnv, runTs } from "../support/process.js";

const HOLDER = fileURLToPath(new URL("../fixtures/clickhouse-server-holder.ts", import.meta.url));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return !alive(pid);
}

async function select(url: URL, sql: string, auth?: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url.origin}/?query=${encodeURIComponent(sql)}`, {
    headers: auth === undefined ? {} : { authorization: `Basic ${Buffer.from(auth).toString("base64")}` },
  });
  return { status: response.status, body: await response.text() };
}

const url = inject("clickhouseUrl");

describe.runIf(url !== undefined && url !== "")("the run's ClickHouse server", () => {
  it("answers the test user and refuses a wrong password with the server's own error", async () => {
    const server = new URL(url);
    const user = decodeURIComponent(server.username);
    const ok = await select(server, "SELECT currentUser()", `${user}:${decodeURIComponent(server.password)}`);
    expect(ok).toEqual({ status: 200, body: `${user}\n` });
    const refused = await select(server, "SELECT 1", `${user}:not-the-password`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/^Code: 516\. DB::Exception: .*\(AUTHENTICATION_FAILED\)/);
  });

  it("gives a client without the password no database to read or create", async () => {
    const server = new URL(url);
    const created = await select(server, "CREATE DATABASE t_anonymous");
    expect(created.body).toContain("(ACCESS_DENIED)");
    const databases = await select(server, "SHOW DATABASES");
    expect(databases.body.trim().split("\n")).toEqual(["system"]);
  });
});

describe("launching a test ClickHouse server", () => {
  it("serves over HTTP with password auth until stop(), which leaves no process", async () => {
    const server = await startClickhouseServer();
    expect(new URL(server.url).username).toBe(CLICKHOUSE_TEST_USER);
    expect(alive(server.pid)).toBe(true);
    await server.stop();
    expect(await gone(server.pid)).toBe(true);
    await expect(fetch(`http://127.0.0.1:${server.httpPort}/ping`)).rejects.toThrow();
  });

  it("dies with a test process that is killed outright, and its directory goes at the next launch", async () => {
    const holder = runTs(HOLDER, [], cleanEnv({}));
    const line = await holder.waitForLine(/^\{"pid"/, 120_000);
    const { pid, directory } = JSON.parse(line) as { pid: number; directory: string };
    try {
      expect(alive(pid)).toBe(true);
      holder.process.kill("SIGKILL");
      await holder.exited();
      expect(await gone(pid)).toBe(true);
      expect(existsSync(directory)).toBe(true);
      // The next launch removes what the killed run left behind.
      const next = await startClickhouseServer();
      await next.stop();
      expect(existsSync(directory)).toBe(false);
    } finally {
      // The holder died without stopping the server: clean up after it, and after a failure.
      if (alive(pid)) process.kill(pid, "SIGKILL");
      await rm(directory, { recursive: true, force: true });
    }
  });
});
