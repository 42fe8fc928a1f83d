// Figures of overall traffic: the summary of a window and its timeseries. One statement each.
import type { Summary, TimeseriesPoint } from "@sightline/contracts";
import {
  API_REQUESTS,
  DAILY,
  ENDPOINTS_DAILY,
  ENDPOINTS_HOURLY,
  type EventsExecutor,
  LATENCY_SKETCH,
  type Rollup,
  type RollupGrain,
  TRAFFIC_DAILY,
  TRAFFIC_HOURLY,
} from "../../index.js";
import { type RequestFilter, requestFilterClause } from "../request-filter.js";
import type { RollupCoverage } from "../rollups/coverage.js";
import { LIST_COLUMNS, LIST_GROUP_SQL, LIST_PERCENTILES_SQL } from "../rollups/lists.js";
import { mergedSource, planWindow, rollupServes } from "../rollups/merged.js";
import type { WindowSplit } from "../rollups/split.js";
import { SqlParams } from "../sql.js";
import {
  EXACT_PERCENTILE_ROWS,
  finite,
  PERCENTILES_SQL,
  toTrafficFigures,
  TRAFFIC_SQL,
  type TrafficRow,
} from "../traffic.js";
import { type AnalyticsWindow, type Bucketing, INTERVALS } from "./intervals.js";
import { qualified } from "../tenant.js";

/** The traffic figures over a merged source of TRAFFIC_HOURLY (or _DAILY) columns; aliases match TrafficRow. */
const MERGED_TRAFFIC_SQL = [
  "sum(c_requests) AS total_requests",
  "sum(c_errors) AS error_count",
  "sum(c_client_errors) AS client_errors",
  "sum(c_server_errors) AS server_errors",
  "sum(c_response_time_sum) / sum(c_requests) AS avg_response_time_ms",
  `${LATENCY_SKETCH.replace("quantilesDD", "quantilesDDMerge")}(c_latency) AS percentiles`,
  "sum(c_request_bytes) AS total_request_bytes",
  "sum(c_response_bytes) AS total_response_bytes",
].join(", ");
const TRAFFIC_COLUMNS = [
  "requests",
  "errors",
  "client_errors",
  "server_errors",
  "response_time_sum",
  "latency",
  "request_bytes",
  "response_bytes",
] as const;

/** A group whose percentiles must be exact (small), so the rolled-up answer is not used. */
const needsExact = (total: number) => total > 0 && total <= EXACT_PERCENTILE_ROWS;

/**
 * Traffic figures of the window plus distinct endpoints (app, method, route template) and distinct
 * identified consumers. Distinct values are counted over 64-bit hashes: measured 1.7x faster than
 * over the strings on 1.3 M rows, and a collision among a few thousand values is ~1e-13 likely.
 */
export async function summary(
  events: EventsExecutor,
  filter: RequestFilter,
  coverage?: RollupCoverage,
): Promise<Summary> {
  // Daily states over the window's whole days (a distinct count merges one set per day, not
  // 24), hourly ones over its partial days.
  const split = await planWindow(TRAFFIC_DAILY, filter, coverage, Date.now());
  if (split !== undefined) {
    const rolled = await rolledSummary(events, filter, split);
    if (!needsExact(rolled.total_requests)) return rolled;
  }
  const params = new SqlParams();
  const [row] = await events.query<TrafficRow & { unique_endpoints: number; unique_consumers: number }>(
    `SELECT ${TRAFFIC_SQL}, ` +
      "uniqExact(cityHash64(app_id, method, route)) AS unique_endpoints, " +
      "uniqExactIf(cityHash64(consumer_id), consumer_id != '') AS unique_consumers " +
      `FROM ${qualified(events, API_REQUESTS)} ${requestFilterClause(filter, params)}`,
    params.values,
  );
  return {
    ...toTrafficFigures(row),
    unique_endpoints: finite(row?.unique_endpoints),
    unique_consumers: finite(row?.unique_consumers),
  };
}

