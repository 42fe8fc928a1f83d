// npm run bench:engine — the engine alone, for the insert-sizing experiments of docs/performance.md
// ("Merges and insert lanes"). Inserts bench:ingest's request rows, serialised as ingest serialises
// them, into a fresh api_requests: ENGINE_SIZE rows per insert (default 10,000), ENGINE_LANES
// inserts at once on as many sessions (default 1), ENGINE_ROWS in all (default 600,000). Then it
// waits for merges to finish and prints the insert rate and the process's CPU per row, by thread:
// ThreadPool (insert pipelines), MergeMutate (merges), node (JavaScript and the chDB calls' libuv
// workers). The tables carry the driver's settings unless ENGINE_DEFAULTS=1; ENGINE_DDL runs more
// statements first (`;`-separated), e.g. `ALTER TABLE bench_engine.api_requests MODIFY SETTING …`.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "chdb";
import { prepareBatch } from "../packages/server/src/modules/ingest/ingest.pipeline.js";
import { requestKind } from "../packages/server/src/modules/ingest/requests.records.js";
import type { RowChunk } from "../packages/server/src/stores/events/index.js";
import {
  applyTableSettings,
  migrateEvents,
  openEventsExecutor,
} from "../packages/server/src/stores/events/index.js";
import { requestRecords } from "./records.js";

const SIZE = Number(process.env.ENGINE_SIZE ?? 10_000);
const LANES = Number(process.env.ENGINE_LANES ?? 1);
const ROWS = Number(process.env.ENGINE_ROWS ?? 600_000);
const DATABASE = "bench_engine";
/** Distinct pre-serialised inserts cycled through (bounded memory). */
const CHUNKS = 10;

/** CPU seconds per thread name of this process (Linux /proc: user + system). */
async function cpuByThread(): Promise<Map<string, number>> {
  const seconds = new Map<string, number>();
  for (const task of await readdir("/proc/self/task")) {
    const name = (await readFile(`/proc/self/task/${task}/comm`, "utf8").catch(() => "?")).trim();
    const stat = await readFile(`/proc/self/task/${task}/stat`, "utf8").catch(() => null);
    if (stat === null) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    seconds.set(name, (seconds.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return seconds;
}

/** Rows as ingest serialises them, SIZE per chunk. */
function chunks(): RowChunk[] {
  const app = { id: "00000000-0000-4000-8000-000000000001", slug: "api" };
  const principal = { keyId: "bench", project: { id: "bench-project", slug: "bench" }, app: null };
  return Array.from({ length: CHUNKS }, (_, i) => {
    const batch = prepareBatch(requestKind, requestRecords(i + 1, app.slug, SIZE), {
      principal,
      apps: [app],
      nowMs: Date.now(),
      retentionDays: 90,
    });
    if (batch.chunk === null || batch.accepted !== SIZE) throw new Error("bench rows were rejected");
    return batch.chunk;
  });
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "sightline-bench-engine-"));
  const events = await openEventsExecutor({ chdbPath: join(dir, "events"), database: DATABASE });
  // Lanes beyond the first insert through sessions of their own, as the driver's lanes do.
  const sessions = Array.from({ length: Math.max(0, LANES - 1) }, () => new Session(join(dir, "events")));
  try {
    await migrateEvents(events);
    if (process.env.ENGINE_DEFAULTS === undefined) await applyTableSettings(events);
    for (const statement of (process.env.ENGINE_DDL ?? "").split(";").map((text) => text.trim())) {
      if (statement !== "") await events.command(statement);
    }
    const rows = chunks();
    const inserts = Math.ceil(ROWS / SIZE);
    const total = inserts * SIZE;
    let next = 0;
    const insertOn = async (lane: number) => {
      while (next < inserts) {
        const chunk = rows[next++ % rows.length] as RowChunk;
        const session = sessions[lane - 1];
        if (session === undefined) {
          await events.insert({ table: "api_requests", columns: requestKind.table.columnNames, ...chunk });
        } else {
          await session.insert({
            table: `${DATABASE}.api_requests`,
            values: chunk.body,
            format: "JSONCompactEachRow",
            columns: [...requestKind.table.columnNames],
          });
        }
      }
    };

    const threadsBefore = await cpuByThread();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(Array.from({ length: LANES }, (_, lane) => insertOn(lane)));
    const insertSeconds = (performance.now() - started) / 1000;
    const cpuInserting = process.cpuUsage(cpuBefore);
    for (;;) {
      const [merging] = await events.query<{ n: number }>("SELECT count() AS n FROM system.merges");
      if ((merging?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const drainedSeconds = (performance.now() - started) / 1000;
    const cpuAll = process.cpuUsage(cpuBefore);
    const threadsAfter = await cpuByThread();
    const [parts] = await events.query<{ n: number }>(
      "SELECT count() AS n FROM system.parts WHERE active AND database = {db:String} AND table = 'api_requests'",
      { db: DATABASE },
    );

    const perRow = (cpu: NodeJS.CpuUsage) => ((cpu.user + cpu.system) / total).toFixed(1);
    const byThread = [...threadsAfter]
      .map(([name, seconds]) => [name, seconds - (threadsBefore.get(name) ?? 0)] as const)
      .filter(([, seconds]) => seconds > 0.05)
      .sort((a, b) => b[1] - a[1])
      .map(([name, seconds]) => `${name} ${((seconds * 1e6) / total).toFixed(1)}`)
      .join(", ");
    const settings = process.env.ENGINE_DEFAULTS === undefined ? "driver settings" : "engine defaults";
    process.stdout.write(
      `${SIZE}-row inserts x ${LANES} lane(s), ${settings}${process.env.ENGINE_DDL ? " + ENGINE_DDL" : ""}\n` +
        `  ${Math.round(total / insertSeconds)} rows/s while inserting; CPU ${perRow(cpuInserting)} µs/row ` +
        `inserting, ${perRow(cpuAll)} µs/row until merges finished (${drainedSeconds.toFixed(1)} s); ` +
        `${parts?.n ?? "?"} active parts\n  µs/row by thread: ${byThread}\n`,
    );
  } finally {
    for (const session of sessions) session.close();
    await events.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
