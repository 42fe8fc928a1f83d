// The scale-out events-store driver: a ClickHouse server over HTTP through @clickhouse/client.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import {
  type ClickHouseClient,
  ClickHouseError,
  ClickHouseLogLevel,
  type ClickHouseSettings,
  createClient,
} from "@clickhouse/client";
import { currentRequestSignal } from "../../lib/request-signal.js";
import { CallTracker } from "./calls.js";
import {
  assertIdentifier,
  describeInsert,
  engineErrorName,
  failedRowOf,
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
  type QueryClass,
  type QueryParams,
} from "./executor.js";
import type { InsertFormat } from "./row-encoding.js";
import { assertSupportedVersion, MINIMUM_CLICKHOUSE_VERSION } from "./server-version.js";
import { type EventsTopology, SINGLE_NODE } from "./topology.js";

export interface HttpDriverOptions {
  /** `http(s)://user:password@host:port`, optionally with the parameters of ClickhouseUrl. */
  readonly url: string;
  /** Used unless the URL names a database. */
  readonly database: string;
  /** The oldest server accepted at open; tests raise it to see the refusal on a real server. */
  readonly minimumVersion?: string | undefined;
  /** Seconds a read of each class may run on the server (0 or absent: no limit). */
  readonly maxExecutionTime?: Partial<Readonly<Record<QueryClass, number>>> | undefined;
  /** Names this process in every statement's log_comment (default hostname-pid). */
  readonly instanceId?: string | undefined;
  /** How inserts are batched on the server (default "async"; see insertSettings). */
  readonly insertBatching?: InsertBatching | undefined;
  /** The body format ingest should build (default RowBinary). */
  readonly insertFormat?: InsertFormat | undefined;
  /** One node (default) or a cluster: decides only the DDL (tables/cluster.ts). */
  readonly topology?: EventsTopology | undefined;
}

/** "async": the server batches the inserts of every instance (async_insert) and answers each once
 *  its rows are in a part; "client": each insert is a part of its own, as on chDB. */
export type InsertBatching = "async" | "client";

/**
 * Every setting that decides how an insert is parsed, batched, acknowledged and deduplicated,
 * pinned on each insert so that no server profile changes what an acknowledgement means:
 * - the answer comes once the rows are in a part (wait_for_async_insert=1; a sync insert anyway);
 * - a batch below max_insert_block_size rows is one block, stored whole or not at all;
 * - `token` (insert_deduplication_token, from the batch's bytes) makes a resent batch a no-op
 *   for as long as the table remembers it (replicated tables, or non_replicated_deduplication_window
 *   which this driver sets on plain MergeTree tables); a deduplicated insert feeds no
 *   materialized view either (deduplicate_blocks_in_dependent_materialized_views=0);
 * - async batches are flushed after 200 ms or 10 MiB, whichever first, without the adaptive timeout;
 * - through a cluster's Distributed table, the answer comes once every shard stored its rows
 *   (distributed_foreground_insert=1), never from a queue on the node that took the insert
 *   (docs/adr/0024-clickhouse-clusters.md); plain tables ignore it.
 */
export function insertSettings(batching: InsertBatching, token: string): ClickHouseSettings {
  return {
    async_insert: batching === "async" ? 1 : 0,
    wait_for_async_insert: 1,
    async_insert_deduplicate: 1,
    async_insert_busy_timeout_ms: String(ASYNC_INSERT_BUSY_TIMEOUT_MS),
    async_insert_use_adaptive_busy_timeout: 0,
    async_insert_max_data_size: "10485760",
    async_insert_max_query_number: "450",
    insert_deduplicate: 1,
    insert_deduplication_token: token,
    deduplicate_blocks_in_dependent_materialized_views: 0,
    parallel_view_processing: 1,
    max_insert_block_size: "1048576",
    distributed_foreground_insert: 1,
    min_insert_block_size_rows: "1048576",
    min_insert_block_size_bytes: "268435456",
    input_format_null_as_default: 1,
    insert_quorum: "0",
  };
}

