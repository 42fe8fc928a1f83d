// Server-wide retention of the events tables: their TTL follows REQUESTS_RETENTION_DAYS,
// LOGS_RETENTION_DAYS, SPANS_RETENTION_DAYS (for the raw tables: the days of rows stored before
// per-project retention, docs/adr/0023) and ROLLUPS_RETENTION_DAYS. Migrations cannot read
// configuration, so start-up compares each table's TTL with the configured days and alters only
// those that differ — metadata only: `materialize_ttl_after_modify = 0` keeps every part as is.
import { assertIdentifier } from "../dialect.js";
import type { EventsExecutor } from "../executor.js";
import {
  API_LOGS,
  API_REQUESTS,
  API_SPANS,
  type EventsTable,
  onCluster,
  ROLLUPS,
  storageName,
  ttlExpression,
  UPTIME_RESULTS,
} from "../tables/index.js";

/** Days to keep per table, e.g. `{ api_requests: 90, api_logs: 30 }`. */
export type RetentionDays = Readonly<Record<string, number>>;

const DECLARED: readonly EventsTable[] = [
  API_REQUESTS,
  API_LOGS,
  API_SPANS,
  UPTIME_RESULTS,
  ...ROLLUPS.map((rollup) => rollup.table),
];

/** The days a table's TTL keeps, as `engine_full` shows either TTL form. */
const TTL_DAYS = /\bTTL toDateTime\(\w+\) \+ toIntervalDay\((?:if\(\w+ = 0, )?(\d+)\b/;

/** The days a table's TTL keeps, read from its `engine_full`; undefined without a TTL. */
export function ttlDaysOf(engineFull: string): number | undefined {
  const days = TTL_DAYS.exec(engineFull)?.[1];
  return days === undefined ? undefined : Number(days);
}

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
    // On a cluster the TTL is the stored (local) tables' own: the Distributed ones keep none.
    const stored = storageName(executor.topology, table);
    const row = rows.find((candidate) => candidate.name === stored);
    const declared = DECLARED.find((candidate) => candidate.name === table);
    if (row === undefined || declared === undefined) continue;
    if (ttlDaysOf(row.engine_full) === wanted) continue;
    // New and merged parts follow the new TTL; existing parts keep the expiry they were written
    // with until a merge rewrites them anyway. Expiring them sooner is an operator's explicit
    // `ALTER TABLE … MATERIALIZE TTL` (README, "Retention").
    await executor.command(
      `ALTER TABLE ${database}.${assertIdentifier(stored, "table")}${onCluster(executor.topology)} ` +
        `MODIFY TTL ${ttlExpression(declared, wanted)} SETTINGS materialize_ttl_after_modify = 0`,
    );
    changed.push(table);
  }
  return changed;
}
