// The events store's transport-neutral surface: one ClickHouse dialect, two drivers
// (embedded chDB, ClickHouse over HTTP). Services and query builders depend on this only.
import type { InsertFormat } from "./row-encoding.js";
import type { EventsTopology } from "./topology.js";

/** Values bound to `{name:Type}` placeholders; never concatenated into SQL text. */
export type QueryParams = Readonly<Record<string, unknown>>;

/** Which session a call runs on. chDB runs one call at a time per session, so reads and
 *  writes use separate sessions: dashboard queries never queue behind an ingest flush. */
export type Lane = "read" | "write";

export interface InsertBatch {
  /** Unqualified table name; the executor qualifies it with its database. */
  readonly table: string;
  /** Column names, in the order of each row array. */
  readonly columns: readonly string[];
  /** Rows in `format`, in the order of `columns`. */
  readonly body: Buffer;
  /** Default JSONCompactEachRow (one JSON array per line); RowBinary from row-encoding.ts. */
  readonly format?: InsertFormat;
  /** Number of rows in `body`, for accounting and error messages. */
  readonly rowCount: number;
}

/**
 * A SELECT read in key order, described so either engine can stream it: `page` writes the
 * statement for the rows after `after` (undefined: from the first), `limit` rows at most
 * (undefined: all of them). Its ORDER BY must be a unique key and its cursor condition must
 * follow that order, so consecutive pages neither repeat nor skip a row.
 */
export interface KeysetQuery<Row> {
  page(after: Row | undefined, limit: number | undefined): { sql: string; params: QueryParams };
}

/** Who runs a query: a small closed set, so it can label a metric and pick a time limit. */
export type QueryClass = "dashboard" | "alerts" | "ingest" | "export";

export interface EventsExecutor {
  /** Which engine answers: "chdb" (embedded) or "clickhouse" (server over HTTP). */
  readonly engine: "chdb" | "clickhouse";
  /** The database every unqualified table name refers to. */
  readonly database: string;
  /** One node, or a cluster whose tables are local tables behind Distributed ones: only DDL
   *  differs (tables/cluster.ts); reads and inserts name the same tables either way. */
  readonly topology: EventsTopology;
  /** MergeTree settings this engine wants on every events table, applied at start-up by
   *  applyTableSettings (empty: the engine's defaults). */
  readonly tableSettings: Readonly<Record<string, number>>;
  /** The body format ingest should build its inserts in: the one this engine reads cheapest
   *  (both drivers take JSONCompactEachRow too). */
  readonly insertFormat: InsertFormat;
  /** Inserts that may run at once: a writer keeps up to this many in flight. */
  readonly insertLanes: number;
  /** Runs a SELECT and returns its rows as objects (JSON format; 64-bit ints as numbers). */
  query<Row>(sql: string, params?: QueryParams, lane?: Lane): Promise<Row[]>;
  /**
   * Yields the rows of `query` in order, in batches, holding one batch at a time however many
   * rows match: a ClickHouse server streams one statement; chDB (whose binding returns whole
   * results) reads bounded keyset pages. When the consumer stops iterating (return()), the
   * engine's work stops: the server's query is cancelled, no further page is asked for.
   */
  stream<Row>(query: KeysetQuery<Row>): AsyncIterable<Row[]>;
  /** Runs a statement that returns no rows (DDL, ALTER, INSERT … SELECT). */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** Inserts one batch as one statement: stored whole or not at all. */
  insert(batch: InsertBatch): Promise<void>;
  /** Resolves when the engine answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<void>;
  /** A view of this executor whose statements run as `queryClass`: a server names the class in
   *  log_comment and applies its time limit. Absent where the engine has no use for it (chDB). */
  scoped?(queryClass: QueryClass): EventsExecutor;
  /** Releases sessions/sockets; pending calls settle first. Idempotent. */
  close(): Promise<void>;
}

/** Why a call failed: `unavailable` is the transport or the engine being down (answered 503),
 *  `rejected` an insert the engine refused for its rows' content (the batch is at fault: 422),
 *  `query` a statement the engine refused (a bug of ours: 500), `aborted` a read cancelled because
 *  the HTTP request it served went away (nobody is left to answer, and nothing failed). */
export type EventsFailureKind = "unavailable" | "rejected" | "query" | "aborted";

/** Raised by drivers for any engine failure. */
export class EventsStoreError extends Error {
  /** The engine's numeric error code (e.g. 60 for UNKNOWN_TABLE), when it gave one. */
  readonly clickhouseCode: number | undefined;
  /** The engine's error name (e.g. CANNOT_PARSE_ESCAPE_SEQUENCE), when it gave one. */
  readonly engineError: string | undefined;
  /** For inserts: the 1-based row of the batch the engine stopped at, when it said. */
  readonly failedAtRow: number | undefined;
  /** The statement that failed, for server logs only: engine messages and SQL can carry
   *  request data, so neither is ever put in `message`, which may reach an HTTP client. */
  readonly sql: string | undefined;

  constructor(
    message: string,
    readonly kind: EventsFailureKind,
    options?: {
      cause?: unknown;
      clickhouseCode?: number | undefined;
      engineError?: string | undefined;
      failedAtRow?: number | undefined;
      sql?: string | undefined;
    },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EventsStoreError";
    this.clickhouseCode = options?.clickhouseCode;
    this.engineError = options?.engineError;
    this.failedAtRow = options?.failedAtRow;
    this.sql = options?.sql;
  }
}
