// The time frame of an analytics statement: its window, and for timeseries the bucket widths
// (as engine SQL) and zone; modules/analytics/window.ts reads them from query parameters.
import type { TimeseriesInterval } from "@sightline/contracts";

export interface AnalyticsWindow {
  /** Inclusive bounds, epoch milliseconds. */
  readonly since: number;
  readonly until: number;
}

export interface IntervalSpec {
  readonly ms: number;
  /** The interval as ClickHouse SQL; a constant of this table, never input. */
  readonly sql: string;
  /** Grid spacing that hits every bucket even when daylight saving shortens it (see grid). */
  readonly probeMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const INTERVALS: Readonly<Record<TimeseriesInterval, IntervalSpec>> = {
  "1m": { ms: MINUTE, sql: "INTERVAL 1 MINUTE", probeMs: MINUTE },
  "5m": { ms: 5 * MINUTE, sql: "INTERVAL 5 MINUTE", probeMs: 5 * MINUTE },
  // Zone offsets are whole quarter hours, so buckets up to 15 minutes are never cut by a shift;
  // longer ones can lose an hour (or 30 minutes on Lord Howe Island) to daylight saving.
  "15m": { ms: 15 * MINUTE, sql: "INTERVAL 15 MINUTE", probeMs: 15 * MINUTE },
  "1h": { ms: HOUR, sql: "INTERVAL 1 HOUR", probeMs: 15 * MINUTE },
  "6h": { ms: 6 * HOUR, sql: "INTERVAL 6 HOUR", probeMs: 15 * MINUTE },
  "1d": { ms: 24 * HOUR, sql: "INTERVAL 1 DAY", probeMs: HOUR },
};

export interface Bucketing {
  readonly interval: TimeseriesInterval;
  readonly timezone: string;
}
