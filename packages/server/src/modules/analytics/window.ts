// The time frame of an analytics query: the window (default the 24 hours before now), and for
// timeseries the bucket width (given, or chosen from the window's length) and the zone buckets
// are aligned in.
import { ANALYTICS_LIMITS, TIMESERIES_INTERVALS, type TimeseriesInterval } from "@sightline/contracts";
import { type QueryProblems, readTimeRange } from "../../lib/query-params.js";
import type { TimeZones } from "../../lib/time-zones.js";
import {
  type AnalyticsWindow,
  type Bucketing,
  INTERVALS,
} from "../../stores/events/queries/analytics/intervals.js";

export {
  type AnalyticsWindow,
  type Bucketing,
  INTERVALS,
  type IntervalSpec,
} from "../../stores/events/queries/analytics/intervals.js";

/** `until` defaults to now and `since` to 24 hours before `until`; bad values are problems. */
export function readWindow(
  problems: QueryProblems,
  query: { since?: string | undefined; until?: string | undefined },
  nowMs: number,
): AnalyticsWindow {
  const range = readTimeRange(problems, query);
  const until = range.until ?? nowMs;
  const since = range.since ?? until - ANALYTICS_LIMITS.defaultWindowMs;
  if (range.since !== undefined && range.until === undefined && since > until) {
    problems.add("since", "must not be in the future (until defaults to now)");
  }
  return { since, until };
}

/** Fewest buckets an automatic interval aims for; the next wider width would give fewer. */
const MIN_AUTO_BUCKETS = 50;

/** The widest interval giving at least 50 buckets over `spanMs` (so about 50–300), else 1m. */
export function chooseInterval(spanMs: number): TimeseriesInterval {
  let chosen: TimeseriesInterval = "1m";
  for (const interval of TIMESERIES_INTERVALS) {
    if (spanMs / INTERVALS[interval].ms >= MIN_AUTO_BUCKETS) chosen = interval;
  }
  return chosen;
}

/**
 * The interval and zone of a timeseries. Too many buckets (a narrow width over a long window)
 * is a problem rather than a huge answer. A profile zone the engine no longer knows (saved
 * before zones were checked against it) falls back to UTC rather than failing every call.
 */
export function readBucketing(
  problems: QueryProblems,
  query: { interval?: TimeseriesInterval | undefined; timezone?: string | undefined },
  window: AnalyticsWindow,
  profileZone: string,
  zones: TimeZones,
): Bucketing {
  const span = window.until - window.since;
  const interval = query.interval ?? chooseInterval(span);
  const buckets = Math.floor(span / INTERVALS[interval].ms) + 1;
  if (buckets > ANALYTICS_LIMITS.maxBuckets) {
    problems.add(
      query.interval === undefined ? "since" : "interval",
      `gives ${buckets} buckets, more than ${ANALYTICS_LIMITS.maxBuckets}: narrow the window or widen the interval`,
    );
  }
  let timezone = zones.canonical(profileZone) ?? "UTC";
  if (query.timezone !== undefined && query.timezone.trim() !== "") {
    const zone = zones.canonical(query.timezone);
    if (zone === null) problems.add("timezone", "must be an IANA time zone such as Europe/Paris");
    else timezone = zone;
  }
  return { interval, timezone };
}
