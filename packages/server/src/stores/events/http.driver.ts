// The scale-out events-store driver: a ClickHouse server over HTTP through @clickhouse/client.
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { type ClickHouseClient, ClickHouseError, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import { CallTracker } from "./calls.js";
import {
  assertIdentifier,
  describeInsert,
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
  type Lane,
  type QueryParams,
} from "./executor.js";

export interface HttpDriverOptions {
  /** `http(s)://user:password@host:port`, optionally `?database=name`. */
  readonly url: string;
  /** Used unless the URL names a database. */
  readonly database: string;
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
    clickhouse_settings: { ...OUTPUT_SETTINGS },
    // Failures reach callers as EventsStoreError and are logged there, once, by the app's logger.
    log: { level: ClickHouseLogLevel.OFF },
  });
  return new HttpExecutor(database, client);
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
        const result = await this.client.query({ query: sql, format: "JSON", ...bind(params) });
        return (await result.json<Row>()).data;
      } catch (error) {
        throw toStoreError(error, "query", sql);
      }
    });
  }

  command(sql: string, params?: QueryParams): Promise<void> {
    return this.#calls.run(async () => {
      try {
        await this.client.command({ query: sql, ...bind(params) });
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
        const result = await this.client.exec({
          query: sql,
          values: Readable.from([batch.body], { objectMode: false }),
        });
        // The response body is empty, but it must be read for the socket to return to the pool.
        result.stream.resume();
        await finished(result.stream);
      } catch (error) {
        throw insertFailure(
          toStoreError(error, describeInsert(batch.table, batch.rowCount), sql),
          error instanceof Error ? failedRowOf(error.message) : undefined,
        );
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

function toStoreError(error: unknown, action: string, sql?: string): EventsStoreError {
  if (error instanceof EventsStoreError) return error;
  if (error instanceof ClickHouseError) {
    const parsed = Number(error.code);
    const code = Number.isInteger(parsed) ? parsed : undefined;
    return new EventsStoreError(failureMessage(action, code, error.type), kindForEngineCode(code), {
      cause: error,
      clickhouseCode: code,
      engineError: error.type,
      sql,
    });
  }
  // Anything that is not the server's own error is the transport: refused, reset, timed out.
  return new EventsStoreError(
    `Events store ${action} failed: ClickHouse server unreachable (${transportReason(error)})`,
    "unavailable",
    { cause: error, sql },
  );
}

function transportReason(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  if (error instanceof Error && /timeout/i.test(error.message)) return "timeout";
  return error instanceof Error ? error.name : "unknown error";
}
