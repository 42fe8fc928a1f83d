// The embedded events-store driver: chDB sessions on the process's one data directory.
import { mkdir, rm, unlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { type ChdbResult, drainPending, Session } from "chdb";
import { CallTracker } from "./calls.js";
import { createSpool } from "./chdb-spool.js";
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
  type KeysetQuery,
  type Lane,
  type QueryParams,
} from "./executor.js";
import type { InsertFormat } from "./row-encoding.js";
import { inlineParams } from "./literals.js";
import { SINGLE_NODE } from "./topology.js";

export interface ChdbDriverOptions {
  /** The data directory; created if missing. */
  readonly path: string;
  readonly database: string;
  /** The body format ingest should build (default RowBinary; see ChdbExecutor.insertFormat). */
  readonly insertFormat?: InsertFormat | undefined;
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
  // An insert runs the rollup views on threads of their own instead of one after the other:
  // about a fifth less time per insert on an idle host for the same CPU (docs/performance.md).
  "--parallel_view_processing=1",
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
    const { writes, reads } = openSessions(directory);
    return new ChdbExecutor(database, directory, writes, reads, options.insertFormat ?? "RowBinary");
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
 * group of batches goes out on the other instead of waiting for it (docs/performance.md, "Merges
 * and insert lanes"). Two, because the engine's merges and the JavaScript thread share the cores.
 */
const INSERT_LANES = 2;
/** Read sessions: dashboard statements run side by side, each with the engine's two threads. */
const READ_LANES = 2;

/** Sessions on one directory, each running one call at a time; a call goes to the least busy. */
class SessionPool {
  readonly #load: number[];

  constructor(readonly sessions: readonly Session[]) {
    this.#load = sessions.map(() => 0);
  }

  /** The first session, for calls that must run in order (DDL, write-lane queries). */
  get first(): Session {
    return this.sessions[0] as Session;
  }

  async run<T>(call: (session: Session) => Promise<T>): Promise<T> {
    let lane = 0;
    for (let i = 1; i < this.#load.length; i++) {
      if ((this.#load[i] ?? 0) < (this.#load[lane] ?? 0)) lane = i;
    }
    this.#load[lane] = (this.#load[lane] ?? 0) + 1;
    try {
      return await call(this.sessions[lane] as Session);
    } finally {
      this.#load[lane] = (this.#load[lane] ?? 1) - 1;
    }
  }

  close(): void {
    for (const session of this.sessions) session.close();
  }
}

/** The write sessions (inserts; the first also DDL) and the read sessions: a session runs one
 *  call at a time, so dashboard reads must not share one with ingest flushes. */
function openSessions(directory: string): { writes: SessionPool; reads: SessionPool } {
  const opened: Session[] = [];
  try {
    for (let i = 0; i < INSERT_LANES + READ_LANES; i++) {
      opened.push(new Session(directory, { connectionArgs: CONNECTION_ARGS }));
    }
  } catch (error) {
    for (const session of opened) session.close();
    throw error;
  }
  return {
    writes: new SessionPool(opened.slice(0, INSERT_LANES)),
    reads: new SessionPool(opened.slice(INSERT_LANES)),
  };
}

/**
 * Fewer, wider merges: ingest's group commits make parts of a few thousand rows, and with the
 * default base (5) re-merging them cost the engine more CPU than parsing the inserts on these
 * two cores; a base of 10 halved it, for a few more active parts (docs/performance.md, "Merges").
 * A ClickHouse server has its own cores for merges and keeps its defaults.
 */
const TABLE_SETTINGS = Object.freeze({ merge_selector_base: 10 });

/** Rows per statement when streaming: chDB returns a result whole, so this bounds what one page
 *  holds (~3 MB of JSON for request rows, times the copies a page goes through on its way out).
 *  On 200k rows, 5k-row pages grew the server's RSS by 63 MB where 10k-row pages grew it 118 MB
 *  (bench:export); the keyset seek keeps each statement's cost flat. */
export const CHDB_STREAM_PAGE_ROWS = 5_000;

class ChdbExecutor implements EventsExecutor {
  readonly engine = "chdb" as const;
  /** chDB is one process: always one node. */
  readonly topology = SINGLE_NODE;
  readonly tableSettings = TABLE_SETTINGS;
  readonly insertLanes = INSERT_LANES;
  readonly #calls = new CallTracker();
  #closing: Promise<void> | undefined;
  #spoolDirectory: Promise<string> | undefined;

  constructor(
    readonly database: string,
    private readonly directory: string,
    private readonly writes: SessionPool,
    private readonly reads: SessionPool,
    /** RowBinary by default: it reaches chDB through a file (#insertFromFile) and still costs
     *  the engine and the JavaScript less than JSON text (docs/performance.md, issue 21 §3). */
    readonly insertFormat: InsertFormat,
  ) {}

  /** Read-lane statements carry their values as literals (literals.ts), so they skip chDB's
   *  process-wide queue of bound statements and run side by side on the read sessions;
   *  write-lane statements stay bound, in order, on the first write session. */
  query<Row>(sql: string, params?: QueryParams, lane: Lane = "read"): Promise<Row[]> {
    return this.#calls.run(async () => {
      const result =
        lane === "read"
          ? await this.reads.run((session) => run(session, inlined(sql, params), undefined, "JSON"))
          : await run(this.writes.first, sql, params, "JSON");
      return parseRows<Row>(result, sql);
    });
  }

  /** Keyset pages of CHDB_STREAM_PAGE_ROWS, each a read-lane statement of its own: a page
   *  shorter than that is the last; nothing more is asked once the consumer stops. */
  async *stream<Row>(query: KeysetQuery<Row>): AsyncIterable<Row[]> {
    let after: Row | undefined;
    for (;;) {
      const { sql, params } = query.page(after, CHDB_STREAM_PAGE_ROWS);
      const rows = await this.query<Row>(sql, params);
      if (rows.length > 0) yield rows;
      if (rows.length < CHDB_STREAM_PAGE_ROWS) return;
      after = rows[rows.length - 1];
    }
  }

  command(sql: string, params?: QueryParams): Promise<void> {
    return this.#calls.run(async () => {
      await run(this.writes.first, sql, params, "CSV");
    });
  }

