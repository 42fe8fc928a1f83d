// The server as a user runs it: the CLI in a child process on a temporary DATA_DIR. Start-up
// banner, restart keeping data, SIGTERM exiting cleanly, SIGKILL losing nothing committed.
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Child, CLI_PATH, cleanEnv, freePort, runTs } from "../support/process.js";

const PROBE = fileURLToPath(new URL("../fixtures/durability-probe.ts", import.meta.url));

// Each test starts the CLI once or twice (TypeScript loader, both stores, migrations): seconds
// each on a quiet machine, far more when the cores are shared, so the budget is generous.
describe("the sightline process", { timeout: 120_000 }, () => {
  let dataDir: string;
  const children: Child[] = [];
  const spawnCli = (args: string[], env: Record<string, string>) => {
    const child = runTs(CLI_PATH, args, cleanEnv({ DATA_DIR: dataDir, ...env }));
    children.push(child);
    return child;
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "sightline-proc-"));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill("SIGKILL");
      await child.exited();
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints where it serves and keeps data and secret across a restart, exiting 0 on SIGTERM", async () => {
    const port = await freePort();
    const first = spawnCli(["start"], { PORT: String(port), LOG_LEVEL: "info" });
    await first.waitForLine(/API docs\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1\/docs/);
    expect(first.stdout()).toContain(`http://127.0.0.1:${port}/api/v1`);
    expect(first.stdout()).toContain(join(dataDir, "sightline.sqlite"));
    expect(first.stdout()).toContain(join(dataDir, "events"));
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    expect(health.status).toBe(200);
    const secretPath = join(dataDir, "jwt-secret");
    const secret = await readFile(secretPath, "utf8");
    expect((await stat(secretPath)).mode & 0o777).toBe(0o600);

    first.process.kill("SIGTERM");
    expect(await first.exited()).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain("shutting down");

    const second = spawnCli(["start"], { PORT: String(port) });
    await second.waitForLine(/API docs/);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
    expect(await readFile(secretPath, "utf8")).toBe(secret);
    second.process.kill("SIGINT");
    expect((await second.exited()).code).toBe(0);
  });

  it("loses no acknowledged write when killed with SIGKILL", async () => {
    const env = cleanEnv({ DATA_DIR: dataDir });
    const writer = runTs(PROBE, ["write"], env);
    children.push(writer);
    await writer.waitForLine(/^ack 40$/, 60_000);
    writer.process.kill("SIGKILL");
    await writer.exited();
    const acked = Math.max(...[...writer.stdout().matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1])));

    const verifier = runTs(PROBE, ["verify"], env);
    children.push(verifier);
    const line = await verifier.waitForLine(/^\{/, 60_000);
    const stored = JSON.parse(line) as { metadata: number[]; events: number[] };
    const expected = Array.from({ length: acked }, (_, i) => i + 1);
    // A write in flight at the kill may or may not have landed; every acknowledged one must have.
    expect(stored.metadata.slice(0, acked)).toEqual(expected);
    expect(stored.events.slice(0, acked)).toEqual(expected);
  });

  it("migrates both stores with `sightline migrate` and exits 0", async () => {
    const child = spawnCli(["migrate"], {});
    expect((await child.exited()).code).toBe(0);
    expect(child.stdout()).toContain("Migrations are up to date");
    const again = spawnCli(["migrate"], {});
    expect((await again.exited()).code).toBe(0);
  });

  it("with EVENTS_DDL=off refuses to start before `sightline migrate`, and starts after it", async () => {
    const refused = spawnCli(["start"], { PORT: String(await freePort()), EVENTS_DDL: "off" });
    expect((await refused.exited()).code).toBe(1);
    expect(refused.stderr()).toContain("EVENTS_DDL=off");
    expect(refused.stderr()).toContain("sightline migrate");
    // The migrator changes the schema whatever EVENTS_DDL says.
    const migrate = spawnCli(["migrate"], { EVENTS_DDL: "off" });
    expect((await migrate.exited()).code).toBe(0);
    const port = await freePort();
    const serving = spawnCli(["start"], { PORT: String(port), EVENTS_DDL: "off" });
    await serving.waitForLine(/API docs/);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status).toBe(200);
    serving.process.kill("SIGTERM");
    expect((await serving.exited()).code).toBe(0);
  });

  it("refuses to start on an invalid variable, naming it", async () => {
    const child = spawnCli(["start"], { PORT: "eighty", LOG_LEVEL: "loud" });
    expect((await child.exited()).code).toBe(1);
    expect(child.stderr()).toContain("PORT: must be an integer");
    expect(child.stderr()).toContain("LOG_LEVEL: must be one of");
  });

  it("rejects an unknown command with usage", async () => {
    const child = spawnCli(["serve-me"], {});
    expect((await child.exited()).code).toBe(1);
    expect(child.stderr()).toContain("Usage: sightline");
  });
});
