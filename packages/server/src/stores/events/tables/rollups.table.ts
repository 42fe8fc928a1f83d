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
import { defineEventsTable, type EventsTable } from "./table.js";

/** The DDSketch every rollup keeps: the same accuracy and levels as the raw figures. */
export const LATENCY_SKETCH = `quantilesDD(${SKETCH_RELATIVE_ACCURACY}, ${PERCENTILE_LEVELS.join(", ")})`;
const SKETCH_TYPE = `AggregateFunction(${LATENCY_SKETCH}, Float64)`;
const sum = (type: string) => `SimpleAggregateFunction(sum, ${type})`;

/** `source` of a row: written by the view as rows arrive, or by the backfill of older rows. */
export const ROLLUP_SOURCE = { live: 0, backfill: 1 } as const;

/** Days a rollup keeps its hours; the raw tables' retention stays separate (issue 21 §2). */
const ROLLUP_RETENTION_DAYS = 400;

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
  /** The rows it holds, as a condition on api_requests (absent: all of them). */
  readonly rows?: string;
}

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
  indexes: [],
  defaultRetentionDays: ROLLUP_RETENTION_DAYS,
  ttlColumn: "hour",
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
    ],
    orderBy: ["project_id", "hour", "app_id", "environment", "source"],
  }),
  view: "api_requests_hourly_mv",
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
    ],
    orderBy: ["project_id", "hour", "app_id", "environment", "method", "route", "status_code", "source"],
  }),
  view: "api_errors_hourly_mv",
  keys: ["project_id", "app_id", "environment", "method", "route", "status_code"],
  rows: "status_code >= 400",
  aggregates: {
    requests: "count()",
    first_seen: "min(timestamp)",
    last_seen: "max(timestamp)",
    consumers: `uniqExactStateIf(${CONSUMER_HASH}, consumer_id != '')`,
  },
};

export const ROLLUPS: readonly Rollup[] = [TRAFFIC_HOURLY, ERRORS_HOURLY];

/** The SELECT that aggregates api_requests rows (`where`: `WHERE …` or empty) into `rollup`'s
 *  columns, in declaration order. */
export function rollupSelect(
  rollup: Rollup,
  from: string,
  where = "",
  source: number = ROLLUP_SOURCE.live,
): string {
  const expressions = rollup.table.columnNames.map((column) => {
    if (column === "hour") return "toStartOfHour(timestamp) AS hour";
    if (column === "source") return `toUInt8(${source}) AS source`;
    if ((rollup.keys as readonly string[]).includes(column)) return column;
    const aggregate = rollup.aggregates[column];
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
    ` GROUP BY ${[...rollup.keys, "hour"].join(", ")}`
  );
}