/** The longest an async insert waits on the server for others to share its part. */
const ASYNC_INSERT_BUSY_TIMEOUT_MS = 200;

/** Blocks a plain MergeTree table remembers for insert deduplication (replicated tables keep their
 *  own window): a retried insert within the last 1,000 is stored once. */
const DEDUPLICATION_WINDOW = 1_000;

/** The insert's identity: the same table, columns and bytes always give the same token. Row ids are
 *  random (or derived from the input), so two different batches never share one. */
export function deduplicationToken(table: string, columns: readonly string[], body: Buffer): string {
  return createHash("sha256")
    .update(`${table}\0${columns.join(",")}\0`)
    .update(body)
    .digest("hex");
}

export interface ClickhouseUrl {
  /** Scheme, host and port only: credentials travel as client options, never in logs. */
  readonly origin: string;
  readonly username: string;
  readonly password: string;
  readonly database: string | undefined;
  /** `request_timeout`: milliseconds the client waits for a response. */
  readonly requestTimeoutMs: number | undefined;
  /** `max_open_connections`: sockets kept to the server. */
  readonly maxOpenConnections: number | undefined;
  /** `compression`: `request,response` (default), `request`, `response` or `none`. Request
   *  compression applies to insert bodies only. */
  readonly compression: { readonly request: boolean; readonly response: boolean };
  /** `ca_file`, `cert_file`, `key_file`: PEM files for TLS, read at open (https only). */
  readonly tls:
    { readonly caFile: string; readonly certFile?: string; readonly keyFile?: string } | undefined;
}

const URL_FORM =
  "expected http(s)://user:password@host:port[?database=name&request_timeout=ms&max_open_connections=n" +
  "&compression=request,response|request|response|none&ca_file=path&cert_file=path&key_file=path]";

const URL_PARAMETERS = new Set([
  "database",
  "request_timeout",
  "max_open_connections",
  "compression",
  "ca_file",
  "cert_file",
  "key_file",
]);

/** Parses the configured URL. Errors never echo it: it carries the password. */
export function parseClickhouseUrl(raw: string): ClickhouseUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new EventsStoreError(`Invalid ClickHouse URL: ${URL_FORM}`, "unavailable", { cause: error });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new EventsStoreError(`Invalid ClickHouse URL scheme ${url.protocol} ${URL_FORM}`, "unavailable");
  }
  // A path would be read by @clickhouse/client as a database name; one spelling only.
  if (url.pathname.length > 1) {
    throw new EventsStoreError(`Unsupported ClickHouse URL path: ${URL_FORM}`, "unavailable");
  }
  const params = url.searchParams;
  for (const key of new Set(params.keys())) {
    if (!URL_PARAMETERS.has(key)) {
      throw new EventsStoreError(`Unknown ClickHouse URL parameter "${key}": ${URL_FORM}`, "unavailable");
    }
    if (params.getAll(key).length > 1) {
      throw new EventsStoreError(`ClickHouse URL parameter "${key}" is given twice`, "unavailable");
    }
  }
  const caFile = nonEmpty(params, "ca_file");
  const certFile = nonEmpty(params, "cert_file");
  const keyFile = nonEmpty(params, "key_file");
  if ((caFile ?? certFile ?? keyFile) !== undefined && url.protocol !== "https:") {
    throw new EventsStoreError(
      "ClickHouse URL parameters ca_file, cert_file and key_file need https",
      "unavailable",
    );
  }
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new EventsStoreError("ClickHouse URL parameters cert_file and key_file go together", "unavailable");
  }
  if (certFile !== undefined && caFile === undefined) {
    throw new EventsStoreError("ClickHouse URL parameter cert_file needs ca_file too", "unavailable");
  }
  return {
    origin: url.origin,
    username: decodeURIComponent(url.username) || "default",
    password: decodeURIComponent(url.password),
    database: params.get("database") ?? undefined,
    requestTimeoutMs: positiveInteger(params, "request_timeout"),
    maxOpenConnections: positiveInteger(params, "max_open_connections"),
    compression: parseCompression(params.get("compression")),
    tls:
      caFile === undefined
        ? undefined
        : {
            caFile,
            ...(certFile === undefined ? {} : { certFile }),
            ...(keyFile === undefined ? {} : { keyFile }),
          },
  };
}

