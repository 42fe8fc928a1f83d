// Every events-store statement of the contract in one place: per project and window, the exact
// calls per operation and status, and a bounded sample of calls with their payloads; then, for a
// change, the consumers whose calls it affects. Each starts with the project (the sort key).
import { API_REQUESTS, type EventsExecutor } from "../../index.js";
import { allOf, SqlParams } from "../sql.js";
import { qualified, tenantConditions } from "../tenant.js";

/** A payload larger than this is not sampled (its call still counts): bounds a pass's memory. */
export const SAMPLED_PAYLOAD_BYTES = 16_384;
/** Sampled calls per project and pass, whatever the number of operations. */
export const SAMPLED_CALLS_PER_PROJECT = 5_000;

export interface PassWindow {
  readonly projectId: string;
  /** Epoch ms, start inclusive, end exclusive. */
  readonly startMs: number;
  readonly endMs: number;
}

/** Exact calls of one operation and status in a window. */
export interface CallCount {
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly count: number;
  /** Epoch ms of the latest call. */
  readonly last: number;
}

/** One sampled call with its payloads. */
export interface SampledCall {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  readonly query: string;
  readonly status: number;
  readonly at: number;
  readonly requestType: string;
  readonly responseType: string;
  readonly requestPayload: string;
  readonly responsePayload: string;
}

export interface GroupCount extends CallCount {
  readonly appId: string;
  readonly environment: string;
}

export interface GroupCall extends SampledCall {
  readonly appId: string;
  readonly environment: string;
}

/** The tenant-first conditions of the window, closed at its end. */
function windowConditions(window: PassWindow, params: SqlParams): string[] {
  return [
    ...tenantConditions({ projectId: window.projectId, since: window.startMs }, params),
    `timestamp < ${params.instant(window.endMs)}`,
  ];
}

/** Exact calls per app, environment, operation and status in the window. */
export async function countCalls(events: EventsExecutor, window: PassWindow): Promise<GroupCount[]> {
  const params = new SqlParams();
  const rows = await events.query<{
    app_id: string;
    environment: string;
    method: string;
    route: string;
    status_code: number;
    n: number;
    last_ms: number;
  }>(
    "SELECT app_id, environment, method, route, status_code, count() AS n, " +
      "toUnixTimestamp64Milli(max(timestamp)) AS last_ms " +
      `FROM ${qualified(events, API_REQUESTS)} WHERE ${allOf(windowConditions(window, params))} ` +
      "GROUP BY app_id, environment, method, route, status_code",
    params.values,
    "read",
  );
  return rows.map((row) => ({
    appId: row.app_id,
    environment: row.environment,
    method: row.method,
    route: row.route,
    status: Number(row.status_code),
    count: Number(row.n),
    last: Number(row.last_ms),
  }));
}

/** One app in one environment. */
export interface GroupFilter {
  readonly appId: string;
  readonly environment: string;
}

function groupConditions(group: GroupFilter | undefined, params: SqlParams): string[] {
  return group === undefined
    ? []
    : [
        `app_id = ${params.bind(group.appId, "String")}`,
        `environment = ${params.bind(group.environment, "String")}`,
      ];
}

/** Calls per operation of one app and environment in the window, most first. */
export async function countOperations(
  events: EventsExecutor,
  window: PassWindow,
  group: GroupFilter,
): Promise<Array<{ method: string; route: string; requests: number }>> {
  const params = new SqlParams();
  const rows = await events.query<{ method: string; route: string; n: number }>(
    `SELECT method, route, count() AS n FROM ${qualified(events, API_REQUESTS)} ` +
      `WHERE ${allOf([...windowConditions(window, params), ...groupConditions(group, params)])} ` +
      "GROUP BY method, route ORDER BY n DESC, method, route",
    params.values,
    "read",
  );
  return rows.map((row) => ({ method: row.method, route: row.route, requests: Number(row.n) }));
}

/** At most `perOperation` calls of each operation in the window (of one group, if given), with
 *  their payloads. */
