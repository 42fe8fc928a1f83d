// Engine-specific MergeTree settings of the events tables: the driver names them
// (EventsExecutor.tableSettings), start-up sets them on every table whose value differs.
import { assertIdentifier } from "../dialect.js";
import type { EventsExecutor } from "../executor.js";

/** Sets the driver's table settings on every table of the events database; returns the tables
 *  that changed. Metadata only: existing parts are not rewritten. */
export async function applyTableSettings(executor: EventsExecutor): Promise<string[]> {
  const wanted = Object.entries(executor.tableSettings);
  if (wanted.length === 0) return [];
  const database = assertIdentifier(executor.database, "database");
  const rows = await executor.query<{ name: string; engine_full: string }>(
    "SELECT name, engine_full FROM system.tables WHERE database = {database:String} AND engine = 'MergeTree'",
    { database },
    "write",
  );
  const changed: string[] = [];
  for (const row of rows) {
    const differs = wanted.some(([name, value]) => settingOf(row.engine_full, name) !== String(value));
    if (!differs) continue;
    const assignments = wanted.map(
      ([name, value]) => `${assertIdentifier(name, "setting")} = ${Number(value)}`,
    );
    await executor.command(
      `ALTER TABLE ${database}.${assertIdentifier(row.name, "table")} MODIFY SETTING ${assignments.join(", ")}`,
    );
    changed.push(row.name);
  }
  return changed;
}

/** A setting's value as `engine_full` shows it (`SETTINGS a = 1, b = 2`), if set. */
function settingOf(engineFull: string, name: string): string | undefined {
  return new RegExp(`\\b${name} = ([^,\\s]+)`).exec(engineFull)?.[1];
}
