// The embedded events-store driver: chDB sessions on the process's one data directory.
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { type ChdbResult, drainPending, Session } from "chdb";
import { CallTracker } from "./calls.js";
import {
  assertIdentifier,
  describeInsert,
  engineErrorName,
  failureMessage,
  hasParams,
  insertFailure,
  kindForEngineCode,
  normaliseParams,
  OUTPUT_SETTINGS,
  qualifiedTable,
} from "./dialect.js";
import {
  type EventsExecutor,
  EventsStoreError,
  type InsertBatch,
  type Lane,
  type QueryParams,
} from "./executor.js";

export interface ChdbDriverOptions {
  /** The data directory; created if missing. */
  readonly path: string;
  readonly database: string;
}

/**
 * Engine arguments. Settings given here apply to the session that passes them (chDB keeps
 * them per connection), so every session of ours passes the same list. Unknown names are
 * ignored silently by chDB rather than rejected, which is why openEventsExecutor checks the
 * output shape once after opening.
 */
const CONNECTION_ARGS: readonly string[] = [
  // Without it, tables load in the background after open and the first queries miss them.
  "--async_load_databases=0",
  ...Object.entries(OUTPUT_SETTINGS).map(([name, value]) => `--${name}=${value}`),
];

/** chDB error codes that mean the engine or the session is gone, not that the SQL is wrong. */
const UNAVAILABLE_CHDB_CODES = new Set([
  "CHDB_CLOSED",
  "CHDB_CONNECTION",
  "CHDB_TIMEOUT",
  "CHDB_ABORT",
  "CHDB_INTERNAL",
  "CHDB_PLATFORM",
  "CHDB_ABI",
]);

export async function openChdbExecutor(options: ChdbDriverOptions): Promise<EventsExecutor> {
  const database = assertIdentifier(options.database, "database");
  const directory = resolve(options.path);
  await acquireDirectory(directory);
  try {
    await mkdir(directory, { recursive: true });
    const { writes, read } = openSessions(directory);
    return new ChdbExecutor(database, directory, writes, read);
  } catch (error) {
    await releaseDirectory(directory);
    const reason = error instanceof Error ? error.message : String(error);
    throw new EventsStoreError(`Cannot open chDB data directory ${directory}: ${reason}`, "unavailable", {
      cause: error,
    });
  }
}

/** The directory held by this process and how many executors hold it. chDB binds one data
 *  directory per process: a second executor on the same path shares it (tests opening two
 *  apps, a restart within a test), a different path is refused until the last one closes. */
const held = new Map<string, number>();
/** Resolves when the native work behind the last release has finished, so the next directory
 *  opens only once the previous one is really released. */
let released: Promise<void> = Promise.resolve();

async function acquireDirectory(directory: string): Promise<void> {
  if (held.size === 0) await released;
  for (const other of held.keys()) {
    if (other !== directory) {
      throw new EventsStoreError(
        `Cannot open chDB data directory ${directory}: this process already holds ${other}, ` +
          "and chDB allows one data directory per process",
        "unavailable",
      );
    }
  }
  held.set(directory, (held.get(directory) ?? 0) + 1);
}

function releaseDirectory(directory: string): Promise<void> {
  const refs = (held.get(directory) ?? 1) - 1;
  if (refs > 0) {
    held.set(directory, refs);
    return Promise.resolve();
  }
  held.delete(directory);
  // close() can return while a merge or a timed-out query still runs on a worker thread.
  released = drainPending();
  return released;
}

/**
 * Inserts that run at once, each on its own write session: while one insert is stored, the next
 * group of batches goes out on the other instead of waiting for it (docs/performance.md, "Two
 * insert lanes"). Two, because the engine's merges and the JavaScript thread share the other core.
 */
const INSERT_LANES = 2;

/** Write sessions (inserts; the first also DDL) and a read session: a session runs one call at
 *  a time, so dashboard reads must not share one with ingest flushes. */
function openSessions(directory: string): { writes: Session[]; read: Session } {
  const opened: Session[] = [];
  try {
    for (let i = 0; i <= INSERT_LANES; i++) {
      opened.push(new Session(directory, { connectionArgs: CONNECTION_ARGS }));
    }
  } catch (error) {
    for (const session of opened) session.close();
    throw error;
  }
  const read = opened.pop() as Session;
  return { writes: opened, read };
}

/**
 * Fewer, wider merges: ingest's group commits make parts of a few thousand rows, and with the
 * default base (5) re-merging them cost the engine more CPU than parsing the inserts on these
 * two cores; a base of 10 halved it, for a few more active parts (docs/performance.md, "Merges").
 * A ClickHouse server has its own cores for merges and keeps its defaults.
 */
const TABLE_SETTINGS = Object.freeze({ merge_selector_base: 10 });

