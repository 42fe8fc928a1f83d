// The events-store side of SLOs, every statement in one place: good and bad request counts of
// many SLOs over many windows in one scan (status, list and burn-rate evaluation), bad counts per
// UTC day (the budget burn-down), and a scope's busiest consumers (the per-consumer template).
// Each starts from the tenant-first WHERE of the request filter; an SLO's scope and its "bad"
// condition are conditions on the row, so one range read of (project_id, timestamp) serves all.
import type { EventsExecutor } from "../../stores/events/index.js";
import { type EndpointKey, requestFilterClause } from "../../stores/events/queries/request-filter.js";
import { allOf, SqlParams } from "../../stores/events/queries/sql.js";

/** Which requests an SLO counts. Null or empty parts do not narrow. */
export interface SloScopeSpec {
  readonly appId: string | null;
  readonly environment: string | null;
  readonly endpoints: readonly EndpointKey[];
  readonly consumerId: string | null;
  readonly consumerGroup: string | null;
}

/** Which counted requests are bad. */
export type SliSpec =
  | {
      readonly kind: "availability";
      /** Bad besides every status >= 500. */
      readonly alsoBadCodes: readonly number[];
      readonly alsoBadClasses: readonly number[];
    }
  | { readonly kind: "latency"; readonly thresholdMs: number };

export interface SloSpec {
  readonly scope: SloScopeSpec;
  readonly sli: SliSpec;
}

export interface Counts {
  readonly requests: number;
  readonly bad: number;
}

/** Epoch milliseconds, start inclusive, end exclusive. */
export interface Span {
  readonly startMs: number;
  readonly endMs: number;
}

export function scopeCondition(scope: SloScopeSpec, params: SqlParams): string {
  const conditions: string[] = [];
  if (scope.appId !== null) conditions.push(`app_id = ${params.bind(scope.appId, "String")}`);
  if (scope.environment !== null)
    conditions.push(`environment = ${params.bind(scope.environment, "String")}`);
  if (scope.endpoints.length > 0) {
    const pairs = scope.endpoints.map(
      (endpoint) =>
        `(method = ${params.bind(endpoint.method, "String")} AND route = ${params.bind(endpoint.route, "String")})`,
    );
    conditions.push(`(${pairs.join(" OR ")})`);
  }
  if (scope.consumerId !== null) conditions.push(`consumer_id = ${params.bind(scope.consumerId, "String")}`);
  if (scope.consumerGroup !== null)
    conditions.push(`consumer_group = ${params.bind(scope.consumerGroup, "String")}`);
  return `(${allOf(conditions)})`;
}

/** The row is a bad event of the indicator. */
export function badCondition(sli: SliSpec, params: SqlParams): string {
  if (sli.kind === "latency") return `(response_time_ms >= ${params.bind(sli.thresholdMs, "Float64")})`;
  const parts = ["status_code >= 500"];
  if (sli.alsoBadCodes.length > 0)
    parts.push(`status_code IN ${params.bind(sli.alsoBadCodes, "Array(UInt16)")}`);
  if (sli.alsoBadClasses.length > 0)
    parts.push(`intDiv(status_code, 100) IN ${params.bind(sli.alsoBadClasses, "Array(UInt8)")}`);
  return `(${parts.join(" OR ")})`;
}

/** The project's rows in [startMs, endMs): the tenant-first WHERE, closed at the end. */
function spanWhere(projectId: string, span: Span, params: SqlParams): string {
  const where = requestFilterClause({ projectId, since: span.startMs }, params);
  return `${where} AND timestamp < ${params.instant(span.endMs)}`;
}

const count = (value: unknown): number => {
  const number = Number(value);
  return Number.isFinite(number) ? number : 0;
};

/**
 * Requests and bad requests of every SLO over each of its windows, all ending at `endMs`: one
 * statement over the longest window. `windowsMs[i]` lists the window lengths of `specs[i]`;
 * the answer has the same shape.
 */
export async function countWindows(
  events: EventsExecutor,
  projectId: string,
  endMs: number,
  specs: readonly SloSpec[],
  windowsMs: readonly (readonly number[])[],
): Promise<Counts[][]> {
  if (specs.length === 0) return [];
  const longest = Math.max(...windowsMs.flat());
  const params = new SqlParams();
  const columns: string[] = [];
  specs.forEach((spec, i) => {
    const scope = scopeCondition(spec.scope, params);
    const bad = badCondition(spec.sli, params);
    (windowsMs[i] ?? []).forEach((windowMs, j) => {
      const inWindow =
        windowMs === longest ? scope : `${scope} AND timestamp >= ${params.instant(endMs - windowMs)}`;
      columns.push(`countIf(${inWindow}) AS r${i}_${j}`, `countIf(${inWindow} AND ${bad}) AS b${i}_${j}`);
    });
  });
  const [row] = await events.query<Record<string, unknown>>(
    `SELECT ${columns.join(", ")} FROM ${events.database}.api_requests ` +
      spanWhere(projectId, { startMs: endMs - longest, endMs }, params),
    params.values,
    "read",
  );
  return specs.map((_, i) =>
    (windowsMs[i] ?? []).map((__, j) => ({
      requests: count(row?.[`r${i}_${j}`]),
      bad: count(row?.[`b${i}_${j}`]),
    })),
  );
}

export const DAY_MS = 86_400_000;

/** Requests and bad requests per UTC day (epoch day number) of one SLO over `span`; days without requests are absent. */
export async function countDays(
  events: EventsExecutor,
  projectId: string,
  spec: SloSpec,
  span: Span,
): Promise<Map<number, Counts>> {
  const params = new SqlParams();
  const where = spanWhere(projectId, span, params);
  const scope = scopeCondition(spec.scope, params);
  const bad = badCondition(spec.sli, params);
  const rows = await events.query<{ day: unknown; requests: unknown; bad: unknown }>(
    `SELECT intDiv(toUnixTimestamp(timestamp), 86400) AS day, count() AS requests, countIf(${bad}) AS bad ` +
      `FROM ${events.database}.api_requests ${where} AND ${scope} GROUP BY day ORDER BY day`,
    params.values,
    "read",
  );
  return new Map(rows.map((row) => [count(row.day), { requests: count(row.requests), bad: count(row.bad) }]));
}

/** The `limit` consumers (non-empty consumer_id) with the most requests in the scope over `span`, busiest first. */
export async function topConsumers(
  events: EventsExecutor,
  projectId: string,
  scope: SloScopeSpec,
  span: Span,
  limit: number,
): Promise<Array<{ consumer: string; requests: number }>> {
  const params = new SqlParams();
  const where = spanWhere(projectId, span, params);
  const rows = await events.query<{ consumer: string; requests: unknown }>(
    `SELECT consumer_id AS consumer, count() AS requests FROM ${events.database}.api_requests ` +
      `${where} AND ${scopeCondition(scope, params)} AND consumer_id != '' ` +
      `GROUP BY consumer ORDER BY requests DESC, consumer ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
    "read",
  );
  return rows.map((row) => ({ consumer: row.consumer, requests: count(row.requests) }));
}
