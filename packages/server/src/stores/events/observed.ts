// An executor that reports the time of each call to an observer and otherwise passes calls
// through: the composition root wraps the store once per consumer, so every query is labelled
// with who asked (dashboard reads, alert evaluation, ingest probes, export) and every insert with
// its table, without the services or the writer knowing they are measured.
import { type EventsExecutor, EventsStoreError, type KeysetQuery, type QueryClass } from "./executor.js";

export type { QueryClass } from "./executor.js";

/** `aborted`: a read cancelled because its HTTP client went away, which is no store failure. */
export type CallOutcome = "ok" | "error" | "aborted";

export interface EventsObserver {
  query(queryClass: QueryClass, seconds: number, outcome: CallOutcome): void;
  insert(table: string, rows: number, seconds: number, outcome: CallOutcome): void;
}

export function observeExecutor(
  inner: EventsExecutor,
  observer: EventsObserver,
  queryClass: QueryClass,
): EventsExecutor {
  // The engine's own view for the class, where it has one, so the server sees who asked too.
  const view = inner.scoped?.(queryClass) ?? inner;
  const timed = async <T>(call: () => Promise<T>, report: (s: number, o: CallOutcome) => void) => {
    const started = performance.now();
    try {
      const result = await call();
      report((performance.now() - started) / 1000, "ok");
      return result;
    } catch (error) {
      report((performance.now() - started) / 1000, outcomeOf(error));
      throw error;
    }
  };
  return {
    engine: view.engine,
    database: view.database,
    topology: view.topology,
    tableSettings: view.tableSettings,
    insertLanes: view.insertLanes,
    insertFormat: view.insertFormat,
    query: (sql, params, lane) =>
      timed(
        () => view.query(sql, params, lane),
        (seconds, outcome) => observer.query(queryClass, seconds, outcome),
      ),
    // Streams are exports, whoever's view they run on: timed whole, from first page to last.
    stream: <Row>(query: KeysetQuery<Row>) =>
      timedStream(view.stream(query), (seconds, outcome) => observer.query("export", seconds, outcome)),
    command: (sql, params) => view.command(sql, params),
    insert: (batch) =>
      timed(
        () => view.insert(batch),
        (seconds, outcome) => observer.insert(batch.table, batch.rowCount, seconds, outcome),
      ),
    ping: (timeoutMs) => view.ping(timeoutMs),
    // The store is closed once, by its owner (deps), not by each consumer's view of it.
    close: () => Promise.resolve(),
  };
}

function outcomeOf(error: unknown): CallOutcome {
  return error instanceof EventsStoreError && error.kind === "aborted" ? "aborted" : "error";
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
