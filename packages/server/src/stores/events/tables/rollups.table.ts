// The request rollups: pre-aggregated tables fed from api_requests by materialized views as rows
// are inserted, each declared once with the expression that fills every column from raw rows.
// The same expressions build the views, the backfill and the raw edges of a rolled-up read, so
// a state read from a rollup and one computed from raw rows always merge. Why these two (and not
// a per-endpoint one): docs/adr/0018-rollups.md.
import {
  bytesSql,
  PERCENTILE_LEVELS,
  RESPONSE_TIME_SQL,
  SKETCH_RELATIVE_ACCURACY,
} from "../queries/traffic.js";
import { HISTOGRAM_READ, HISTOGRAM_STATE_SQL, HISTOGRAM_TYPE } from "../queries/latency-histogram.js";
import {
  LATENCY_CLASS_BOUNDS,
  latencyClassColumn,
  latencyClassCondition,
} from "../queries/latency-classes.js";
import { defineEventsTable, type EventsTable } from "./table.js";

/** The DDSketch every rollup keeps: the same accuracy and levels as the raw figures. */
export const LATENCY_SKETCH = `quantilesDD(${SKETCH_RELATIVE_ACCURACY}, ${PERCENTILE_LEVELS.join(", ")})`;
const SKETCH_TYPE = `AggregateFunction(${LATENCY_SKETCH}, Float64)`;
const sum = (type: string) => `SimpleAggregateFunction(sum, ${type})`;

/** `source` of a row: written by the view as rows arrive, or by the backfill of older rows. */
export const ROLLUP_SOURCE = { live: 0, backfill: 1 } as const;

/** Days a rollup keeps its hours by default (start-up sets ROLLUPS_RETENTION_DAYS); the raw
 *  tables' retention stays separate (issue 21 §2). */
const ROLLUP_RETENTION_DAYS = 400;

/** The events migration that gives every rollup row its project's rollup retention. */
export const ROLLUP_DAYS_VERSION = 11;

/**
 * Days a rollup row is kept, carried from api_requests' `rollup_days` (its project's setting
 * when the rows were stored; 0 for the server-wide days). A `max`, not a key: the views and
 * merges fold rows of one group into one, and a group stored under two settings keeps the
 * longer. The TTL counts from the bucket (docs/adr/0023-partitions-and-retention.md).
 */
const ROLLUP_DAYS_COLUMN = {
  name: "rollup_days",
  type: "SimpleAggregateFunction(max, UInt16)",
  since: ROLLUP_DAYS_VERSION,
} as const;

/** Live rows in monthly partitions; backfilled rows per day, so a day is redone by dropping it. */
const PARTITION_BY = "(source, if(source = 0, toYYYYMM(hour), toYYYYMMDD(hour)))";

/** A rollup: its table, its grouping keys, and each column's expression over api_requests. */
export interface Rollup<Name extends string = string> {
  readonly table: EventsTable<Name>;
  /** The view that fills it (`<table>_mv`). */
  readonly view: string;
  /** The grouping columns besides `hour` and `source`, each also a column of api_requests. */
  readonly keys: readonly Name[];
  /** Every aggregate column with the expression computing it from api_requests rows. */
  readonly aggregates: Readonly<Record<string, string>>;
  /** Columns whose view computed them otherwise before migration `until` (same values, more
   *  costly): what earlier migrations' view DDL keeps saying, so their text never changes. */
  readonly formerAggregates?: Readonly<Record<string, { readonly until: number; readonly sql: string }>>;
  /** The rows it holds, as a condition on api_requests (absent: all of them). */
  readonly rows?: string;
  /** Its time bucket: the column holding the bucket's start and how raw rows are floored to it. */
  readonly grain: RollupGrain;
  /** Columns a read takes in another shape than stored: each side's expression (the raw side
   *  aggregates api_requests rows), merged by the read's outer SELECT. */
  readonly readAs?: Readonly<Record<string, { readonly rollup: string; readonly raw: string }>>;
  /** A finer rollup with the same keys and column states that serves this one's edges: the
   *  finer buckets inside a window's partial coarse buckets (docs/adr/0025-rollup-tiers.md). */
  readonly edges?: Rollup<Name>;
  /** The finer rollup whose inserted rows this one's view merges (instead of api_requests'):
   *  only its live rows (source 0), the backfill of older rows having its own snapshot. */
  readonly fedFrom?: Rollup<Name>;
}

