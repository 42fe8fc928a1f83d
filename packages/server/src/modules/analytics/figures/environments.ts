// The environments a project has data for: distinct non-empty names over request and log records
// (all retained data, no window), sorted.
import type { EventsExecutor } from "../../../stores/events/index.js";
import { SqlParams } from "../../../stores/events/queries/sql.js";

export async function environmentsWithData(
  events: EventsExecutor,
  projectId: string,
  appIds: readonly string[] | undefined,
): Promise<string[]> {
  const params = new SqlParams();
  const project = params.bind(projectId, "String");
  const apps = appIds === undefined ? "" : ` AND app_id IN ${params.bind(appIds, "Array(String)")}`;
  const from = (table: string) =>
    `SELECT DISTINCT environment FROM ${events.database}.${table} WHERE project_id = ${project}${apps}`;
  const rows = await events.query<{ environment: string }>(
    `SELECT environment FROM (${from("api_requests")} UNION DISTINCT ${from("api_logs")}) ` +
      "WHERE environment != '' ORDER BY environment",
    params.values,
  );
  return rows.map((row) => row.environment);
}
