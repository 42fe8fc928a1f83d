// The WHERE clause of every query over api_requests: one project first (tenant isolation is not
// optional), then whatever the caller narrowed it to. Columns are named here; values are bound.
import { filterClause, globToLike, likeCaseInsensitive, type SqlParams } from "./sql.js";
import { tenantConditions } from "./tenant.js";

/** One endpoint: a method and a route template. */
export interface EndpointKey {
  readonly method: string;
  readonly route: string;
}

export interface RequestFilter {
  /** Every query is confined to one project. */
  readonly projectId: string;
  /** Apps of that project; undefined means all of them, an empty list matches nothing. */
  readonly appIds?: readonly string[] | undefined;
  readonly environment?: string | undefined;
  /** Inclusive bounds, epoch milliseconds. */
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  /** The oldest instant the read may reach, epoch ms: analytics stop at the project's rollup
   *  retention (rows and rollup rows stored before are kept until they expire, not shown). */
  readonly keptSince?: number | undefined;
  readonly methods?: readonly string[] | undefined;
  /** Status codes and status classes (4 = 400–499), OR-ed together. */
  readonly statusCodes?: readonly number[] | undefined;
  readonly statusClasses?: readonly number[] | undefined;
  /** Inclusive bounds on response_time_ms. */
  readonly minResponseTimeMs?: number | undefined;
  readonly maxResponseTimeMs?: number | undefined;
  /** Glob over the raw path: `*` any run, all else literal; whole-string, case-insensitive. */
  readonly pathGlob?: string | undefined;
  /** Exact route templates. */
  readonly routes?: readonly string[] | undefined;
  /** Exact (method, route template) pairs, OR-ed. */
  readonly endpoints?: readonly EndpointKey[] | undefined;
  /** Case-insensitive substring of the route template or of the method. */
  readonly endpointSearch?: string | undefined;
  /** Exact consumer_id. */
  readonly consumerId?: string | undefined;
  /** Exact trace id, lower-case hex (as ingest stores it). */
  readonly traceId?: string | undefined;
}

/**
 * The filter clause of `filter` over api_requests (`WHERE …`, or `PREWHERE … WHERE …` when the
 * raw path is matched), every value bound into `params`. `costly` adds conditions on large
 * columns (payloads) to the part evaluated last.
 */
export function requestFilterClause(
  filter: RequestFilter,
  params: SqlParams,
  costly: readonly string[] = [],
): string {
  const { cheap, late } = requestConditions(filter, params);
  return filterClause(cheap, [...late, ...costly]);
}

/**
 * The conditions of `filter`, tenant first: `cheap` on small columns, `late` on large text
 * columns (to run last). Every read of an events table confines itself through this (rollups
 * included: their key columns carry the same names), so the project condition is written once.
 */
export function requestConditions(
  filter: RequestFilter,
  params: SqlParams,
): { cheap: string[]; late: string[] } {
  const where = tenantConditions(filter, params);
  if (filter.keptSince !== undefined) where.push(`timestamp >= ${params.instant(filter.keptSince)}`);
  if (filter.methods !== undefined && filter.methods.length > 0) {
    where.push(`method IN ${params.bind(filter.methods, "Array(String)")}`);
  }
  const statuses: string[] = [];
  if (filter.statusCodes !== undefined && filter.statusCodes.length > 0) {
    statuses.push(`status_code IN ${params.bind(filter.statusCodes, "Array(UInt16)")}`);
  }
  if (filter.statusClasses !== undefined && filter.statusClasses.length > 0) {
    statuses.push(`intDiv(status_code, 100) IN ${params.bind(filter.statusClasses, "Array(UInt8)")}`);
  }
  if (statuses.length > 0)
    where.push(statuses.length === 1 ? (statuses[0] as string) : `(${statuses.join(" OR ")})`);
  if (filter.minResponseTimeMs !== undefined) {
    where.push(`response_time_ms >= ${params.bind(filter.minResponseTimeMs, "Float64")}`);
  }
  if (filter.maxResponseTimeMs !== undefined) {
    where.push(`response_time_ms <= ${params.bind(filter.maxResponseTimeMs, "Float64")}`);
  }
  const late: string[] = [];
  // The path as it was requested: ingest keeps the query string in a column of its own.
  if (filter.pathGlob !== undefined)
    late.unshift(
      likeCaseInsensitive(
        "if(query = '', path, concat(path, '?', query))",
        globToLike(filter.pathGlob),
        params,
      ),
    );
  if (filter.routes !== undefined && filter.routes.length > 0) {
    where.push(`route IN ${params.bind(filter.routes, "Array(String)")}`);
  }
  if (filter.endpoints !== undefined && filter.endpoints.length > 0) {
    const pairs = filter.endpoints.map(
      (endpoint) =>
        `(method = ${params.bind(endpoint.method, "String")} AND route = ${params.bind(endpoint.route, "String")})`,
    );
    where.push(`(${pairs.join(" OR ")})`);
  }
  if (filter.endpointSearch !== undefined) {
    const needle = params.bind(filter.endpointSearch, "String");
    where.push(
      `(positionCaseInsensitiveUTF8(route, ${needle}) > 0 OR positionCaseInsensitiveUTF8(method, ${needle}) > 0)`,
    );
  }
  if (filter.consumerId !== undefined) {
    where.push(`consumer_id = ${params.bind(filter.consumerId, "String")}`);
  }
  if (filter.traceId !== undefined) where.push(`trace_id = ${params.bind(filter.traceId, "String")}`);
  return { cheap: where, late };
}