function nonEmpty(params: URLSearchParams, key: string): string | undefined {
  const value = params.get(key);
  if (value === null) return undefined;
  if (value === "") throw new EventsStoreError(`ClickHouse URL parameter ${key} is empty`, "unavailable");
  return value;
}

function positiveInteger(params: URLSearchParams, key: string): number | undefined {
  const value = params.get(key);
  if (value === null) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(value)) {
    throw new EventsStoreError(`ClickHouse URL parameter ${key} must be a positive integer`, "unavailable");
  }
  return Number(value);
}

function parseCompression(value: string | null): ClickhouseUrl["compression"] {
  if (value === null) return { request: true, response: true };
  if (value === "none") return { request: false, response: false };
  const parts = value.split(",").map((part) => part.trim());
  if (parts.length === 0 || parts.some((part) => part !== "request" && part !== "response")) {
    throw new EventsStoreError(
      "ClickHouse URL parameter compression must be request,response, request, response or none",
      "unavailable",
    );
  }
  return { request: parts.includes("request"), response: parts.includes("response") };
}

/** Reads the TLS files the URL names; a file that cannot be read stops the open, naming it. */
async function readTls(
  tls: ClickhouseUrl["tls"],
): Promise<{ ca_cert: Buffer; cert?: Buffer; key?: Buffer } | undefined> {
  if (tls === undefined) return undefined;
  const read = async (parameter: string, path: string): Promise<Buffer> => {
    try {
      return await readFile(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      throw new EventsStoreError(
        `ClickHouse URL parameter ${parameter}: cannot read ${path} (${code})`,
        "unavailable",
        { cause: error },
      );
    }
  };
  const ca_cert = await read("ca_file", tls.caFile);
  if (tls.certFile === undefined || tls.keyFile === undefined) return { ca_cert };
  return { ca_cert, cert: await read("cert_file", tls.certFile), key: await read("key_file", tls.keyFile) };
}

/** Default instance name for log_comment: which host and process ran a statement. */
export function defaultInstanceId(): string {
  return `${hostname()}-${process.pid}`;
}

export async function openHttpExecutor(options: HttpDriverOptions): Promise<EventsExecutor> {
  const url = parseClickhouseUrl(options.url);
  const database = assertIdentifier(url.database ?? options.database, "database");
  const tls = await readTls(url.tls);
  const client = createClient({
    url: url.origin,
    username: url.username,
    password: url.password,
    application: "sightline",
    compression: url.compression,
    ...(url.requestTimeoutMs === undefined ? {} : { request_timeout: url.requestTimeoutMs }),
    ...(url.maxOpenConnections === undefined ? {} : { max_open_connections: url.maxOpenConnections }),
    ...(tls === undefined ? {} : { tls }),
    // Output settings go with each call instead, so the version check can run without them: a
    // server too old to know one would otherwise fail it with "Unknown setting".
    // Failures reach callers as EventsStoreError and are logged there, once, by the app's logger.
    log: { level: ClickHouseLogLevel.OFF },
  });
  const shared: Shared = {
    calls: new CallTracker(),
    instanceId: options.instanceId ?? defaultInstanceId(),
    maxExecutionTime: options.maxExecutionTime ?? {},
    insertBatching: options.insertBatching ?? "async",
    insertFormat: options.insertFormat ?? "RowBinary",
    topology: options.topology ?? SINGLE_NODE,
  };
  const executor = new HttpExecutor(database, client, shared, "system");
  try {
    assertSupportedVersion(
      await executor.serverVersion(),
      options.minimumVersion ?? MINIMUM_CLICKHOUSE_VERSION,
    );
    return executor;
  } catch (error) {
    await executor.close();
    throw error;
  }
}

/** What every view of one client shares. */
interface Shared {
  readonly calls: CallTracker;
  readonly instanceId: string;
  readonly maxExecutionTime: Partial<Readonly<Record<QueryClass, number>>>;
  readonly insertBatching: InsertBatching;
  readonly insertFormat: InsertFormat;
  readonly topology: EventsTopology;
}

/** Who a statement runs for: a consumer's class, or "system" (start-up, migrations). */
type Scope = QueryClass | "system";

class HttpExecutor implements EventsExecutor {
  readonly engine = "clickhouse" as const;
  /** Plain MergeTree deduplicates inserts only with a window: without it a retried batch would be
   *  stored twice (measured on 26.7: a repeated insert_deduplication_token kept both copies). */
  readonly tableSettings = Object.freeze({ non_replicated_deduplication_window: DEDUPLICATION_WINDOW });
  /** A server takes concurrent inserts; two keep one filling while the other is stored. */
  readonly insertLanes = 2;
  #closing: Promise<void> | undefined;

  get topology(): EventsTopology {
    return this.shared.topology;
  }

  constructor(
    readonly database: string,
    private readonly client: ClickHouseClient,
    private readonly shared: Shared,
    private readonly scope: Scope,
  ) {}

  /** RowBinary by default: the server parses it without any text in between, for less CPU on
   *  both sides (docs/performance.md, issue 21 §3). */
  get insertFormat(): InsertFormat {
    return this.shared.insertFormat;
  }

  get #calls(): CallTracker {
    return this.shared.calls;
  }

  /** A view whose statements carry `queryClass` in log_comment and its read time limit. */
  scoped(queryClass: QueryClass): EventsExecutor {
    return new HttpExecutor(this.database, this.client, this.shared, queryClass);
  }

  /** Settings for a statement run for `scope`: named in system.query_log and, for reads, bounded
   *  in time and cancelled when the HTTP request goes away (the caller gave up). */
  #settings(scope: Scope, read: boolean): ClickHouseSettings {
    const settings: ClickHouseSettings = {
      ...OUTPUT_SETTINGS,
      log_comment: `sightline:${scope}:${this.shared.instanceId}`,
    };
    if (!read) return settings;
    // The server cancels only read-only queries on a closed socket; readonly=2 makes a read one
    // (and refuses it writing anything) while still letting it carry these settings.
    settings.readonly = "2";
    settings.cancel_http_readonly_queries_on_client_close = 1;
    const limit = scope === "system" ? undefined : this.shared.maxExecutionTime[scope];
    if (limit !== undefined && limit > 0) settings.max_execution_time = limit;
    return settings;
  }

  // Every HTTP call is its own request on a pooled socket, so both lanes run concurrently.
  // A read changes nothing, so one lost to a dropped or refused connection (a restarting
  // server, a balancer closing an idle socket) is asked again, a few times, after a pause.
  // A read made for an HTTP request is aborted when its client disconnects: closing our socket
  // makes the server cancel it (cancel_http_readonly_queries_on_client_close).
  query<Row>(sql: string, params?: QueryParams, _lane: Lane = "read"): Promise<Row[]> {
    const signal = currentRequestSignal();
    return this.#calls.run(async () => {
      for (let attempt = 0; ; attempt += 1) {
        try {
          signal?.throwIfAborted();
          const result = await this.client.query({
            query: sql,
            format: "JSON",
            clickhouse_settings: this.#settings(this.scope, true),
            ...(signal === undefined ? {} : { abort_signal: signal }),
            ...bind(params),
          });
          return (await result.json<Row>()).data;
        } catch (error) {
          if (signal?.aborted === true) throw abortedRead(error, sql);
          const pause = READ_RETRY_PAUSES_MS[attempt];
          if (pause === undefined || !isConnectionError(error)) throw toStoreError(error, "query", sql);
          await delay(pause);
        }
      }
    });
  }

  /** One statement streamed as JSONEachRow: the server produces rows as the socket drains, so
   *  memory holds one chunk. Leaving the loop aborts the HTTP request, which cancels the query
   *  on the server. */
  async *stream<Row>(query: KeysetQuery<Row>): AsyncIterable<Row[]> {
    const { sql, params } = query.page(undefined, undefined);
    const controller = new AbortController();
    try {
      const result = await this.#calls.run(() =>
        this.client.query({
          query: sql,
          format: "JSONEachRow",
          // Streams are exports, whoever's view they run on (as the metrics label them).
          clickhouse_settings: this.#settings("export", true),
          abort_signal: controller.signal,
          ...bind(params),
        }),
      );
      for await (const rows of result.stream<Row>()) {
        if (rows.length > 0) yield rows.map((row) => row.json<Row>());
      }
    } catch (error) {
      throw toStoreError(error, "query", sql);
    } finally {
      controller.abort();
    }
  }

  command(sql: string, params?: QueryParams): Promise<void> {
    return this.#calls.run(async () => {
      try {
        await this.client.command({
          query: sql,
          clickhouse_settings: this.#settings(this.scope, false),
          ...bind(params),
        });
      } catch (error) {
        throw toStoreError(error, "query", sql);
      }
    });
  }

  /** One INSERT statement per batch: the server parses the whole body into one block for a
   *  batch below max_insert_block_size rows, so it is stored whole or not at all. An insert lost
   *  to a dropped connection is sent again with the same deduplication token, so the server
   *  stores it once whether or not the first attempt got through. */
  insert(batch: InsertBatch): Promise<void> {
    return this.#calls.run(async () => {
      const table = qualifiedTable(this.database, batch.table);
      if (batch.body.length === 0) return;
      const columns = batch.columns.map((column) => assertIdentifier(column, "column")).join(", ");
      const sql = `INSERT INTO ${table} (${columns}) FORMAT ${batch.format ?? "JSONCompactEachRow"}`;
      const settings: ClickHouseSettings = {
        ...this.#settings(this.scope, false),
        ...insertSettings(this.shared.insertBatching, deduplicationToken(table, batch.columns, batch.body)),
      };
      for (let attempt = 0; ; attempt += 1) {
        try {
          await this.#insertOnce(sql, batch.body, settings);
          return;
        } catch (error) {
          const pause = INSERT_RETRY_PAUSES_MS[attempt];
          if (pause !== undefined && isConnectionError(error)) {
            await delay(pause);
            continue;
          }
          throw insertFailure(
            toStoreError(error, describeInsert(batch.table, batch.rowCount), sql),
            error instanceof Error ? failedRowOf(error.message) : undefined,
          );
        }
      }
    });
  }

  async #insertOnce(sql: string, body: Buffer, settings: ClickHouseSettings): Promise<void> {
    // The client's own error parsing keeps only the last of the server's messages, which
    // drops the "(at row N)" that names the row the writer isolates: the body is read here.
    const result = await this.client.exec({
      query: sql,
      values: Readable.from([body], { objectMode: false }),
      clickhouse_settings: settings,
      ignore_error_response: true,
    });
    // Read whole even when empty, so the socket returns to the pool.
    const text = await readText(result.stream);
    if ((result.http_status_code ?? 200) >= 400 || result.response_headers["x-clickhouse-exception-code"]) {
      throw serverError(text, result.http_status_code);
    }
  }

  /** `version()`, asked without the output settings (see openHttpExecutor). */
  serverVersion(): Promise<string> {
    return this.#calls.run(async () => {
      try {
        const result = await this.client.query({
          query: "SELECT version() AS version",
          format: "JSONEachRow",
        });
        const [row] = await result.json<{ version: string }>();
        return String(row?.version ?? "");
      } catch (error) {
        throw toStoreError(error, "version check");
      }
    });
  }

  ping(timeoutMs = 2_000): Promise<void> {
    return this.#calls.run(async () => {
      // select: true runs SELECT 1 with our credentials; /ping would pass with a wrong password.
      const result = await this.client.ping({ select: true, abort_signal: AbortSignal.timeout(timeoutMs) });
      if (!result.success) throw toStoreError(result.error, "ping");
    });
  }

  close(): Promise<void> {
    // A consumer's view does not own the client: the root executor's owner closes it.
    if (this.scope !== "system") return Promise.resolve();
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    await this.#calls.close();
    await this.client.close();
  }
}

