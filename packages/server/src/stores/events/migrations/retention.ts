// Retention of the events tables: their TTL follows REQUESTS_RETENTION_DAYS and
// LOGS_RETENTION_DAYS. Migrations cannot read configuration, so start-up compares each
// table's TTL with the configured days and alters only the tables that differ.
import { assertIdentifier } from "../dialect.js";
import type { EventsExecutor } from "../executor.js";

/** Days to keep per table, e.g. `{ api_requests: 90, api_logs: 30 }`. */
export type RetentionDays = Readonly<Record<string, number>>;

const TTL_DAYS = /\bTTL toDateTime\(timestamp\) \+ toIntervalDay\((\d+)\)/;

/** Sets each table's TTL to its configured days; returns the tables that changed. */
export async function applyRetention(executor: EventsExecutor, days: RetentionDays): Promise<string[]> {
  const database = assertIdentifier(executor.database, "database");
  const rows = await executor.query<{ name: string; engine_full: string }>(
    `SELECT name, engine_full FROM system.tables WHERE database = {database:String}`,
    { database },
    "write",
  );
  const changed: string[] = [];
  for (const [table, wanted] of Object.entries(days)) {
    if (!Number.isInteger(wanted) || wanted < 1)
      throw new RangeError(`Invalid retention for ${table}: ${wanted}`);
    const row = rows.find((candidate) => candidate.name === table);
    if (row === undefined) continue;
    const current = TTL_DAYS.exec(row.engine_full)?.[1];
    if (current !== undefined && Number(current) === wanted) continue;
    // Expired rows of existing parts go in a background mutation; start-up does not wait for it.
    await executor.command(
      `ALTER TABLE ${database}.${assertIdentifier(table, "table")} ` +
        `MODIFY TTL toDateTime(timestamp) + toIntervalDay(${wanted}) SETTINGS mutations_sync = 0`,
    );
    changed.push(table);
  }
  return changed;
}