export interface RollupGrain {
  readonly column: "hour" | "day";
  readonly ms: number;
  /** The bucket of an api_requests row (a DateTime in UTC). */
  readonly sql: string;
  /** The bucket of an instant held in `column` (a finer rollup's bucket start). */
  readonly of: (column: string) => string;
}

const hourOf = (column: string) => `toStartOfHour(${column})`;
const dayOf = (column: string) => `toDateTime(toStartOfDay(${column}), 'UTC')`;
export const HOURLY: RollupGrain = { column: "hour", ms: 3_600_000, sql: hourOf("timestamp"), of: hourOf };
export const DAILY: RollupGrain = { column: "day", ms: 86_400_000, sql: dayOf("timestamp"), of: dayOf };

const KEY_COLUMNS = [
  { name: "project_id", type: "LowCardinality(String)", since: 6 },
  { name: "app_id", type: "LowCardinality(String)", since: 6 },
  { name: "environment", type: "LowCardinality(String)", since: 6 },
] as const;
const HOUR_COLUMNS = [
  /** The hour (UTC) the rows of this group fell in. */
  { name: "hour", type: "DateTime('UTC')", since: 6 },
  { name: "source", type: "UInt8", since: 6 },
] as const;

const COMMON = {
  engine: "AggregatingMergeTree",
  partitionBy: PARTITION_BY,
  // The partitions stay as they were (no rebuild); only the per-row retention is new.
  layout: { since: ROLLUP_DAYS_VERSION, partitionBy: PARTITION_BY, retentionColumn: "rollup_days" },
  indexes: [],
  defaultRetentionDays: ROLLUP_RETENTION_DAYS,
  ttlColumn: "hour",
  // Only the backfill inserts through the Distributed table (the views write each shard's own
  // rows); any deterministic key will do, since reads merge the states of every shard.
  shardBy: "cityHash64(project_id, app_id, environment)",
} as const;

const CONSUMER_HASH = "cityHash64(consumer_id)";

/**
 * Coarse: per (project, app, environment, hour). Answers the overview's summary and timeseries:
 * a 30-day window is 720 rows per app and environment, whatever the traffic.
 */
export const TRAFFIC_HOURLY: Rollup = {
  table: defineEventsTable({
    ...COMMON,
    name: "api_requests_hourly",
    columns: [
      ...KEY_COLUMNS,
      ...HOUR_COLUMNS,
      { name: "requests", type: sum("UInt64"), since: 6 },
      { name: "errors", type: sum("UInt64"), since: 6 },
      { name: "client_errors", type: sum("UInt64"), since: 6 },
      { name: "server_errors", type: sum("UInt64"), since: 6 },
      { name: "response_time_sum", type: sum("Float64"), since: 6 },
      { name: "request_bytes", type: sum("UInt64"), since: 6 },
      { name: "response_bytes", type: sum("UInt64"), since: 6 },
      { name: "latency", type: SKETCH_TYPE, since: 6 },
      /** Distinct (app, method, route) hashes. */
      { name: "endpoints", type: "AggregateFunction(uniqExact, UInt64)", since: 6 },
      /** Distinct identified consumer hashes. */
      { name: "consumers", type: "AggregateFunction(uniqExact, UInt64)", since: 6 },
      ROLLUP_DAYS_COLUMN,
    ],
    orderBy: ["project_id", "hour", "app_id", "environment", "source"],
  }),
  view: "api_requests_hourly_mv",
  grain: HOURLY,
  keys: ["project_id", "app_id", "environment"],
  aggregates: {
    requests: "count()",
    errors: "countIf(status_code >= 400)",
    client_errors: "countIf(status_code >= 400 AND status_code < 500)",
    server_errors: "countIf(status_code >= 500)",
    response_time_sum: `sum(${RESPONSE_TIME_SQL})`,
    request_bytes: `sum(${bytesSql("request_size")})`,
    response_bytes: `sum(${bytesSql("response_size")})`,
    latency: `${LATENCY_SKETCH.replace("quantilesDD", "quantilesDDState")}(${RESPONSE_TIME_SQL})`,
    endpoints: "uniqExactState(cityHash64(app_id, method, route))",
    consumers: `uniqExactStateIf(${CONSUMER_HASH}, consumer_id != '')`,
  },
};

