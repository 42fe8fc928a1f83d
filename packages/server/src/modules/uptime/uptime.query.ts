// Uptime results in the events store: each run written as a row of uptime_results, the share of
// successful runs per check over 24 h / 7 d / 30 d (one statement for a project's checks), and a
// check's results newest first (all, or its failures) for the latency chart and failure list.
import type { UptimePercentages, UptimeResult } from "@sightline/contracts";
import { qualifiedTable } from "../../stores/events/dialect.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import { SqlParams } from "../../stores/events/queries/sql.js";
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

const HOUR_MS = 3_600_000;
export const UPTIME_WINDOWS_MS = {
  last_24h: 24 * HOUR_MS,
  last_7d: 7 * 24 * HOUR_MS,
  last_30d: 30 * 24 * HOUR_MS,
};

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

/** Percent of successful runs, or null without runs; rounded to 3 decimals. */
export function percentOf(ok: number, total: number): number | null {
  return total === 0 ? null : Math.round((ok / total) * 100_000) / 1000;
}

/** Uptime percentages per check id over the windows ending at `endMs` (inclusive of the end). */
export async function uptimePercentages(
  events: EventsExecutor,
  projectId: string,
  checkIds: readonly string[],
  endMs: number,
): Promise<Map<string, UptimePercentages>> {
  const answer = new Map<string, UptimePercentages>();
  if (checkIds.length === 0) return answer;
  const params = new SqlParams();
  const since = (ms: number) => params.instant(endMs - ms);
  const columns = Object.entries(UPTIME_WINDOWS_MS).map(
    ([name, ms]) =>
      `countIf(timestamp > ${since(ms)}) AS ${name}_total, countIf(timestamp > ${since(ms)} AND ok = 1) AS ${name}_ok`,
  );
  const rows = await events.query<Record<string, unknown>>(
    `SELECT check_id, ${columns.join(", ")} FROM ${qualifiedTable(events.database, UPTIME_RESULTS.name)} ` +
      `WHERE project_id = ${params.bind(projectId, "String")} ` +
      `AND check_id IN ${params.bind([...checkIds], "Array(String)")} ` +
      `AND timestamp > ${since(UPTIME_WINDOWS_MS.last_30d)} AND timestamp <= ${params.instant(endMs)} ` +
      "GROUP BY check_id",
    params.values,
    "read",
  );
  const byId = new Map(rows.map((row) => [String(row.check_id), row]));
  for (const id of checkIds) {
    const row = byId.get(id);
    const of = (name: string) =>
      row === undefined ? null : percentOf(Number(row[`${name}_ok`]), Number(row[`${name}_total`]));
    answer.set(id, { last_24h: of("last_24h"), last_7d: of("last_7d"), last_30d: of("last_30d") });
  }
  return answer;
}

/** A check's results in [sinceMs, untilMs], newest first. */
export async function checkResults(
  events: EventsExecutor,
  projectId: string,
  checkId: string,
  window: { sinceMs: number; untilMs: number; failuresOnly: boolean; limit: number },
): Promise<UptimeResult[]> {
  const params = new SqlParams();
  const rows = await events.query<{
    ms: number | string;
    ok: number;
    status_code: number;
    latency_ms: number;
    error: string;
  }>(
    "SELECT toUnixTimestamp64Milli(timestamp) AS ms, ok, status_code, latency_ms, error " +
      `FROM ${qualifiedTable(events.database, UPTIME_RESULTS.name)} ` +
      `WHERE project_id = ${params.bind(projectId, "String")} AND check_id = ${params.bind(checkId, "String")} ` +
      `AND timestamp >= ${params.instant(window.sinceMs)} AND timestamp <= ${params.instant(window.untilMs)}` +
      (window.failuresOnly ? " AND ok = 0" : "") +
      ` ORDER BY timestamp DESC, id DESC LIMIT ${Math.max(1, Math.trunc(window.limit))}`,
    params.values,
    "read",
  );
  return rows.map((row) => ({
    timestamp: new Date(Number(row.ms)).toISOString(),
    ok: Number(row.ok) === 1,
    status_code: Number(row.status_code) === 0 ? null : Number(row.status_code),
    latency_ms: Number(row.latency_ms),
    error: row.error === "" ? null : row.error,
  }));
}