async function rolledSummary(
  events: EventsExecutor,
  filter: RequestFilter,
  split: WindowSplit,
): Promise<Summary> {
  const params = new SqlParams();
  const source = mergedSource(
    events,
    TRAFFIC_DAILY,
    filter,
    split,
    [],
    [...TRAFFIC_COLUMNS, "endpoints", "consumers"],
    params,
  );
  const [row] = await events.query<TrafficRow & { unique_endpoints: number; unique_consumers: number }>(
    `SELECT ${MERGED_TRAFFIC_SQL}, uniqExactMerge(c_endpoints) AS unique_endpoints, ` +
      `uniqExactMerge(c_consumers) AS unique_consumers FROM ${source}`,
    params.values,
  );
  return {
    ...toTrafficFigures(row),
    unique_endpoints: finite(row?.unique_endpoints),
    unique_consumers: finite(row?.unique_consumers),
  };
}

/**
 * Every bucket from the one holding `since` to the one holding `until`, zero-filled, ascending.
 * Buckets are aligned in the requested zone by the engine's own toStartOfInterval, and the grid
 * of buckets is built by the same function over probe instants spaced closer than the shortest
 * possible bucket: data and grid can never disagree about a bucket's start, daylight saving
 * included. Bucket starts come back as UTC instants.
 */
export async function timeseries(
  events: EventsExecutor,
  filter: RequestFilter & AnalyticsWindow,
  bucketing: Bucketing,
  coverage?: RollupCoverage,
): Promise<TimeseriesPoint[]> {
  const spec = INTERVALS[bucketing.interval];
  // Rollup buckets fit in the series' buckets only when these are whole hours in a whole-hour
  // zone (whole UTC days in a zone at UTC throughout, for a daily rollup).
  const fits = (grain: RollupGrain) =>
    spec.ms % grain.ms === 0 &&
    offsetsThroughout(bucketing.timezone, filter.since, filter.until, grain === DAILY ? UTC : WHOLE_HOURS);
  const source = SERIES_SOURCES.find(({ rollup }) => rollupServes(rollup, filter) && fits(rollup.grain));
  const split =
    source === undefined ? undefined : await planWindow(source.rollup, filter, coverage, Date.now());
  if (source !== undefined && split !== undefined) {
    const points = await seriesQuery(events, filter, bucketing, { ...source, split });
    const small = points.flatMap((point, index) => (needsExact(point.total_requests) ? [index] : []));
    // A few small buckets (typically the window's partial first and last) get exact
    // percentiles from their own raw rows; many small ones mean a small group: all raw.
    if (small.length <= MAX_EXACT_BUCKETS) {
      for (const index of small) {
        const point = points[index] as TimeseriesPoint;
        const next = points[index + 1];
        const since = Math.max(filter.since, Date.parse(point.bucket));
        const until = next === undefined ? filter.until : Math.min(filter.until, Date.parse(next.bucket) - 1);
        const exact = await exactPercentiles(events, { ...filter, since, until });
        points[index] = {
          ...point,
          p50_response_time_ms: finite(exact[0]),
          p95_response_time_ms: finite(exact[1]),
          p99_response_time_ms: finite(exact[2]),
        };
      }
      return points;
    }
  }
  return seriesQuery(events, filter, bucketing, undefined);
}

/** A rollup a series can read: its columns, and the figures per bucket over them. */
interface SeriesSource {
  readonly rollup: Rollup;
  readonly columns: readonly string[];
  /** TrafficRow's aliases per `bucket` over a merged source of `columns`. */
  readonly figures: (source: string) => string;
}

const listFigures = (source: string) =>
  `SELECT *, ${LIST_PERCENTILES_SQL} FROM (SELECT bucket, ${LIST_GROUP_SQL} FROM ${source} GROUP BY bucket)`;

/**
 * The first that serves the filter and fits the buckets is read: overall traffic, or (a filter
 * on endpoints, as an endpoint's page has) the endpoint rollups, whose percentiles come from
 * their latency histogram (within 1 % of exact, ADR 0018) instead of a sketch (ADR 0026).
 */
const SERIES_SOURCES: readonly SeriesSource[] = [
  {
    rollup: TRAFFIC_HOURLY,
    columns: TRAFFIC_COLUMNS,
    figures: (source) => `SELECT bucket, ${MERGED_TRAFFIC_SQL} FROM ${source} GROUP BY bucket`,
  },
  // Daily buckets in UTC read whole days (and their hourly edges): at 100 M rows a 90-day series
  // of the busiest endpoint read 2.5 M hourly rows of the project's endpoints.
  { rollup: ENDPOINTS_DAILY, columns: LIST_COLUMNS, figures: listFigures },
  { rollup: ENDPOINTS_HOURLY, columns: LIST_COLUMNS, figures: listFigures },
];

