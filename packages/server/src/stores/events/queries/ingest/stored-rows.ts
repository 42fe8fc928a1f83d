// Ingest's reads: whether rows of a batch are stored already, by their sort key (project_id,
// timestamp, id) — point look-ups the primary index answers — for idempotent resends.
import type { EventsExecutor } from "../../executor.js";
import { allOf, SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";

/** A row by its sort key. */
export interface RowKey {
  readonly id: string;
  readonly timestampMs: number;
}

/** Which of `keys` (rows of one project in `table`) are stored; ids as the engine writes UUIDs. */
export async function storedRowIds(
  events: EventsExecutor,
  table: string,
  projectId: string,
  keys: readonly RowKey[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const params = new SqlParams();
  const points = keys.map(
    (key) => `(timestamp = ${params.instant(key.timestampMs)} AND id = ${params.bind(key.id, "UUID")})`,
  );
  // On a server, read as of every acknowledged insert: a replica that has not received the batch
  // yet would answer "not stored" and let a retry store it again (a no-op on one node).
  const consistent = events.engine === "clickhouse" ? " SETTINGS select_sequential_consistency = 1" : "";
  // Not `AS id`: ClickHouse would read `id` in the WHERE clause as the alias.
  const rows = await events.query<{ row_id: string }>(
    `SELECT toString(id) AS row_id FROM ${qualified(events, table)} ` +
      `WHERE ${allOf([...tenantConditions({ projectId }, params), `(${points.join(" OR ")})`])}` +
      consistent,
    params.values,
  );
  return new Set(rows.map((row) => row.row_id));
}
