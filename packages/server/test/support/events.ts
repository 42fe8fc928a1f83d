// Events backends for suites: chDB always, and the run's ClickHouse server (started by
// clickhouse-global-setup.ts, or TEST_CLICKHOUSE_URL) unless it was opted out of.
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inject } from "vitest";
import type { EventsExecutor, EventsStoreOptions } from "../../src/stores/events/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** `http://user:password@host:port` of the run's ClickHouse server; empty: chDB only. */
    clickhouseUrl: string;
  }
}

export interface EventsBackend {
  readonly name: "chdb" | "clickhouse";
  /** Everything but the database, which each test picks with uniqueDatabaseName(). */
  readonly options: Omit<EventsStoreOptions, "database">;
}

/** chDB binds one data directory per process, so every test in a process shares this one. */
export function testChdbPath(): string {
  return join(tmpdir(), `sightline-test-${process.pid}`, "events");
}

/** Removes this process's chDB directory (for an afterAll): only once every executor of the
 *  process is closed, since chDB keeps writing into it while a session is open. */
export async function removeTestChdbPath(): Promise<void> {
  await rm(dirname(testChdbPath()), { recursive: true, force: true });
}

/** A database name no other test uses, valid as an unquoted identifier. */
export function uniqueDatabaseName(prefix: string): string {
  return `t_${prefix}_${randomBytes(6).toString("hex")}`;
}

export function eventsBackends(): EventsBackend[] {
  const backends: EventsBackend[] = [{ name: "chdb", options: { chdbPath: testChdbPath() } }];
  const url = inject("clickhouseUrl");
  if (url !== undefined && url !== "") {
    backends.push({
      name: "clickhouse",
      options: { clickhouseUrl: withoutDatabase(url), chdbPath: testChdbPath() },
    });
  }
  return backends;
}

/** A `?database=` in the URL would override every test's own database. */
function withoutDatabase(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete("database");
  return parsed.toString();
}

/** An executor that passes every call to `inner` except those `overrides` replace: a real store
 *  with one behaviour changed or observed (a lost acknowledgement, counted inserts, recorded SQL). */
export function delegatingExecutor(
  inner: EventsExecutor,
  overrides: Partial<Pick<EventsExecutor, "query" | "stream" | "command" | "insert" | "ping" | "close">>,
): EventsExecutor {
  return {
    engine: inner.engine,
    database: inner.database,
    topology: inner.topology,
    tableSettings: inner.tableSettings,
    insertLanes: inner.insertLanes,
    insertFormat: inner.insertFormat,
    query: (sql, params, lane) => inner.query(sql, params, lane),
    stream: (keyset) => inner.stream(keyset),
    command: (sql, params) => inner.command(sql, params),
    insert: (batch) => inner.insert(batch),
    ping: (timeoutMs) => inner.ping(timeoutMs),
    close: () => inner.close(),
    ...overrides,
  };
}
