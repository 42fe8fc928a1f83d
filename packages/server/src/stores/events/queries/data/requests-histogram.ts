// The latency histogram of a request search: how many matching requests fall in each of the
// fixed, roughly logarithmic buckets (LATENCY_HISTOGRAM_EDGES_MS). A search on the window alone
// (project, apps, environment) sums the hourly rollup of those counts for its whole hours and
// counts raw rows for the rest; any other filter counts raw rows in one pass. Exact either way.
import type { LatencyHistogram } from "@sightline/contracts";
import { API_REQUESTS, type EventsExecutor, REQUEST_LATENCY_HOURLY } from "../../index.js";
import { LATENCY_CLASS_BOUNDS, latencyClassColumn, latencyClassCondition } from "../latency-classes.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import { mergedSource, planWindow } from "../rollups/merged.js";
import { SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";

const COLUMNS = LATENCY_CLASS_BOUNDS.map((_, index) => latencyClassColumn(index));

export async function requestLatencyHistogram(
  events: EventsExecutor,
  filter: RequestFilter,
  coverage?: RollupCoverage,
): Promise<LatencyHistogram> {
  const params = new SqlParams();
  const split = await planWindow(REQUEST_LATENCY_HOURLY, filter, coverage, Date.now());
  const sql =
    split === undefined
      ? // One countIf per bucket: a single scan of response_time_ms over the filtered rows.
        `SELECT ${COLUMNS.map((column, index) => `countIf(${latencyClassCondition(index)}) AS ${column}`).join(", ")}, ` +
        `count() AS requests FROM ${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)}`
      : `SELECT ${[...COLUMNS, "requests"].map((column) => `sum(c_${column}) AS ${column}`).join(", ")} ` +
        `FROM ${mergedSource(events, REQUEST_LATENCY_HOURLY, filter, split, [], [...COLUMNS, "requests"], params)}`;
  const [row] = await events.query<Record<string, number | string>>(sql, params.values);
  return {
    buckets: LATENCY_CLASS_BOUNDS.map(([min, max], index) => ({
      min_ms: min,
      max_ms: max,
      count: Number(row?.[latencyClassColumn(index)] ?? 0),
    })),
    total_count: Number(row?.["requests"] ?? 0),
  };
}
