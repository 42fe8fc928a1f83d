// An executor that reports the time of each call to an observer and otherwise passes calls
// through: the composition root wraps the store once per consumer, so every query is labelled
// with who asked (dashboard reads, alert evaluation, ingest probes, export) and every insert with
// its table, without the services or the writer knowing they are measured.
import type { EventsExecutor, KeysetQuery } from "./executor.js";

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
    // Streams are exports, whoever's view they run on: timed whole, from first page to last.
    stream: <Row>(query: KeysetQuery<Row>) =>
      timedStream(inner.stream(query), (seconds, outcome) => observer.query("export", seconds, outcome)),
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

/** Passes a stream's pages on and reports its whole time: an error if it failed, ok if it ended
 *  or its reader stopped early (a client that went away is not a store failure). */
async function* timedStream<Row>(
  pages: AsyncIterable<Row[]>,
  report: (seconds: number, outcome: CallOutcome) => void,
): AsyncIterable<Row[]> {
  const started = performance.now();
  let outcome: CallOutcome = "ok";
  try {
    yield* pages;
  } catch (error) {
    outcome = "error";
    throw error;
  } finally {
    report((performance.now() - started) / 1000, outcome);
  }
}
