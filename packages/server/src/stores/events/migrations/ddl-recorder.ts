// For the DDL-text tests (ddl-text.test.ts): runs every events migration against an executor
// that records each statement instead of running it, on a store that is empty (every read
// answers no rows), so the statements are those a fresh store receives, per topology.
import type { EventsExecutor, InsertBatch, KeysetQuery } from "../executor.js";
import type { EventsTopology } from "../topology.js";
import { eventsMigrations } from "./index.js";
import { runEventsMigrations } from "./runner.js";

/** The statements migrating an empty store issues, in order (reads left out). */
export async function recordMigrationDdl(
  topology: EventsTopology,
  database = "sightline",
): Promise<string[]> {
  const statements: string[] = [];
  const executor: EventsExecutor = {
    engine: "clickhouse",
    database,
    topology,
    tableSettings: {},
    insertLanes: 1,
    insertFormat: "RowBinary",
    query: async <Row>(): Promise<Row[]> => [],
    async *stream<Row>(_query: KeysetQuery<Row>): AsyncIterable<Row[]> {},
    command: async (sql: string) => {
      statements.push(sql);
    },
    insert: async (_batch: InsertBatch) => undefined,
    ping: async () => undefined,
    close: async () => undefined,
  };
  await runEventsMigrations(executor, eventsMigrations);
  return statements;
}
