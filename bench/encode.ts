// npm run bench:encode — what one ingested record costs in each insert body format, side by side in
// one process (issue 21 §3): the JavaScript of the ingest pipeline building a 3,200-row batch
// (validation to encoded body) as JSONCompactEachRow and as RowBinary, then the engine storing
// those bodies — chDB in this process (JSON through its insert API; RowBinary through a tmpfs file,
// `INSERT … FROM INFILE`), and the test launcher's ClickHouse server over HTTP (its CPU per insert
// read from system.query_log). Formats alternate within every round and each figure is the median
// of the rounds; merges are stopped while inserts are timed, so the figures are the inserts' own.
// Knobs: ENCODE_ROWS (rows per batch, default 3,200), ENCODE_ROUNDS (default 9), ENCODE_SERVER=0
// skips the ClickHouse server (it takes a minute to start on a busy machine). For instruction
// counts, ENCODE_PIPELINE=<format>:<batches> only runs the request pipeline that many times in that
// format: run it under `valgrind --tool=callgrind` with two batch counts and take the difference.
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type BatchContext, prepareBatch } from "../packages/server/src/modules/ingest/ingest.pipeline.js";
import type { RecordKind } from "../packages/server/src/modules/ingest/records.js";
import { requestKind } from "../packages/server/src/modules/ingest/requests.records.js";
import { spanKind } from "../packages/server/src/modules/ingest/spans.records.js";
import {
  type EventsExecutor,
  migrateEvents,
  openEventsExecutor,
  type RowChunk,
} from "../packages/server/src/stores/events/index.js";
import type { InsertFormat } from "../packages/server/src/stores/events/row-encoding.js";
import { startClickhouseServer } from "../packages/server/test/support/clickhouse-server.js";
import { requestRecords, spanRecords } from "./records.js";
import { median } from "./stats.js";

