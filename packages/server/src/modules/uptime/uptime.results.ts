// Uptime results written to the events store: each run as a row of uptime_results. (Their reads
// live with every other events read, in stores/events/queries/uptime/.)
import type { EventsExecutor } from "../../stores/events/index.js";
import { UPTIME_RESULTS } from "../../stores/events/tables/index.js";

export interface UptimeResultRow {
  readonly id: string;
  readonly projectId: string;
  readonly checkId: string;
  readonly timestampMs: number;
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
}

/** `2026-11-21 06:00:00.123`, read as UTC by DateTime64(3, 'UTC'). */
const eventsTime = (ms: number): string => new Date(ms).toISOString().replace("T", " ").slice(0, 23);

export async function insertResults(events: EventsExecutor, rows: readonly UptimeResultRow[]): Promise<void> {
  if (rows.length === 0) return;
  const lines = rows.map((row) =>
    JSON.stringify([
      row.id,
      row.projectId,
      row.checkId,
      eventsTime(row.timestampMs),
      row.ok ? 1 : 0,
      row.statusCode ?? 0,
      row.latencyMs,
      row.error ?? "",
    ]),
  );
  await events.insert({
    table: UPTIME_RESULTS.name,
    columns: UPTIME_RESULTS.columnNames,
    body: Buffer.from(`${lines.join("\n")}\n`),
    rowCount: rows.length,
  });
}