/**
 * Failed requests (status >= 400) per (project, app, environment, method, route, status code,
 * hour): the errors breakdown, with each group's first and last occurrence (so "first seen" no
 * longer scans the whole retention) and its distinct consumers.
 */
export const ERRORS_HOURLY: Rollup = {
  table: defineEventsTable({
    ...COMMON,
    name: "api_errors_hourly",
    columns: [
      ...KEY_COLUMNS,
      { name: "method", type: "LowCardinality(String)", since: 6 },
      { name: "route", type: "LowCardinality(String)", since: 6 },
      { name: "status_code", type: "UInt16", since: 6 },
      ...HOUR_COLUMNS,
      { name: "requests", type: sum("UInt64"), since: 6 },
      { name: "first_seen", type: "SimpleAggregateFunction(min, DateTime64(3, 'UTC'))", since: 6 },
      { name: "last_seen", type: "SimpleAggregateFunction(max, DateTime64(3, 'UTC'))", since: 6 },
      /** Distinct identified consumer hashes. */
      { name: "consumers", type: "AggregateFunction(uniqExact, UInt64)", since: 6 },
      ROLLUP_DAYS_COLUMN,
    ],
    orderBy: ["project_id", "hour", "app_id", "environment", "method", "route", "status_code", "source"],
  }),
  view: "api_errors_hourly_mv",
  grain: HOURLY,
  keys: ["project_id", "app_id", "environment", "method", "route", "status_code"],
  rows: "status_code >= 400",
  aggregates: {
    requests: "count()",
    first_seen: "min(timestamp)",
    last_seen: "max(timestamp)",
    consumers: `uniqExactStateIf(${CONSUMER_HASH}, consumer_id != '')`,
  },
};

/** The traffic figures every list rollup keeps: counts and sums (exact) and a latency histogram. */
const LIST_FIGURES = {
  requests: "count()",
  errors: "countIf(status_code >= 400)",
  client_errors: "countIf(status_code >= 400 AND status_code < 500)",
  server_errors: "countIf(status_code >= 500)",
  response_time_sum: `sum(${RESPONSE_TIME_SQL})`,
  request_bytes: `sum(${bytesSql("request_size")})`,
  response_bytes: `sum(${bytesSql("response_size")})`,
  last_seen: "max(timestamp)",
  latency_histogram: HISTOGRAM_STATE_SQL,
} as const;
const listFigureColumns = (since: number) =>
  [
    { name: "requests", type: sum("UInt64"), since },
    { name: "errors", type: sum("UInt64"), since },
    { name: "client_errors", type: sum("UInt64"), since },
    { name: "server_errors", type: sum("UInt64"), since },
    { name: "response_time_sum", type: sum("Float64"), since },
    { name: "request_bytes", type: sum("UInt64"), since },
    { name: "response_bytes", type: sum("UInt64"), since },
    { name: "last_seen", type: "SimpleAggregateFunction(max, DateTime64(3, 'UTC'))", since },
    { name: "latency_histogram", type: HISTOGRAM_TYPE, since },
  ] as const;
