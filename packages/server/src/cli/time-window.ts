// Time windows of the client commands, read like the dashboard's: a duration back from now (its
// presets 1h, 6h, 24h, 7d, 30d, or any `<n>s|m|h|d|w`) or an ISO 8601 date-time or date, which
// is passed to the server as typed so it keeps the API's meaning (a bare date is that whole day).
import { usageError } from "./exit-codes.js";

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DURATION = /^(\d{1,9})(s|m|h|d|w)$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export interface WindowFlags {
  readonly since?: string;
  readonly from?: string;
  readonly until?: string;
  readonly to?: string;
}

export interface TimeWindow {
  readonly since?: string;
  readonly until?: string;
}

/** One bound: a duration ago as an ISO instant, or the date-time as typed. */
export function instantOf(value: string, option: string, nowMs: number): string {
  const text = value.trim();
  const duration = DURATION.exec(text);
  if (duration !== null) {
    const amount = Number(duration[1]);
    const unit = duration[2] as keyof typeof UNIT_MS;
    return new Date(nowMs - amount * UNIT_MS[unit]).toISOString();
  }
  if (ISO_DATE.test(text) && !Number.isNaN(Date.parse(text))) return text;
  throw usageError(
    `${option} "${value}": expected a duration (30m, 1h, 6h, 24h, 7d, 30d) or an ISO date-time (2026-11-20T06:00:00Z)`,
  );
}

/** `--since`/`--from` and `--until`/`--to` are synonyms; giving both of a pair is an error. */
export function timeWindowOf(flags: WindowFlags, nowMs: number = Date.now()): TimeWindow {
  if (flags.since !== undefined && flags.from !== undefined)
    throw usageError("give --since or --from, not both");
  if (flags.until !== undefined && flags.to !== undefined) throw usageError("give --until or --to, not both");
  const since = flags.since ?? flags.from;
  const until = flags.until ?? flags.to;
  const sinceOption = flags.since !== undefined ? "--since" : "--from";
  const untilOption = flags.until !== undefined ? "--until" : "--to";
  return {
    ...(since === undefined ? {} : { since: instantOf(since, sinceOption, nowMs) }),
    ...(until === undefined ? {} : { until: instantOf(until, untilOption, nowMs) }),
  };
}