/** A read given up because the request it served is gone: not the store's failure. */
function abortedRead(error: unknown, sql: string): EventsStoreError {
  return new EventsStoreError("Events store query aborted: the client disconnected", "aborted", {
    cause: error,
    sql,
  });
}

/** Pauses before each retry of a read lost to a connection error: two retries at most. */
const READ_RETRY_PAUSES_MS = [100, 500] as const;

/** Pauses before each resend of an insert lost to a connection error (safe: deduplicated). */
const INSERT_RETRY_PAUSES_MS = [100, 500] as const;

const CONNECTION_ERROR_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE"]);

/** A socket dropped or refused before an answer: not the server's error, nor a timeout (which a
 *  retry would only multiply). */
function isConnectionError(error: unknown): boolean {
  if (error instanceof ClickHouseError) return false;
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string" &&
    CONNECTION_ERROR_CODES.has(error.code)
  );
}

function bind(params: QueryParams | undefined): { query_params?: Record<string, unknown> } {
  return hasParams(params) ? { query_params: normaliseParams(params) } : {};
}

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8");
}

/** A server error as its code and name, from the body of an error response in any of the forms
 *  servers have used: `Code: 60. DB::Exception: … (UNKNOWN_TABLE) (version 26.7.2.1)`, the same
 *  without the name (`Code: 115. DB::Exception: Unknown setting …`), and the older
 *  `Code: 115, e.displayText() = DB::Exception: …`. Undefined for anything else. */
