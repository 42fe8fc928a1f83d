// The events-store side of SLOs, every statement in one place: good and bad request counts of
// many SLOs over many windows in one scan (status, list and burn-rate evaluation), bad counts per
// UTC day (the budget burn-down), and a scope's busiest consumers (the per-consumer template).
// Each starts from the tenant-first WHERE of the request filter; an SLO's scope and its "bad"
// condition are conditions on the row, so one range read of (project_id, timestamp) serves all.
import { API_REQUESTS, type EventsExecutor } from "../../index.js";
import { type EndpointKey, requestFilterClause } from "../request-filter.js";
import { allOf, SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";

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
  const [only] = scope.endpoints;
  if (scope.endpoints.length === 1 && only !== undefined) {
    conditions.push(`method = ${params.bind(only.method, "String")}`);
    conditions.push(`route = ${params.bind(only.route, "String")}`);
  } else if (scope.endpoints.length > 1) {
    // One bound list rather than a condition per endpoint: the statement's text stays short. A
    // method has no blank, so "METHOD route" names one endpoint.
    const keys = scope.endpoints.map((endpoint) => `${endpoint.method} ${endpoint.route}`);
    conditions.push(`concat(method, ' ', route) IN ${params.bind(keys, "Array(String)")}`);
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
 * The text a statement may grow to: the engine's default max_query_size is 256 KiB, less room
 * for the statement's frame. chDB writes bound values into the text (strings hex-encoded, twice
 * their length), so they count too.
 */
const STATEMENT_BUDGET = 200 * 1024;

/** What one SLO adds to a countWindows statement: its conditions and their values, measured. */
function statementShare(spec: SloSpec, windows: number): number {
  const params = new SqlParams();
  const text = scopeCondition(spec.scope, params) + badCondition(spec.sli, params);
  const values = Object.values(params.values).reduce<number>(
    (sum, value) => sum + 2 * JSON.stringify(value).length + 16,
    0,
  );
  // Each window adds two countIf columns of about 40 characters.
  return text.length + values + 40 + windows * 2 * 48;
}

/**
 * Requests and bad requests of every SLO over each of its windows, all ending at `endMs`: one
 * statement over the longest window for as many SLOs as fit STATEMENT_BUDGET (a project's 200
 * plain SLOs fit one; SLOs listing many endpoints take a few). `windowsMs[i]` lists the window
 * lengths of `specs[i]`; the answer has the same shape.
 */
export async function countWindows(
  events: EventsExecutor,
  projectId: string,
  endMs: number,
  specs: readonly SloSpec[],
  windowsMs: readonly (readonly number[])[],
): Promise<Counts[][]> {
  const answers: Counts[][] = [];
  let batch: number[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    answers.push(
      ...(await countBatch(
        events,
        projectId,
        endMs,
        batch.map((i) => specs[i] as SloSpec),
        batch.map((i) => windowsMs[i] ?? []),
      )),
    );
    batch = [];
    size = 0;
  };
  for (const [i, spec] of specs.entries()) {
    const share = statementShare(spec, windowsMs[i]?.length ?? 0);
    if (batch.length > 0 && size + share > STATEMENT_BUDGET) await flush();
    batch.push(i);
    size += share;
  }
  await flush();
  return answers;
}

/**
 * One statement for `specs`, grouped by what is measured. The inner SELECT evaluates each
 * distinct scope and each distinct bad condition once per row (into arrays), and turns the row
 * into one row per (scope, bad condition) pair it belongs to (`arrayJoin`); the outer one
 * counts per pair over each distinct window. The aggregates are a handful whatever the number of
 * SLOs: written as two conditional counts per SLO and window, 200 SLOs over 1,000 rows took
 * 6.5 s on chDB (the engine's work grows with the expressions, not the rows); this way 2 s
 * (one run each on a shared 2-core machine).
 */
async function countBatch(
  events: EventsExecutor,
  projectId: string,
  endMs: number,
  specs: readonly SloSpec[],
  windowsMs: readonly (readonly number[])[],
): Promise<Counts[][]> {
  const longest = Math.max(...windowsMs.flat());
  const params = new SqlParams();
  const distinct = <T>(values: readonly T[]) => {
    const index = new Map<string, number>();
    for (const value of values) {
      const key = JSON.stringify(value);
      if (!index.has(key)) index.set(key, index.size + 1);
    }
    return index;
  };
  // 1-based, as ClickHouse arrays are.
  const scopes = distinct(specs.map((spec) => spec.scope));
  const slis = distinct(specs.map((spec) => spec.sli));
  const pairs = distinct(
    specs.map((spec) => [scopes.get(JSON.stringify(spec.scope)), slis.get(JSON.stringify(spec.sli))]),
  );
  const windows = [...new Set(windowsMs.flat())].sort((a, b) => b - a);

  const inner = windows.map(
    // The longest window is the WHERE's own range: every row is in it.
    (windowMs, k) =>
      `${windowMs === longest ? "1" : `timestamp >= ${params.instant(endMs - windowMs)}`} AS t${k}`,
  );
  const scopeSql = [...scopes.keys()].map((key) => scopeCondition(JSON.parse(key) as SloScopeSpec, params));
  const badSql = [...slis.keys()].map((key) => badCondition(JSON.parse(key) as SliSpec, params));
  const pairList = [...pairs.keys()].map((key) => JSON.parse(key) as [number, number]);
  inner.push(`[${scopeSql.join(", ")}] AS scopes`, `[${badSql.join(", ")}] AS bads`);
  // A level of its own: an alias referenced in its own SELECT is expanded at every reference
  // (200 references of a 200-condition array passed the engine's limit on the query tree).
  const split = [
    ...windows.map((_, k) => `t${k}`),
    "bads",
    `arrayJoin(arrayFilter(x -> x > 0, [${pairList.map(([scope], m) => `if(scopes[${scope}], ${m + 1}, 0)`).join(", ")}])) AS m`,
  ];
  // The pair's bad condition, by pair number: a constant array of small integers.
  const bad = `bads[[${pairList.map(([, sli]) => sli).join(", ")}][m]]`;
  const outer = windows.flatMap((_, k) => [`countIf(t${k}) AS r${k}`, `countIf(t${k} AND ${bad}) AS b${k}`]);
  const where = spanWhere(projectId, { startMs: endMs - longest, endMs }, params);
  const rows = await events.query<Record<string, unknown>>(
    `SELECT m, ${outer.join(", ")} FROM (SELECT ${split.join(", ")} FROM ` +
      `(SELECT ${inner.join(", ")} FROM ${qualified(events, API_REQUESTS)} ${where})) GROUP BY m`,
    params.values,
    "read",
  );
  const byPair = new Map(rows.map((row) => [count(row.m), row]));
  return specs.map((spec, i) => {
    const pair = pairs.get(
      JSON.stringify([scopes.get(JSON.stringify(spec.scope)), slis.get(JSON.stringify(spec.sli))]),
    ) as number;
    const row = byPair.get(pair);
    return (windowsMs[i] ?? []).map((windowMs) => {
      const k = windows.indexOf(windowMs);
      return { requests: count(row?.[`r${k}`]), bad: count(row?.[`b${k}`]) };
    });
  });
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
      `FROM ${qualified(events, API_REQUESTS)} ${where} AND ${scope} GROUP BY day ORDER BY day`,
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
    `SELECT consumer_id AS consumer, count() AS requests FROM ${qualified(events, API_REQUESTS)} ` +
      `${where} AND ${scopeCondition(scope, params)} AND consumer_id != '' ` +
      `GROUP BY consumer ORDER BY requests DESC, consumer ASC LIMIT ${params.bind(limit, "UInt32")}`,
    params.values,
    "read",
  );
  return rows.map((row) => ({ consumer: row.consumer, requests: count(row.requests) }));
}
