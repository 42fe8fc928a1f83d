// Two real server processes on one PostgreSQL: exactly one evaluates alert rules each tick (the
// other sees the lease held), and when the holder is killed the other takes over within two of
// its ticks; a clean shutdown releases the lease at once. Ticks are counted, not timed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { EVALUATOR_LEASE } from "../../src/modules/alerts/scheduler.js";
import { type Child, CLI_PATH, cleanEnv, freePort, runTs } from "../support/process.js";

const databaseUrl = process.env.TEST_DATABASE_URL;

/** The log lines of a child whose message is `msg`, from `offset` characters of its stdout on. */
function logged(child: Child, msg: string, offset = 0): number {
  return child
    .stdout()
    .slice(offset)
    .split("\n")
    .filter((line) => line.includes(`"msg":"${msg}"`)).length;
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs one statement on the server of TEST_DATABASE_URL, or on `database` there. */
async function sql<Row extends pg.QueryResultRow>(text: string, database?: string): Promise<Row[]> {
  const url = new URL(databaseUrl as string);
  if (database !== undefined) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(databaseUrl === undefined || databaseUrl === "")(
  "alert evaluator across two processes",
  () => {
    // A database of its own, as a deployment has (in a schema, Kysely's migrator would see the
    // migration tables of other tests' schemas in the same database).
    const database = `t_lease_${randomBytes(6).toString("hex")}`;
    const dirs: string[] = [];
    const children: Child[] = [];

    beforeAll(async () => {
      await sql(`CREATE DATABASE ${database}`);
    });
    afterAll(async () => {
      for (const child of children) {
        if (child.process.exitCode === null && child.process.signalCode === null)
          child.process.kill("SIGKILL");
        await child.exited();
      }
      await sql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    async function start(name: string): Promise<Child> {
      const dataDir = await mkdtemp(join(tmpdir(), `sightline-lease-${name}-`));
      dirs.push(dataDir);
      const url = new URL(databaseUrl as string);
      url.pathname = `/${database}`;
      const child = runTs(
        CLI_PATH,
        ["start"],
        cleanEnv({
          DATA_DIR: dataDir,
          PORT: String(await freePort()),
          DATABASE_URL: url.toString(),
          LOG_LEVEL: "debug",
          ALERTS_EVAL_INTERVAL_SECONDS: "1",
        }),
      );
      children.push(child);
      await child.waitForLine(/API docs/, 120_000);
      return child;
    }

    // The evaluator's own lease (the contract inference and uptime runners hold leases of theirs).
    const leaseRows = () =>
      sql<{ holder: string }>(`SELECT holder FROM leases WHERE name = '${EVALUATOR_LEASE}'`, database);

    it("evaluates on one instance at a time and fails over within two ticks", async () => {
      const first = await start("a");
      await waitFor(() => logged(first, "alert evaluation pass") >= 1, "the first instance to evaluate");
      const second = await start("b");
      await waitFor(
        () => logged(second, "alert evaluator lease held by another instance") >= 3,
        "three ticks of the second instance",
      );
      const passesBefore = logged(first, "alert evaluation pass");
      expect(logged(second, "alert evaluation pass")).toBe(0);
      expect(logged(second, "alert evaluator lease acquired")).toBe(0);

      const cut = second.stdout().length;
      first.process.kill("SIGKILL");
      await first.exited();
      await waitFor(() => logged(second, "alert evaluator lease acquired", cut) === 1, "the takeover");
      // The dead holder's lease lasts 1.5 intervals: at most two ticks of the survivor find it held.
      expect(logged(second, "alert evaluator lease held by another instance", cut)).toBeLessThanOrEqual(2);
      await waitFor(() => logged(second, "alert evaluation pass", cut) >= 2, "the survivor to evaluate");
      expect(passesBefore).toBeGreaterThanOrEqual(3);
      expect((await leaseRows()).length).toBe(1);

      second.process.kill("SIGTERM");
      expect((await second.exited()).code).toBe(0);
      expect(await leaseRows()).toEqual([]);
    }, 240_000);
  },
);