export function parseServerError(text: string): { code: number; name: string | undefined } | undefined {
  const match = /^\s*Code: (\d+)[.,]/.exec(text);
  if (match === null || !text.includes("Exception")) return undefined;
  return { code: Number(match[1]), name: engineErrorName(text) };
}

/** An insert's error response as the client would have thrown it, with the full text kept. */
function serverError(body: string, status: number | undefined): Error {
  const parsed = parseServerError(body);
  if (parsed === undefined) return new Error(`HTTP ${status ?? "error"} without a ClickHouse error`);
  return new ClickHouseError({ message: body, code: String(parsed.code), type: parsed.name ?? "" });
}

function toStoreError(error: unknown, action: string, sql?: string): EventsStoreError {
  if (error instanceof EventsStoreError) return error;
  if (error instanceof ClickHouseError) {
    const parsed = Number(error.code);
    const code = Number.isInteger(parsed) ? parsed : undefined;
    return engineFailure(error, action, code, error.type || undefined, sql);
  }
  // The client throws a plain Error with the body when it does not recognise the server's error
  // format (older servers): still the server's answer, not a transport failure.
  const older = error instanceof Error ? parseServerError(error.message) : undefined;
  if (older !== undefined) return engineFailure(error, action, older.code, older.name, sql);
  // Anything that is not the server's own error is the transport: refused, reset, timed out.
  return new EventsStoreError(
    `Events store ${action} failed: ClickHouse server unreachable (${transportReason(error)})`,
    "unavailable",
    { cause: error, sql },
  );
}

function engineFailure(
  error: unknown,
  action: string,
  code: number | undefined,
  name: string | undefined,
  sql: string | undefined,
): EventsStoreError {
  return new EventsStoreError(failureMessage(action, code, name), kindForEngineCode(code), {
    cause: error,
    clickhouseCode: code,
    engineError: name,
    sql,
  });
}

function transportReason(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  if (error instanceof Error && /timeout/i.test(error.message)) return "timeout";
  return error instanceof Error ? error.name : "unknown error";
}
