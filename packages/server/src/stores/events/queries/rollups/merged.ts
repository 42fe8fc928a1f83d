// Rolled-up reads: one FROM that yields a rollup's rows for the window's whole buckets, its finer
// tier's rows for the whole buckets of its edges, and the same columns computed from raw rows for
// the rest, so the figure's outer SELECT merges them all and never knows which was read. The
// outer SELECT must aggregate (sum, max, min, -Merge) every column.
import { API_REQUESTS, type Rollup } from "../../tables/index.js";
import { type RequestFilter, requestConditions } from "../request-filter.js";
import { allOf, type SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";
import type { RollupCoverage } from "./coverage.js";
import { splitTiers, type Tier, type WindowSplit } from "./split.js";

/** A grouping key of a rolled-up read: its alias and how each source computes it. */
export interface MergedKey {
  readonly alias: string;
  /** Over the rollup's columns (its bucket, `hour` or `day`, is a DateTime); a function of the
   *  tier read when it names the bucket column. */
  readonly rollup: string | ((tier: Rollup) => string);
  /** Over api_requests' columns (`timestamp` is a DateTime64(3)). */
  readonly raw: string;
}

/** The filter fields every rollup serves: the tenant, its apps and environment, the window. */
const BASE_FIELDS = ["projectId", "appIds", "environment", "since", "until", "keptSince"] as const;
type FilterField = keyof RequestFilter;

const ERROR_FIELDS: readonly FilterField[] = [
  "methods",
  "statusCodes",
  "statusClasses",
  "routes",
  "endpoints",
  "endpointSearch",
];
const ENDPOINT_FIELDS: readonly FilterField[] = ["methods", "routes", "endpoints", "endpointSearch"];

/** The filter fields each rollup can answer beyond the base ones (its key columns); a tier's
 *  edges answer the same (they have its keys). */
export const SERVED_FIELDS: Readonly<Record<string, readonly FilterField[]>> = {
  api_requests_hourly: [],
  api_requests_daily: [],
  api_errors_hourly: ERROR_FIELDS,
  api_errors_daily: ERROR_FIELDS,
  api_endpoints_daily: ENDPOINT_FIELDS,
  api_endpoints_hourly: ENDPOINT_FIELDS,
  api_consumers_daily: ["consumerId"],
  api_endpoint_statuses_hourly: ERROR_FIELDS,
  api_request_latency_hourly: [],
};

/** Whether every condition of `filter` is on a column `rollup` keeps. */
export function rollupServes(rollup: Rollup, filter: RequestFilter): boolean {
  const served = new Set<FilterField>([...BASE_FIELDS, ...(SERVED_FIELDS[rollup.table.name] ?? [])]);
  if (rollup.rows !== undefined && !withinErrors(filter)) return false;
  return (Object.keys(filter) as FilterField[]).every((field) => {
    const value = filter[field];
    if (value === undefined || served.has(field)) return true;
    // Empty lists are no condition (appIds is served, so [] never reaches here).
    return Array.isArray(value) && value.length === 0;
  });
}

/**
 * `filter` without the conditions `rollup` cannot answer: it matches every row `filter` matches
 * (and more), so a minimum read over it is a lower bound of the minimum over `filter`.
 */
export function servedPart<F extends RequestFilter>(rollup: Rollup, filter: F): F {
  const served = new Set<FilterField>([...BASE_FIELDS, ...(SERVED_FIELDS[rollup.table.name] ?? [])]);
  const kept = { ...filter };
  for (const field of Object.keys(kept) as FilterField[]) {
    if (!served.has(field)) delete (kept as Partial<RequestFilter>)[field];
  }
  return kept;
}

/** Whether `filter` asks for failed requests only (statuses >= 400), as a rollup of them holds. */
function withinErrors(filter: RequestFilter): boolean {
  const codes = filter.statusCodes ?? [];
  const classes = filter.statusClasses ?? [];
  return (
    codes.length + classes.length > 0 && codes.every((code) => code >= 400) && classes.every((c) => c >= 4)
  );
}

/**
 * How `filter`'s window splits over `rollup` and its finer tiers (`edges`), or undefined when it
 * is read raw alone: no coverage (rollups off), a condition the rollup cannot answer, or no whole
 * bucket of any tier to read. Each tier counts from its own coverage.
 */
export async function planWindow(
  rollup: Rollup,
  filter: RequestFilter & { readonly since?: number | undefined; readonly until?: number | undefined },
  coverage: RollupCoverage | undefined,
  nowMs: number,
): Promise<WindowSplit | undefined> {
  if (coverage === undefined || !rollupServes(rollup, filter)) return undefined;
  const tiers: Array<Tier<Rollup>> = [];
  for (let tier: Rollup | undefined = rollup; tier !== undefined; tier = tier.edges) {
    tiers.push({ tier, bucketMs: tier.grain.ms, completeFromMs: await coverage.completeFrom(tier) });
  }
  // Nothing before keptSince is read: the rollups' buckets start at or after it.
  const split = splitTiers(Math.max(filter.since ?? 0, filter.keptSince ?? 0), filter.until ?? nowMs, tiers);
  return split.buckets.length === 0 ? undefined : split;
}

/**
 * `(SELECT keys, columns FROM rollup … UNION ALL SELECT keys, columns FROM finer rollup … UNION
 * ALL SELECT keys, expressions FROM api_requests … GROUP BY keys …)`: the rollup's `columns` over
 * the split, grouped by `keys`, each column aliased `c_<column>` (so an outer `sum(c_x) AS x`
 * never shadows what it sums). `rollup` is the split's coarsest tier: its raw expressions serve
 * every tier. Every value is bound into `params`.
 */
export function mergedSource(
  events: { readonly database: string },
  rollup: Rollup,
  filter: RequestFilter,
  split: WindowSplit,
  keys: readonly MergedKey[],
  columns: readonly string[],
  params: SqlParams,
  /** Further conditions on columns both sources have (key columns). */
  extra: readonly string[] = [],
): string {
  const rawTable = qualified(events, API_REQUESTS);
  const parts: string[] = [];
  // The split bounds the rollup's buckets (keptSince included); the conditions keep the rest.
  const unbounded = { ...filter, since: undefined, until: undefined, keptSince: undefined };
  for (const { tier, fromMs, toMs } of split.buckets) {
    const { cheap } = requestConditions(unbounded, params);
    const where = allOf([
      ...cheap,
      ...extra,
      `${tier.grain.column} >= ${params.instant(fromMs)}`,
      `${tier.grain.column} < ${params.instant(toMs)}`,
    ]);
    const select = [
      ...keys.map(
        (key) => `${typeof key.rollup === "string" ? key.rollup : key.rollup(tier)} AS ${key.alias}`,
      ),
      ...columns.map((column) => `${tier.readAs?.[column]?.rollup ?? column} AS c_${column}`),
    ];
    parts.push(`SELECT ${select.join(", ")} FROM ${qualified(events, tier.table)} WHERE ${where}`);
  }
  for (const range of split.raw) {
    const { cheap, late } = requestConditions({ ...filter, since: range.since, until: range.until }, params);
    if (rollup.rows !== undefined) cheap.push(`(${rollup.rows})`);
    cheap.push(...extra);
    const select = [
      ...keys.map((key) => `${key.raw} AS ${key.alias}`),
      ...columns.map((column) => {
        const expression = rollup.readAs?.[column]?.raw ?? rollup.aggregates[column];
        if (expression === undefined) throw new Error(`${rollup.table.name} has no column ${column}`);
        return `${expression} AS c_${column}`;
      }),
    ];
    const where =
      late.length === 0 ? `WHERE ${allOf(cheap)}` : `PREWHERE ${allOf(cheap)} WHERE ${allOf(late)}`;
    const group = keys.length === 0 ? "" : ` GROUP BY ${keys.map((key) => key.alias).join(", ")}`;
    parts.push(`SELECT ${select.join(", ")} FROM ${rawTable} ${where}${group}`);
  }
  return `(${parts.join(" UNION ALL ")})`;
}