export async function sampleCalls(
  events: EventsExecutor,
  window: PassWindow,
  perOperation: number,
  group?: GroupFilter,
): Promise<GroupCall[]> {
  const params = new SqlParams();
  const rows = await events.query<{
    app_id: string;
    environment: string;
    method: string;
    route: string;
    path: string;
    query: string;
    status_code: number;
    at_ms: number;
    request_type: string;
    response_type: string;
    request_payload: string;
    response_payload: string;
  }>(
    "SELECT app_id, environment, method, route, path, query, status_code, " +
      "toUnixTimestamp64Milli(timestamp) AS at_ms, " +
      "JSONExtractString(request_headers, 'content-type') AS request_type, " +
      "JSONExtractString(response_headers, 'content-type') AS response_type, " +
      "request_payload, response_payload " +
      `FROM ${qualified(events, API_REQUESTS)} ` +
      `WHERE ${allOf([
        ...windowConditions(window, params),
        ...groupConditions(group, params),
        `length(request_payload) <= ${SAMPLED_PAYLOAD_BYTES}`,
        `length(response_payload) <= ${SAMPLED_PAYLOAD_BYTES}`,
      ])} ` +
      `LIMIT ${params.bind(perOperation, "UInt32")} BY app_id, environment, method, route ` +
      `LIMIT ${SAMPLED_CALLS_PER_PROJECT}`,
    params.values,
    "read",
  );
  return rows.map((row) => ({
    appId: row.app_id,
    environment: row.environment,
    method: row.method,
    route: row.route,
    path: row.path,
    query: row.query,
    status: Number(row.status_code),
    at: Number(row.at_ms),
    requestType: row.request_type,
    responseType: row.response_type,
    requestPayload: row.request_payload,
    responsePayload: row.response_payload,
  }));
}

export interface ConsumerScope {
  readonly projectId: string;
  readonly appId: string;
  readonly environment: string;
  readonly method: string;
  readonly route: string;
  /** Only calls answered with this status. */
  readonly status: number | null;
  /** Only calls whose request or response body carried this field (property names, `*` for
   *  any array item) — or, with `absent`, whose JSON body lacked it. */
  readonly field: {
    readonly side: "request" | "response";
    readonly segments: readonly string[];
    readonly absent?: boolean;
  } | null;
  readonly sinceMs: number;
  readonly untilMs: number;
}

export interface ConsumerCount {
  readonly consumerId: string;
  readonly consumerName: string;
  readonly requests: number;
}

/** The consumers of the calls in scope, most calls first (at most `limit`), and how many in all. */
export async function affectedConsumers(
  events: EventsExecutor,
  scope: ConsumerScope,
  limit: number,
): Promise<{ consumers: ConsumerCount[]; total: number }> {
  const params = new SqlParams();
  const conditions = [
    ...windowConditions({ projectId: scope.projectId, startMs: scope.sinceMs, endMs: scope.untilMs }, params),
    ...groupConditions(scope, params),
    `method = ${params.bind(scope.method, "String")}`,
    `route = ${params.bind(scope.route, "String")}`,
  ];
  if (scope.status !== null) conditions.push(`status_code = ${params.bind(scope.status, "UInt16")}`);
  if (scope.field !== null) {
    const column = scope.field.side === "request" ? "request_payload" : "response_payload";
    const present = fieldPresent(column, scope.field.segments, params, 0);
    conditions.push(`isValidJSON(${column})`, scope.field.absent === true ? `NOT ${present}` : present);
  }
  const grouped =
    "SELECT consumer_id, any(consumer_name) AS consumer_name, count() AS n " +
    `FROM ${qualified(events, API_REQUESTS)} WHERE ${allOf(conditions)} GROUP BY consumer_id`;
  const rows = await events.query<{ consumer_id: string; consumer_name: string; n: number; total: number }>(
    `SELECT consumer_id, consumer_name, n, count() OVER () AS total FROM (${grouped}) ` +
      `ORDER BY n DESC, consumer_id LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
    "read",
  );
  return {
    consumers: rows.map((row) => ({
      consumerId: row.consumer_id,
      consumerName: row.consumer_name,
      requests: Number(row.n),
    })),
    total: Number(rows[0]?.total ?? 0),
  };
}

/** Whether the JSON text in `expression` has the field at `segments` (`*`: any array item). */
function fieldPresent(
  expression: string,
  segments: readonly string[],
  params: SqlParams,
  depth: number,
): string {
  const star = segments.indexOf("*");
  const keys = (list: readonly string[]) => list.map((key) => `, ${params.bind(key, "String")}`).join("");
  if (star === -1) return segments.length === 0 ? "1" : `JSONHas(${expression}${keys(segments)})`;
  const item = `item${depth}`;
  const inner = fieldPresent(item, segments.slice(star + 1), params, depth + 1);
  return `arrayExists(${item} -> ${inner}, JSONExtractArrayRaw(${expression}${keys(segments.slice(0, star))}))`;
}