/** Daily rows: monthly partitions for the view's rows, daily ones for the backfill's. */
const DAILY_PARTITION_BY = "(source, if(source = 0, toYYYYMM(day), toYYYYMMDD(day)))";
const DAILY_COMMON = {
  ...COMMON,
  partitionBy: DAILY_PARTITION_BY,
  layout: { ...COMMON.layout, partitionBy: DAILY_PARTITION_BY },
  ttlColumn: "day",
} as const;
const DAY_COLUMNS = [
  /** The UTC day the rows of this group fell in. */
  { name: "day", type: "DateTime('UTC')", since: 10 },
  { name: "source", type: "UInt8", since: 10 },
] as const;
const LIST_KEY_COLUMNS = KEY_COLUMNS.map((column) => ({ ...column, since: 10 }));

/** The events migration that adds the rollup tiers: hourly edges of the endpoint rollup, daily
 *  coarse states over the hourly ones (docs/adr/0025-rollup-tiers.md). */
export const TIERS_VERSION = 12;

/** The events migration that recreates the consumer rollup's view with its newest names taken
 *  without comparing (time, name) tuples row by row (CONSUMERS_DAILY). */
export const CONSUMER_NAMES_VERSION = 13;

/**
 * `table` (a rollup's, bucketed by `from`) at another grain: the same keys and column states,
 * its bucket column renamed, every column added by migration `version` (bar rollup_days, which
 * every rollup has had since migration 11).
 */
function retimed(table: EventsTable, name: string, from: RollupGrain, to: RollupGrain, version: number) {
  const rename = (column: string) => (column === from.column ? to.column : column);
  return defineEventsTable({
    ...(to.column === "hour" ? COMMON : DAILY_COMMON),
    name,
    columns: table.columns.map((column) => ({
      name: rename(column.name),
      type: column.type,
      since: column.name === ROLLUP_DAYS_COLUMN.name ? column.since : version,
    })),
    orderBy: table.orderBy.map(rename),
  });
}

const ENDPOINT_KEYS = ["project_id", "app_id", "environment", "method", "route"];
const ENDPOINTS_DAILY_TABLE = defineEventsTable({
  ...DAILY_COMMON,
  name: "api_endpoints_daily",
  columns: [
    ...LIST_KEY_COLUMNS,
    { name: "method", type: "LowCardinality(String)", since: 10 },
    { name: "route", type: "LowCardinality(String)", since: 10 },
    ...DAY_COLUMNS,
    ...listFigureColumns(10),
    ROLLUP_DAYS_COLUMN,
  ],
  orderBy: ["project_id", "day", "app_id", "environment", "method", "route", "source"],
});

/**
 * Per (project, app, environment, method, route, hour): the edges of ENDPOINTS_DAILY, i.e. the
 * whole hours of a window's partial first and last days, and every window holding no whole day.
 */
export const ENDPOINTS_HOURLY: Rollup = {
  table: retimed(ENDPOINTS_DAILY_TABLE, "api_endpoints_hourly", DAILY, HOURLY, TIERS_VERSION),
  view: "api_endpoints_hourly_mv",
  grain: HOURLY,
  keys: ENDPOINT_KEYS,
  aggregates: LIST_FIGURES,
  readAs: { latency_histogram: HISTOGRAM_READ },
};

/**
 * Per (project, app, environment, method, route, UTC day): the endpoint list and an endpoint's
 * detail over windows holding whole days. Daily, not hourly: an endpoint sees a few dozen
 * requests an hour on a busy API, too few for a rollup row to be cheaper than the rows it holds
 * (the hourly rollup serves only the partial days at a window's ends).
 */
export const ENDPOINTS_DAILY: Rollup = {
  table: ENDPOINTS_DAILY_TABLE,
  view: "api_endpoints_daily_mv",
  grain: DAILY,
  keys: ENDPOINT_KEYS,
  aggregates: LIST_FIGURES,
  readAs: { latency_histogram: HISTOGRAM_READ },
  edges: ENDPOINTS_HOURLY,
};

