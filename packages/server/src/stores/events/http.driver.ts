// The scale-out events-store driver: a ClickHouse server over HTTP through @clickhouse/client.
import { Readable } from "node:stream";
import { type ClickHouseClient, ClickHouseError, ClickHouseLogLevel, createClient } from "@clickhouse/client";
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
  type QueryParams,
} from "./executor.js";
import { assertSupportedVersion, MINIMUM_CLICKHOUSE_VERSION } from "./server-version.js";

export interface HttpDriverOptions {
  /** `http(s)://user:password@host:port`, optionally `?database=name`. */
  readonly url: string;
  /** Used unless the URL names a database. */
  readonly database: string;
  /** The oldest server accepted at open; tests raise it to see the refusal on a real server. */
  readonly minimumVersion?: string | undefined;
}

export interface ClickhouseUrl {
  /** Scheme, host and port only: credentials travel as client options, never in logs. */
  readonly origin: string;
  readonly username: string;
  readonly password: string;
  readonly database: string | undefined;
}

const URL_FORM = "expected http(s)://user:password@host:port[?database=name]";

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
  const extra = [...url.searchParams.keys()].filter((key) => key !== "database");
  // A path would be read by @clickhouse/client as a database name; one spelling only.
  if (url.pathname.length > 1 || extra.length > 0) {
    throw new EventsStoreError(`Unsupported ClickHouse URL parts: ${URL_FORM}`, "unavailable");
  }
  return {
    origin: url.origin,
    username: decodeURIComponent(url.username) || "default",
    password: decodeURIComponent(url.password),
    database: url.searchParams.get("database") ?? undefined,
  };
}

export async function openHttpExecutor(options: HttpDriverOptions): Promise<EventsExecutor> {
  const url = parseClickhouseUrl(options.url);
  const database = assertIdentifier(url.database ?? options.database, "database");
  const client = createClient({
    url: url.origin,
    username: url.username,
    password: url.password,
    application: "sightline",
    // Output settings go with each call instead, so the version check can run without them: a
    // server too old to know one would otherwise fail it with "Unknown setting".
    // Failures reach callers as EventsStoreError and are logged there, once, by the app's logger.
    log: { level: ClickHouseLogLevel.OFF },
  });
  const executor = new HttpExecutor(database, client);
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

class HttpExecutor implements EventsExecutor {
  readonly engine = "clickhouse" as const;
  readonly tableSettings = Object.freeze({});
  /** A server takes concurrent inserts; two keep one filling while the other is stored. */
  readonly insertLanes = 2;
  readonly #calls = new CallTracker();
  #closing: Promise<void> | undefined;

  constructor(
    readonly database: string,
    private readonly client: ClickHouseClient,
  ) {}

  // Every HTTP call is its own request on a pooled socket, so both lanes run concurrently.
  query<Row>(sql: string, params?: QueryParams, _lane: Lane = "read"): Promise<Row[]> {
    return this.#calls.run(async () => {
      try {
        const result = await this.client.query({
          query: sql,
          format: "JSON",
          clickhouse_settings: OUTPUT_SETTINGS,
          ...bind(params),
        });
        return (await result.json<Row>()).data;
      } catch (error) {
        throw toStoreError(error, "query", sql);
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
          clickhouse_settings: OUTPUT_SETTINGS,
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
        await this.client.command({ query: sql, clickhouse_settings: OUTPUT_SETTINGS, ...bind(params) });
      } catch (error) {
        throw toStoreError(error, "query", sql);
      }
    });
  }

  /** One INSERT statement per batch: the server parses the whole body into one block for a
   *  batch below max_insert_block_size rows, so it is stored whole or not at all. */
  insert(batch: InsertBatch): Promise<void> {
    return this.#calls.run(async () => {
      const table = qualifiedTable(this.database, batch.table);
      if (batch.body.length === 0) return;
      const columns = batch.columns.map((column) => assertIdentifier(column, "column")).join(", ");
      const sql = `INSERT INTO ${table} (${columns}) FORMAT JSONCompactEachRow`;
      try {
        // The client's own error parsing keeps only the last of the server's messages, which
        // drops the "(at row N)" that names the row the writer isolates: the body is read here.
        const result = await this.client.exec({
          query: sql,
          values: Readable.from([batch.body], { objectMode: false }),
          clickhouse_settings: OUTPUT_SETTINGS,
          ignore_error_response: true,
        });
        // Read whole even when empty, so the socket returns to the pool.
        const body = await readText(result.stream);
        if (
          (result.http_status_code ?? 200) >= 400 ||
          result.response_headers["x-clickhouse-exception-code"]
        ) {
          throw serverError(body, result.http_status_code);
        }
      } catch (error) {
        throw insertFailure(
          toStoreError(error, describeInsert(batch.table, batch.rowCount), sql),
          error instanceof Error ? failedRowOf(error.message) : undefined,
        );
      }
    });
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
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    await this.#calls.close();
    await this.client.close();
  }
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