  insert(batch: InsertBatch): Promise<void> {
    return this.#calls.run(async () => {
      const table = qualifiedTable(this.database, batch.table);
      if (batch.body.length === 0) return;
      try {
        if (batch.format === "RowBinary") {
          await this.#insertFromFile(table, batch);
        } else {
          await this.writes.run((session) =>
            session.insert({
              table,
              values: batch.body,
              format: "JSONCompactEachRow",
              columns: batch.columns,
            }),
          );
        }
      } catch (error) {
        // chDB reports the failing row's position (never its content): worth a log line.
        const row = readProperty(error, "failedAtRow");
        throw insertFailure(
          toStoreError(error, describeInsert(batch.table, batch.rowCount)),
          typeof row === "number" ? row : undefined,
        );
      }
    });
  }

  /**
   * chDB's insert API takes text formats only and a statement is a C string (a NUL byte ends
   * it), so a RowBinary body reaches the engine as a file on tmpfs: `INSERT … FROM INFILE`, one
   * statement, stored whole or not at all like any insert; the file is gone before it settles.
   */
  async #insertFromFile(table: string, batch: InsertBatch): Promise<void> {
    const columns = batch.columns.map((column) => assertIdentifier(column, "column")).join(", ");
    let path: string;
    try {
      path = join(await this.#spool(), `${(spooled += 1)}.bin`);
      await writeFile(path, batch.body);
    } catch (error) {
      // A full or missing tmpfs is the host's trouble, like a down engine: 503, retry later.
      throw new EventsStoreError("Events store insert failed: cannot write the insert body", "unavailable", {
        cause: error,
      });
    }
    try {
      await this.writes.run((session) =>
        session.queryAsync(`INSERT INTO ${table} (${columns}) FROM INFILE '${path}' FORMAT RowBinary`, {
          format: "CSV",
        }),
      );
    } finally {
      await unlink(path).catch(() => undefined);
    }
  }

  /** The private directory binary insert bodies pass through (tmpfs when the host has one). */
  #spool(): Promise<string> {
    // A spool that could not be made (tmpfs full, say) is tried again by the next insert rather
    // than failing every binary insert until a restart.
    this.#spoolDirectory ??= createSpool().catch((error: unknown) => {
      this.#spoolDirectory = undefined;
      throw error;
    });
    return this.#spoolDirectory;
  }

  ping(timeoutMs = 2_000): Promise<void> {
    return this.#calls.run(async () => {
      try {
        await this.reads.run((session) =>
          session.queryAsync("SELECT 1", { format: "CSV", timeout: timeoutMs }),
        );
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
    this.writes.close();
    this.reads.close();
    const spool = await this.#spoolDirectory?.catch(() => undefined);
    if (spool !== undefined) await rm(spool, { recursive: true, force: true });
    await releaseDirectory(this.directory);
  }
}

/** Spool files written by this process, for unique names. */
let spooled = 0;

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

/** The statement with its values written in, when it has any. */
function inlined(sql: string, params: QueryParams | undefined): string {
  return hasParams(params) ? inlineParams(sql, params) : sql;
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