/** A consumer's newest non-empty name or group: the greatest (timestamp, value) pair. */
const LATEST_TYPE = "SimpleAggregateFunction(max, Tuple(DateTime64(3, 'UTC'), String))";
/**
 * That pair as the newest time and the value at it. The view computed it as the greatest
 * (timestamp, value) tuple until migration 13: comparing the tuples row by row cost about
 * 0.47 µs per row for the two columns, and at 100 M rows the raw edges of a 7 d consumers page
 * took 1.9 s with it and 1.0 s without. Values of the same millisecond keep either, as the reads'
 * argMax does (consumers.ts); stored rows still merge as the greatest pair.
 */
const latest = (column: string) =>
  `tuple(maxIf(timestamp, ${column} != ''), argMaxIf(${column}, timestamp, ${column} != ''))`;
const formerLatest = (column: string) => ({
  until: CONSUMER_NAMES_VERSION,
  sql: `maxIf(tuple(timestamp, ${column}), ${column} != '')`,
});

/** Per (project, app, environment, consumer, UTC day): the consumer list over whole days. */
export const CONSUMERS_DAILY: Rollup = {
  table: defineEventsTable({
    ...DAILY_COMMON,
    name: "api_consumers_daily",
    columns: [
      ...LIST_KEY_COLUMNS,
      { name: "consumer_id", type: "String", since: 10 },
      ...DAY_COLUMNS,
      ...listFigureColumns(10),
      { name: "latest_name", type: LATEST_TYPE, since: 10 },
      { name: "latest_group", type: LATEST_TYPE, since: 10 },
      ROLLUP_DAYS_COLUMN,
    ],
    orderBy: ["project_id", "day", "app_id", "environment", "consumer_id", "source"],
  }),
  view: "api_consumers_daily_mv",
  grain: DAILY,
  keys: ["project_id", "app_id", "environment", "consumer_id"],
  aggregates: {
    ...LIST_FIGURES,
    latest_name: latest("consumer_name"),
    latest_group: latest("consumer_group"),
  },
  formerAggregates: {
    latest_name: formerLatest("consumer_name"),
    latest_group: formerLatest("consumer_group"),
  },
  readAs: { latency_histogram: HISTOGRAM_READ },
};

/** `hourly` summed per UTC day, fed from the hourly rollup's inserts, with it as its edges. */
function dailyOf(hourly: Rollup, name: string): Rollup {
  return {
    ...hourly,
    table: retimed(hourly.table, name, HOURLY, DAILY, TIERS_VERSION),
    view: `${name}_mv`,
    grain: DAILY,
    edges: hourly,
    fedFrom: hourly,
  };
}

/** Per (project, app, environment, UTC day): the summary over long windows, whose distinct
 *  consumers merge one hash set per day instead of 24. */
export const TRAFFIC_DAILY: Rollup = dailyOf(TRAFFIC_HOURLY, "api_requests_daily");
/** ERRORS_HOURLY per UTC day: the errors page's window and every group's first occurrence. */
export const ERRORS_DAILY: Rollup = dailyOf(ERRORS_HOURLY, "api_errors_daily");

/** The columns of an hourly rollup of counts added by migration `version`: the common keys, then
 *  `keys`, the hour, and a sum per name of `counts`, plus rollup_days. */
function countsColumns(
  version: number,
  keys: ReadonlyArray<{ readonly name: string; readonly type: string }>,
  counts: readonly string[],
) {
  return [
    ...[
      ...KEY_COLUMNS,
      ...keys,
      ...HOUR_COLUMNS,
      ...counts.map((name) => ({ name, type: sum("UInt64") })),
    ].map((column) => ({ ...column, since: version })),
    ROLLUP_DAYS_COLUMN,
  ];
}