/** Small buckets of a rolled-up series re-read one by one; more send the series to raw rows. */
const MAX_EXACT_BUCKETS = 4;

async function exactPercentiles(
  events: EventsExecutor,
  filter: RequestFilter,
): Promise<ReadonlyArray<number | null>> {
  const params = new SqlParams();
  const [row] = await events.query<{ percentiles: Array<number | null> }>(
    `SELECT ${PERCENTILES_SQL} AS percentiles FROM ${qualified(events, API_REQUESTS)} ` +
      requestFilterClause(filter, params),
    params.values,
  );
  return row?.percentiles ?? [];
}

async function seriesQuery(
  events: EventsExecutor,
  filter: RequestFilter & AnalyticsWindow,
  bucketing: Bucketing,
  rolled: (SeriesSource & { readonly split: WindowSplit }) | undefined,
): Promise<TimeseriesPoint[]> {
  const spec = INTERVALS[bucketing.interval];
  const params = new SqlParams();
  const zone = params.bind(bucketing.timezone, "String");
  const since = params.instant(filter.since);
  const until = params.instant(filter.until);
  const probes = Math.floor((filter.until - filter.since) / spec.probeMs) + 2;
  const bucketOf = (instant: string) => `toStartOfInterval(${instant}, ${spec.sql}, ${zone})`;
  const table = qualified(events, API_REQUESTS);
  const rawData = () =>
    `SELECT ${bucketOf("timestamp")} AS bucket, ${TRAFFIC_SQL} ` +
    `FROM ${table} ${requestFilterClause(filter, params)} GROUP BY bucket`;
  const rolledData = ({ rollup, split, columns, figures }: SeriesSource & { readonly split: WindowSplit }) =>
    figures(
      mergedSource(
        events,
        rollup,
        filter,
        split,
        // The same type on both sides: the tier's bucket (hour or day) as the DateTime64 the
        // raw timestamp is.
        [
          {
            alias: "bucket",
            rollup: (tier) => bucketOf(`toDateTime64(${tier.grain.column}, 3, 'UTC')`),
            raw: bucketOf("timestamp"),
          },
        ],
        columns,
        params,
      ),
    );
  const rows = await events.query<TrafficRow & { bucket: string }>(
    `SELECT toTimeZone(grid.bucket, 'UTC') AS bucket, ` +
      "data.total_requests AS total_requests, data.error_count AS error_count, " +
      "data.client_errors AS client_errors, data.server_errors AS server_errors, " +
      "data.avg_response_time_ms AS avg_response_time_ms, data.percentiles AS percentiles, " +
      "data.total_request_bytes AS total_request_bytes, data.total_response_bytes AS total_response_bytes " +
      `FROM (SELECT DISTINCT ${bucketOf(
        `least(addMilliseconds(${since}, number * ${params.bind(spec.probeMs, "UInt64")}), ${until})`,
      )} AS bucket FROM numbers(${params.bind(probes, "UInt64")})) AS grid ` +
      `LEFT JOIN (${rolled === undefined ? rawData() : rolledData(rolled)}) AS data ` +
      "ON grid.bucket = data.bucket ORDER BY grid.bucket",
    params.values,
  );
  return rows.map((row) => ({ bucket: new Date(row.bucket).toISOString(), ...toTrafficFigures(row) }));
}

/** Zone offsets (as Intl names them: "GMT" or "GMT+00:00", "GMT+05:30") a rollup's buckets fit in. */
const UTC = (name: string) => /^GMT([+-]00:00)?$/.test(name);
const WHOLE_HOURS = (name: string) => name === "GMT" || /^GMT[+-]\d{2}:00$/.test(name);

/**
 * Whether `zone`'s offset is one `accepted` throughout the window (probed daily and at both
 * ends; offsets change at most a few times a year): whole hours put every UTC hour in one
 * bucket, UTC itself every UTC day.
 */
function offsetsThroughout(
  zone: string,
  since: number,
  until: number,
  accepted: (name: string) => boolean,
): boolean {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
  } catch {
    return false;
  }
  const probes = [since, until];
  for (let at = since + 86_400_000; at < until; at += 86_400_000) probes.push(at);
  return probes.every((at) => {
    const name = format.formatToParts(new Date(at)).find((part) => part.type === "timeZoneName")?.value;
    return name !== undefined && accepted(name);
  });
}
