// Ingest as users run it: the CLI in a child process, several clients posting continuously
// with Idempotency-Keys, SIGKILL mid-flight, a restart, retries of what was unanswered — and
// every acknowledged record is stored exactly once (so is every retried one).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openEventsExecutor } from "../../src/stores/events/index.js";
import { type Child, CLI_PATH, cleanEnv, freePort, runTs } from "../support/process.js";
import { setUpRemoteIngest } from "./remote.js";

const BATCH = 50;

describe("ingest across a SIGKILL", () => {
  let dataDir: string | undefined;
  const children: Child[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill("SIGKILL");
      await child.exited();
    }
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "stores every acknowledged batch exactly once, and every retried one too",
    { timeout: 180_000 },
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), "sightline-ingest-kill-"));
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const env = cleanEnv({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" });
      const start = async () => {
        const child = runTs(CLI_PATH, ["start"], env);
        children.push(child);
        await child.waitForLine(/API docs/, 60_000);
        return child;
      };

      const first = await start();
      const { key } = await setUpRemoteIngest(baseUrl, join(dataDir, "outbox"));
      // A retry sends the very same body under the same key, as an SDK does.
      const bodies = new Map<string, string>();
      const bodyOf = (name: string) => {
        const records = Array.from({ length: BATCH }, (_, i) => ({
          app_id: "api",
          timestamp: new Date().toISOString(),
          environment: "production",
          method: "POST",
          path: `/${name}/${i}`,
          status_code: 201,
          response_time_ms: i,
        }));
        bodies.set(name, bodies.get(name) ?? JSON.stringify({ requests: records }));
        return bodies.get(name) as string;
      };
      const post = async (name: string) => {
        const response = await fetch(`${baseUrl}/api/v1/ingest/requests`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key, "idempotency-key": name },
          body: bodyOf(name),
        });
        const body = (await response.json()) as { accepted?: number };
        if (response.status !== 200 || body.accepted !== BATCH)
          throw new Error(`${name}: ${response.status}`);
      };

      const acknowledged: string[] = [];
      const unanswered: string[] = [];
      let killed = false;
      const client = async (id: number) => {
        for (let n = 0; !killed; n++) {
          const name = `c${id}-b${n}`;
          try {
            await post(name);
            acknowledged.push(name);
          } catch {
            // The server died with this batch in flight: it may or may not have been stored.
            unanswered.push(name);
            return;
          }
        }
      };
      const clients = [1, 2, 3, 4, 5, 6].map(client);
      while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 5));
      first.process.kill("SIGKILL");
      killed = true;
      await Promise.all(clients);
      await first.exited();
      expect(acknowledged.length).toBeGreaterThanOrEqual(60);

      const second = await start();
      for (const name of unanswered) await post(name);
      second.process.kill("SIGTERM");
      expect((await second.exited()).code).toBe(0);

      const events = await openEventsExecutor({ chdbPath: join(dataDir, "events"), database: "sightline" });
      try {
        const rows = await events.query<{ batch: string; n: number }>(
          "SELECT splitByChar('/', path)[2] AS batch, count() AS n FROM sightline.api_requests GROUP BY batch",
        );
        const stored = Object.fromEntries(rows.map((row) => [row.batch, row.n]));
        const expected = Object.fromEntries([...acknowledged, ...unanswered].map((name) => [name, BATCH]));
        expect(stored).toEqual(expected);
      } finally {
        await events.close();
      }
    },
  );
});