/** The events migration that adds ENDPOINT_STATUSES_HOURLY. */
export const STATUSES_VERSION = 14;

/**
 * Requests per (project, app, environment, method, route, status code, hour): an endpoint's
 * status codes, every status (the errors rollup holds the failed ones only). A count and nothing
 * else, so its view costs little at insert; an endpoint's 30 days are 720 hours times its few
 * status codes, where raw rows were millions on a busy endpoint.
 */
export const ENDPOINT_STATUSES_HOURLY: Rollup = {
  table: defineEventsTable({
    ...COMMON,
    name: "api_endpoint_statuses_hourly",
    columns: countsColumns(
      STATUSES_VERSION,
      [
        { name: "method", type: "LowCardinality(String)" },
        { name: "route", type: "LowCardinality(String)" },
        { name: "status_code", type: "UInt16" },
      ],
      ["requests"],
    ),
    // Read for one endpoint at a time: its rows sorted together, then by hour, so a window of
    // an endpoint reads its few thousand rows, not every endpoint's hours.
    orderBy: ["project_id", "app_id", "method", "route", "hour", "environment", "status_code", "source"],
  }),
  view: "api_endpoint_statuses_hourly_mv",
  grain: HOURLY,
  keys: [...ENDPOINT_KEYS, "status_code"],
  aggregates: { requests: "count()" },
};

/** The events migration that adds REQUEST_LATENCY_HOURLY. */
export const LATENCY_CLASSES_VERSION = 16;

/**
 * Requests per (project, app, environment, hour) and how many fell in each bucket of the requests
 * page's latency histogram: that histogram over a window without other filters, which read the
 * latency of every row in the window (1.4 s of CPU at 30 d on 100 M rows). Counts only, so its
 * view costs little at insert and a 30-day window reads 720 rows per app and environment.
 */
export const REQUEST_LATENCY_HOURLY: Rollup = {
  table: defineEventsTable({
    ...COMMON,
    name: "api_request_latency_hourly",
    columns: countsColumns(
      LATENCY_CLASSES_VERSION,
      [],
      ["requests", ...LATENCY_CLASS_BOUNDS.map((_, index) => latencyClassColumn(index))],
    ),
    orderBy: ["project_id", "hour", "app_id", "environment", "source"],
  }),
  view: "api_request_latency_hourly_mv",
  grain: HOURLY,
  keys: ["project_id", "app_id", "environment"],
  aggregates: {
    requests: "count()",
    ...Object.fromEntries(
      LATENCY_CLASS_BOUNDS.map((_, index) => [
        latencyClassColumn(index),
        `countIf(${latencyClassCondition(index)})`,
      ]),
    ),
  },
};

/** The rollups of events migration 6 (hourly: overview, errors). */
export const HOURLY_ROLLUPS: readonly Rollup[] = [TRAFFIC_HOURLY, ERRORS_HOURLY];
/** The rollups of events migration 10 (daily: endpoint and consumer lists, endpoint detail). */
export const LIST_ROLLUPS: readonly Rollup[] = [ENDPOINTS_DAILY, CONSUMERS_DAILY];
/** The rollups of events migration 12 (the tiers: endpoint edges, daily summary and errors). */
export const TIER_ROLLUPS: readonly Rollup[] = [ENDPOINTS_HOURLY, TRAFFIC_DAILY, ERRORS_DAILY];
/** The rollups of events migration 14 (an endpoint's status codes). */
export const STATUS_ROLLUPS: readonly Rollup[] = [ENDPOINT_STATUSES_HOURLY];
/** The rollups of events migration 16 (the requests page's latency histogram). */
export const LATENCY_ROLLUPS: readonly Rollup[] = [REQUEST_LATENCY_HOURLY];
export const ROLLUPS: readonly Rollup[] = [
  ...HOURLY_ROLLUPS,
  ...LIST_ROLLUPS,
  ...TIER_ROLLUPS,
  ...STATUS_ROLLUPS,
  ...LATENCY_ROLLUPS,
];

