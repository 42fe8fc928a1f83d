// Figures per consumer. A consumer is identified by consumer_id; requests without one are the
// single "unknown" consumer. Names and groups can change over time, so the newest non-empty
// value sent is the one shown.
import type { ConsumerStats } from "@sightline/contracts";
import type { EventsExecutor } from "../../../stores/events/index.js";
import { type RequestFilter, requestFilterClause } from "../../../stores/events/queries/request-filter.js";
import { SqlParams } from "../../../stores/events/queries/sql.js";
import { errorRate, finite, RESPONSE_TIME_SQL } from "../../../stores/events/queries/traffic.js";

interface ConsumerRow {
  readonly consumer_id: string;
  readonly latest_name: string;
  readonly latest_group: string;
  readonly total_requests: number;
  readonly error_count: number;
  readonly client_errors: number;
  readonly server_errors: number;
  readonly avg_response_time_ms: number | null;
  readonly last_seen_at: string;
}

/** The busiest consumers (ties: consumer_id), with their error and latency figures. */
export async function consumerStats(
  events: EventsExecutor,
  filter: RequestFilter,
  limit: number,
): Promise<ConsumerStats[]> {
  const params = new SqlParams();
  const rows = await events.query<ConsumerRow>(
    "SELECT consumer_id, " +
      "argMaxIf(consumer_name, timestamp, consumer_name != '') AS latest_name, " +
      "argMaxIf(consumer_group, timestamp, consumer_group != '') AS latest_group, " +
      "count() AS total_requests, countIf(status_code >= 400) AS error_count, " +
      "countIf(status_code >= 400 AND status_code < 500) AS client_errors, " +
      "countIf(status_code >= 500) AS server_errors, " +
      `avg(${RESPONSE_TIME_SQL}) AS avg_response_time_ms, ` +
      "max(timestamp) AS last_seen_at " +
      `FROM ${events.database}.api_requests ${requestFilterClause(filter, params)} ` +
      `GROUP BY consumer_id ORDER BY total_requests DESC, consumer_id ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
  );
  return rows.map((row) => {
    const known = row.consumer_id !== "";
    const name = known ? row.latest_name : "";
    return {
      consumer: name !== "" ? name : known ? row.consumer_id : "unknown",
      consumer_id: row.consumer_id,
      consumer_name: name,
      consumer_group: known ? row.latest_group : "",
      total_requests: row.total_requests,
      error_count: row.error_count,
      client_errors: row.client_errors,
      server_errors: row.server_errors,
      error_rate: errorRate(row.error_count, row.total_requests),
      avg_response_time_ms: finite(row.avg_response_time_ms),
      last_seen_at: row.last_seen_at,
    };
  });
}
