// The environments a project has data for: distinct non-empty names over request and log records
// (all retained data, no window), sorted.
import { API_LOGS, API_REQUESTS, type EventsExecutor, type EventsTable } from "../../index.js";
import { SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";

export async function environmentsWithData(
  events: EventsExecutor,
  projectId: string,
  appIds: readonly string[] | undefined,
): Promise<string[]> {
  const params = new SqlParams();
  const from = (table: EventsTable) =>
    `SELECT DISTINCT environment FROM ${qualified(events, table)} WHERE ${tenantConditions({ projectId, appIds }, params).join(" AND ")}`;
  const rows = await events.query<{ environment: string }>(
    `SELECT environment FROM (${from(API_REQUESTS)} UNION DISTINCT ${from(API_LOGS)}) ` +
      "WHERE environment != '' ORDER BY environment",
    params.values,
  );
  return rows.map((row) => row.environment);
}
