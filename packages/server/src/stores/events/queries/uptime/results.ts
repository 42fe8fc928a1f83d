// Uptime results' reads: the share of successful runs per check over 24 h / 7 d / 30 d (one
// statement for a project's checks), and a check's results newest first (all, or its failures)
// for the latency chart and failure list.
import type { UptimePercentages, UptimeResult } from "@sightline/contracts";
import { type EventsExecutor, UPTIME_RESULTS } from "../../index.js";
import { allOf, SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";

const HOUR_MS = 3_600_000;
export const UPTIME_WINDOWS_MS = {
  last_24h: 24 * HOUR_MS,
  last_7d: 7 * 24 * HOUR_MS,
  last_30d: 30 * 24 * HOUR_MS,
};

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
    `SELECT check_id, ${columns.join(", ")} FROM ${qualified(events, UPTIME_RESULTS)} ` +
      `WHERE ${allOf(tenantConditions({ projectId }, params))} ` +
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
      `FROM ${qualified(events, UPTIME_RESULTS)} ` +
      `WHERE ${allOf(tenantConditions({ projectId }, params))} AND check_id = ${params.bind(checkId, "String")} ` +
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