class ChdbExecutor implements EventsExecutor {
  readonly engine = "chdb" as const;
  readonly tableSettings = TABLE_SETTINGS;
  readonly insertLanes = INSERT_LANES;
  readonly #calls = new CallTracker();
  /** Calls running or queued per write session, to send an insert to the least busy one. */
  readonly #writeLoad: number[];
  #closing: Promise<void> | undefined;

  constructor(
    readonly database: string,
    private readonly directory: string,
    private readonly writes: readonly Session[],
    private readonly read: Session,
  ) {
    this.#writeLoad = writes.map(() => 0);
  }

  /** DDL and write-lane queries: always the first write session, so they run in order. */
  private get write(): Session {
    return this.writes[0] as Session;
  }

  query<Row>(sql: string, params?: QueryParams, lane: Lane = "read"): Promise<Row[]> {
    const session = lane === "read" ? this.read : this.write;
    return this.#calls.run(async () => parseRows<Row>(await run(session, sql, params, "JSON"), sql));
  }

  command(sql: string, params?: QueryParams): Promise<void> {
    return this.#calls.run(async () => {
      await run(this.write, sql, params, "CSV");
    });
  }

  insert(batch: InsertBatch): Promise<void> {
    return this.#calls.run(async () => {
      const table = qualifiedTable(this.database, batch.table);
      if (batch.body.length === 0) return;
      const lane = this.#leastBusyWriteSession();
      this.#writeLoad[lane] = (this.#writeLoad[lane] ?? 0) + 1;
      try {
        await (this.writes[lane] as Session).insert({
          table,
          values: batch.body,
          format: "JSONCompactEachRow",
          columns: batch.columns,
        });
      } catch (error) {
        // chDB reports the failing row's position (never its content): worth a log line.
        const row = readProperty(error, "failedAtRow");
        throw insertFailure(
          toStoreError(error, describeInsert(batch.table, batch.rowCount)),
          typeof row === "number" ? row : undefined,
        );
      } finally {
        this.#writeLoad[lane] = (this.#writeLoad[lane] ?? 1) - 1;
      }
    });
  }

  #leastBusyWriteSession(): number {
    let best = 0;
    for (let lane = 1; lane < this.#writeLoad.length; lane++) {
      if ((this.#writeLoad[lane] ?? 0) < (this.#writeLoad[best] ?? 0)) best = lane;
    }
    return best;
  }

  ping(timeoutMs = 2_000): Promise<void> {
    return this.#calls.run(async () => {
      try {
        await this.read.queryAsync("SELECT 1", { format: "CSV", timeout: timeoutMs });
      } catch (error) {
        throw toStoreError(error, "ping");
      }
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    await this.#calls.close();
    for (const session of this.writes) session.close();
    this.read.close();
    await releaseDirectory(this.directory);
  }
}

/** Unbound calls skip chDB's process-wide queue for bound ones (see hasParams), so a read
 *  without parameters never waits for a bound write on another session. */
async function run(
  session: Session,
  sql: string,
  params: QueryParams | undefined,
  format: string,
): Promise<ChdbResult> {
  try {
    return hasParams(params)
      ? await session.queryBindAsync(sql, normaliseParams(params), { format })
      : await session.queryAsync(sql, { format });
  } catch (error) {
    throw toStoreError(error, "query", sql);
  }
}

function parseRows<Row>(result: ChdbResult, sql: string): Row[] {
  const text = result.text();
  if (text.trim() === "") return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (isJsonResult<Row>(parsed)) return parsed.data;
  } catch (error) {
    throw new EventsStoreError("Events store query returned malformed JSON", "query", { cause: error, sql });
  }
  throw new EventsStoreError("Events store query returned no row set", "query", { sql });
}

function isJsonResult<Row>(value: unknown): value is { data: Row[] } {
  return typeof value === "object" && value !== null && "data" in value && Array.isArray(value.data);
}

function toStoreError(error: unknown, action: string, sql?: string): EventsStoreError {
  if (error instanceof EventsStoreError) return error;
  const chdbCode = readProperty(error, "code");
  const clickhouseCode = readProperty(error, "clickhouseCode");
  const code = typeof clickhouseCode === "number" ? clickhouseCode : undefined;
  const kind =
    typeof chdbCode === "string" && UNAVAILABLE_CHDB_CODES.has(chdbCode)
      ? "unavailable"
      : kindForEngineCode(code);
  const name = error instanceof Error ? engineErrorName(error.message) : undefined;
  const message =
    kind === "unavailable" && code === undefined
      ? `Events store ${action} failed: chDB ${typeof chdbCode === "string" ? chdbCode : "engine"} unavailable`
      : failureMessage(action, code, name);
  return new EventsStoreError(message, kind, { cause: error, clickhouseCode: code, engineError: name, sql });
}

function readProperty(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null && key in value
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
