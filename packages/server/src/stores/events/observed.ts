// An executor that reports the time of each call to an observer and otherwise passes calls
// through: the composition root wraps the store once per consumer, so every query is labelled
// with who asked (dashboard reads, alert evaluation, ingest probes, export) and every insert with
// its table, without the services or the writer knowing they are measured.
import type { EventsExecutor } from "./executor.js";

/** Who runs a query: a small closed set, so it can label a metric. */
export type QueryClass = "dashboard" | "alerts" | "ingest" | "export";

export type CallOutcome = "ok" | "error";

export interface EventsObserver {
  query(queryClass: QueryClass, seconds: number, outcome: CallOutcome): void;
  insert(table: string, rows: number, seconds: number, outcome: CallOutcome): void;
}

export function observeExecutor(
  inner: EventsExecutor,
  observer: EventsObserver,
  queryClass: QueryClass,
): EventsExecutor {
  const timed = async <T>(call: () => Promise<T>, report: (s: number, o: CallOutcome) => void) => {
    const started = performance.now();
    try {
      const result = await call();
      report((performance.now() - started) / 1000, "ok");
      return result;
    } catch (error) {
      report((performance.now() - started) / 1000, "error");
      throw error;
    }
  };
  return {
    engine: inner.engine,
    database: inner.database,
    tableSettings: inner.tableSettings,
    insertLanes: inner.insertLanes,
    query: (sql, params, lane) =>
      timed(
        () => inner.query(sql, params, lane),
        (seconds, outcome) => observer.query(queryClass, seconds, outcome),
      ),
    command: (sql, params) => inner.command(sql, params),
    insert: (batch) =>
      timed(
        () => inner.insert(batch),
        (seconds, outcome) => observer.insert(batch.table, batch.rowCount, seconds, outcome),
      ),
    ping: (timeoutMs) => inner.ping(timeoutMs),
    // The store is closed once, by its owner (deps), not by each consumer's view of it.
    close: () => Promise.resolve(),
  };
}