/** The columns of `rollup` as events migration `version` had them, in declaration order. */
export function rollupColumns(rollup: Rollup, version = Number.POSITIVE_INFINITY): string[] {
  return rollup.table.columns.filter((column) => column.since <= version).map((column) => column.name);
}

/** The SELECT that aggregates api_requests rows (`where`: `WHERE …` or empty) into `rollup`'s
 *  columns as migration `version` had them, in declaration order. */
export function rollupSelect(
  rollup: Rollup,
  from: string,
  where = "",
  source: number = ROLLUP_SOURCE.live,
  version = Number.POSITIVE_INFINITY,
): string {
  const expressions = rollupColumns(rollup, version).map((column) => {
    if (column === rollup.grain.column) return `${rollup.grain.sql} AS ${column}`;
    if (column === "source") return `toUInt8(${source}) AS source`;
    // Backfilled rows were stored before per-project rollup retention (and the snapshots they
    // are read from predate the column): the server-wide days, as api_requests' default.
    if (column === ROLLUP_DAYS_COLUMN.name)
      return source === ROLLUP_SOURCE.backfill
        ? "toUInt16(0) AS rollup_days"
        : "max(rollup_days) AS rollup_days";
    if ((rollup.keys as readonly string[]).includes(column)) return column;
    const former = rollup.formerAggregates?.[column];
    const aggregate = former !== undefined && version < former.until ? former.sql : rollup.aggregates[column];
    if (aggregate === undefined) throw new Error(`${rollup.table.name}.${column} has no expression`);
    return `${aggregate} AS ${column}`;
  });
  const conditions = [where.replace(/^WHERE /, ""), rollup.rows ?? ""].filter(
    (condition) => condition !== "",
  );
  return (
    `SELECT ${expressions.join(", ")} FROM ${from}` +
    (conditions.length === 0
      ? ""
      : ` WHERE ${conditions.map((condition) => `(${condition})`).join(" AND ")}`) +
    ` GROUP BY ${[...rollup.keys, rollup.grain.column].join(", ")}`
  );
}

/** The expression that merges a stored column of `type` across rows into the same type. */
function mergeOf(column: string, type: string): string {
  const simple = /^SimpleAggregateFunction\((\w+), /.exec(type);
  if (simple !== null) return `${simple[1]}(${column})`;
  const state = /^AggregateFunction\((\w+)(\([^)]*\))?, /.exec(type);
  if (state !== null) return `${state[1]}MergeState${state[2] ?? ""}(${column})`;
  throw new Error(`${column} (${type}) is not an aggregate column`);
}

/**
 * The SELECT that merges `rollup.fedFrom`'s rows (from `from`) into `rollup`'s buckets: the
 * view of a coarse rollup sees only the finer rows of each insert, far fewer than the raw ones.
 * Live rows only: backfilled finer rows come from a snapshot the coarse rollup backfills itself.
 */
export function coarsenSelect(rollup: Rollup, from: string): string {
  const finer = rollup.fedFrom;
  if (finer === undefined) throw new Error(`${rollup.table.name} is not fed from a finer rollup`);
  const expressions = rollup.table.columns.map((column) => {
    if (column.name === rollup.grain.column)
      return `${rollup.grain.of(finer.grain.column)} AS ${column.name}`;
    // Kept as the column (0 after the WHERE): an alias named `source` would be read there too.
    if (column.name === "source" || (rollup.keys as readonly string[]).includes(column.name))
      return column.name;
    return `${mergeOf(column.name, column.type)} AS ${column.name}`;
  });
  return (
    `SELECT ${expressions.join(", ")} FROM ${from} WHERE source = ${ROLLUP_SOURCE.live} ` +
    `GROUP BY ${[...rollup.keys, rollup.grain.column, "source"].join(", ")}`
  );
}
