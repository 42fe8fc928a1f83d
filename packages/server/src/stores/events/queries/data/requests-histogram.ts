// The latency histogram of a request search: how many matching requests fall in each of the
// fixed, roughly logarithmic buckets (LATENCY_HISTOGRAM_EDGES_MS), counted in one pass.
import { LATENCY_HISTOGRAM_EDGES_MS, type LatencyHistogram } from "@sightline/contracts";
import { API_REQUESTS, type EventsExecutor } from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import { SqlParams } from "../sql.js";
import { qualified } from "../tenant.js";

/** [min, max) of each bucket; the last is open-ended. */
const BOUNDS: ReadonlyArray<readonly [number, number | null]> = LATENCY_HISTOGRAM_EDGES_MS.map(
  (edge, i): readonly [number, number | null] => [
    i === 0 ? 0 : (LATENCY_HISTOGRAM_EDGES_MS[i - 1] ?? 0),
    edge,
  ],
).concat([[LATENCY_HISTOGRAM_EDGES_MS[LATENCY_HISTOGRAM_EDGES_MS.length - 1] ?? 0, null]]);

export async function requestLatencyHistogram(
  events: EventsExecutor,
  filter: RequestFilter,
): Promise<LatencyHistogram> {
  const params = new SqlParams();
  const where = requestFilterClause(filter, params);
  // One countIf per bucket: a single scan of response_time_ms over the filtered rows.
  const counts = BOUNDS.map(([min, max], i) => {
    const upper = max === null ? "" : ` AND response_time_ms < ${params.bind(max, "Float64")}`;
    return `countIf(response_time_ms >= ${params.bind(min, "Float64")}${upper}) AS b${i}`;
  });
  const [row] = await events.query<Record<string, number | string>>(
    `SELECT ${counts.join(", ")}, count() AS total FROM ${qualified(events, API_REQUESTS)} ${where}`,
    params.values,
  );
  return {
    buckets: BOUNDS.map(([min, max], i) => ({
      min_ms: min,
      max_ms: max,
      count: Number(row?.[`b${i}`] ?? 0),
    })),
    total_count: Number(row?.["total"] ?? 0),
  };
}