const ROWS = Number(process.env.ENCODE_ROWS ?? 3_200);
const ROUNDS = Math.max(1, Number(process.env.ENCODE_ROUNDS ?? 9));
const FORMATS: readonly InsertFormat[] = ["JSONCompactEachRow", "RowBinary"];
const APP = { id: "00000000-0000-4000-8000-000000000001", slug: "api" };

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Process CPU (every thread: JavaScript, chDB's) in microseconds. */
function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

interface Kind {
  readonly label: string;
  readonly kind: RecordKind<never>;
  readonly records: readonly unknown[];
}

function kinds(): Kind[] {
  const spans: unknown[] = [];
  for (let seed = 1; spans.length < ROWS; seed++) spans.push(...spanRecords(seed, APP.slug));
  return [
    { label: "requests", kind: requestKind as RecordKind<never>, records: requestRecords(1, APP.slug, ROWS) },
    { label: "spans", kind: spanKind as RecordKind<never>, records: spans.slice(0, ROWS) },
  ];
}

function context(format: InsertFormat): BatchContext {
  return {
    principal: { keyId: "bench", project: { id: "bench-project", slug: "bench" }, app: null },
    apps: [APP],
    nowMs: Date.now(),
    retentionDays: 90,
    insertFormat: format,
  } as BatchContext;
}

function prepare(kind: Kind, format: InsertFormat): RowChunk {
  const batch = prepareBatch(kind.kind, kind.records, context(format));
  if (batch.chunk === null || batch.accepted !== ROWS) throw new Error(`${kind.label}: rows were rejected`);
  return batch.chunk;
}

/** Median µs per row of `run` over the rounds, per format, formats alternating. */
async function perRow(
  run: (format: InsertFormat, round: number) => Promise<number> | number,
): Promise<Map<InsertFormat, number>> {
  const samples = new Map<InsertFormat, number[]>(FORMATS.map((format) => [format, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? FORMATS : [...FORMATS].reverse();
    for (const format of order) samples.get(format)?.push((await run(format, round)) / ROWS);
  }
  return new Map(FORMATS.map((format) => [format, median(samples.get(format) ?? [])]));
}

function report(label: string, figures: Map<InsertFormat, number>): void {
  const json = figures.get("JSONCompactEachRow") ?? Number.NaN;
  const binary = figures.get("RowBinary") ?? Number.NaN;
  say(
    `${label.padEnd(34)} JSON ${json.toFixed(2).padStart(6)} µs/row   RowBinary ${binary.toFixed(2).padStart(6)} µs/row   ratio ${(binary / json).toFixed(2)}`,
  );
}

/** CPU of the JavaScript pipeline per row, and the bodies it built (per format, per kind). */
async function pipeline(all: readonly Kind[]): Promise<Map<string, Map<InsertFormat, RowChunk>>> {
  const bodies = new Map<string, Map<InsertFormat, RowChunk>>();
  for (const kind of all) {
    for (let warm = 0; warm < 5; warm++) for (const format of FORMATS) prepare(kind, format);
    const built = new Map<InsertFormat, RowChunk>();
    report(
      `pipeline, ${kind.label} (JS CPU)`,
      await perRow((format) => {
        const started = cpuMicros();
        built.set(format, prepare(kind, format));
        return cpuMicros() - started;
      }),
    );
    for (const format of FORMATS) {
      say(`  ${format} body: ${((built.get(format)?.body.length ?? 0) / ROWS).toFixed(0)} bytes/row`);
    }
    bodies.set(kind.label, built);
  }
  return bodies;
}

async function stopMerges(events: EventsExecutor, all: readonly Kind[]): Promise<void> {
  for (const kind of all)
    await events.command(`SYSTEM STOP MERGES ${events.database}.${kind.kind.table.name}`);
}

async function insert(events: EventsExecutor, kind: Kind, chunk: RowChunk): Promise<void> {
  await events.insert({
    table: kind.kind.table.name,
    columns: kind.kind.table.columnNames,
    body: chunk.body,
    rowCount: chunk.rowCount,
    ...(chunk.format === undefined ? {} : { format: chunk.format }),
  });
}

async function chdb(all: readonly Kind[], bodies: Map<string, Map<InsertFormat, RowChunk>>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "sightline-bench-encode-"));
  const events = await openEventsExecutor({ chdbPath: join(dir, "events"), database: "bench_encode" });
  try {
    await migrateEvents(events);
    await stopMerges(events, all);
    for (const kind of all) {
      const built = bodies.get(kind.label);
      for (const format of FORMATS) await insert(events, kind, built?.get(format) as RowChunk);
      report(
        `chDB insert, ${kind.label} (process CPU)`,
        await perRow(async (format) => {
          const started = cpuMicros();
          await insert(events, kind, built?.get(format) as RowChunk);
          return cpuMicros() - started;
        }),
      );
    }
  } finally {
    await events.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function server(all: readonly Kind[], bodies: Map<string, Map<InsertFormat, RowChunk>>): Promise<void> {
  const clickhouse = await startClickhouseServer();
  const events = await openEventsExecutor({
    clickhouseUrl: clickhouse.url,
    chdbPath: "",
    database: "bench_encode",
    insertBatching: "client",
  });
  try {
    await migrateEvents(events);
    await stopMerges(events, all);
    for (const kind of all) {
      const built = bodies.get(kind.label);
      const client = await perRow(async (format) => {
        const started = cpuMicros();
        await insert(events, kind, built?.get(format) as RowChunk);
        return cpuMicros() - started;
      });
      report(`server insert, ${kind.label} (our CPU)`, client);
      await events.command("SYSTEM FLUSH LOGS");
      const rows = await events.query<{ format: InsertFormat; us: number }>(
        `SELECT if(query LIKE '%FORMAT RowBinary%', 'RowBinary', 'JSONCompactEachRow') AS format,
                median(ProfileEvents['UserTimeMicroseconds'] + ProfileEvents['SystemTimeMicroseconds']) AS us
         FROM system.query_log
         WHERE type = 'QueryFinish' AND query_kind = 'Insert' AND has(tables, {table:String})
         GROUP BY format`,
        { table: `bench_encode.${kind.kind.table.name}` },
      );
      report(
        `server insert, ${kind.label} (server CPU)`,
        new Map(rows.map((row) => [row.format, Number(row.us) / ROWS])),
      );
    }
  } finally {
    await events.close();
    await clickhouse.stop();
  }
}

async function main(): Promise<void> {
  const only = process.env.ENCODE_PIPELINE;
  if (only !== undefined) {
    const [format, batches] = only.split(":");
    const requests = kinds()[0] as Kind;
    for (let i = 0; i < Number(batches); i++) prepare(requests, format as InsertFormat);
    return;
  }
  say(
    `bench:encode — ${ROWS}-row batches, ${ROUNDS} rounds, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  const all = kinds();
  const bodies = await pipeline(all);
  await chdb(all, bodies);
  if (process.env.ENCODE_SERVER !== "0") await server(all, bodies);
  say(
    `load average at the end ${loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
}

await main();
