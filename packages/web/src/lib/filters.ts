// The URL state of the data pages (overview, endpoint, requests, logs, traces, consumers,
// errors): one validator for every key they use, so filters carry across pages and anything
// malformed in a shared link is dropped, never trusted. `api-params.ts` maps it to the API.
import { LOG_LEVELS } from "@sightline/contracts/vocabulary";
import { compact, optionalString } from "./search";
import { offsetMinutes } from "./timezones";

export const RANGE_PRESETS = ["1h", "6h", "24h", "7d", "30d"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const REFRESH_SECONDS = [30, 60, 300] as const;
export const SORT_DIRS = ["asc", "desc"] as const;
export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx"] as const;
export const HTTP_METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "CONNECT",
] as const;

export interface TrafficSearch {
  /** Preset window ending now; ignored when since/until are set. */
  range?: RangePreset;
  since?: string;
  until?: string;
  app?: string;
  env?: string;
  /** Auto-refresh period in seconds (opt-in). */
  refresh?: number;
  /** Page filters. */
  q?: string;
  method?: string;
  status?: string;
  codes?: string;
  route?: string;
  path?: string;
  consumer?: string;
  trace?: string;
  min_ms?: number;
  max_ms?: number;
  levels?: string;
  logger?: string;
  sort?: string;
  dir?: "asc" | "desc";
  page?: number;
  /** The record open in the drawer. */
  req?: string;
  log?: string;
  live?: boolean;
  tab?: string;
  /** Charts overlay the previous period of the same length. */
  compare?: boolean;
}

const isoInstant = (value: unknown): string | undefined => {
  const text = optionalString(value, 40);
  return text !== undefined && !Number.isNaN(Date.parse(text)) ? text : undefined;
};

const positiveInt = (value: unknown, max: number): number | undefined => {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= 1 && number <= max ? number : undefined;
};

const nonNegative = (value: unknown): number | undefined => {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) && number >= 0 && number <= 3_600_000 ? number : undefined;
};

export function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return values.find((one) => one === value);
}

/** A comma list whose every item is among `values` (upper-cased for methods and levels). */
function listOf(values: readonly string[], value: unknown, upper = false): string | undefined {
  const text = optionalString(value, 256);
  if (text === undefined) return undefined;
  const items = text.split(",").map((item) => (upper ? item.trim().toUpperCase() : item.trim()));
  return items.every((item) => values.includes(item)) ? items.join(",") : undefined;
}

const CODES = /^[1-5]\d\d(,[1-5]\d\d)*$/;
const TRACE = /^[0-9a-fA-F]{32}$/;

export function validateTrafficSearch(search: Record<string, unknown>): TrafficSearch {
  const since = isoInstant(search.since);
  const until = isoInstant(search.until);
  const custom = since !== undefined && until !== undefined && Date.parse(since) < Date.parse(until);
  const out: TrafficSearch = {
    range: custom ? undefined : oneOf(RANGE_PRESETS, search.range),
    since: custom ? since : undefined,
    until: custom ? until : undefined,
    app: optionalString(search.app, 64),
    env: optionalString(search.env, 64),
    refresh: REFRESH_SECONDS.find((seconds) => seconds === Number(search.refresh)),
    q: optionalString(search.q, 256),
    method: listOf(HTTP_METHODS, search.method, true),
    status: listOf(STATUS_CLASSES, search.status),
    codes:
      typeof search.codes === "number"
        ? String(search.codes)
        : CODES.test(String(search.codes ?? ""))
          ? String(search.codes)
          : undefined,
    route: optionalString(search.route, 2048),
    path: optionalString(search.path, 2048),
    consumer: optionalString(search.consumer, 256),
    trace: TRACE.test(String(search.trace ?? "")) ? String(search.trace).toLowerCase() : undefined,
    min_ms: nonNegative(search.min_ms),
    max_ms: nonNegative(search.max_ms),
    levels: listOf(LOG_LEVELS, search.levels, true),
    logger: optionalString(search.logger, 256),
    sort: optionalString(search.sort, 32),
    dir: oneOf(SORT_DIRS, search.dir),
    page: positiveInt(search.page, 10_000),
    req: optionalString(search.req, 64),
    log: optionalString(search.log, 64),
    live: search.live === true || search.live === "true" ? true : undefined,
    tab: optionalString(search.tab, 32),
    compare: search.compare === true || search.compare === "true" ? true : undefined,
  };
  // Undefined keys are left out so links stay short.
  return compact(out);
}

/** The keys every traffic page shares (carried by the sidebar links). */
export function sharedSearch(search: TrafficSearch): TrafficSearch {
  const { range, since, until, app, env, refresh } = search;
  return compact({ range, since, until, app, env, refresh });
}

const PRESET_MS: Record<RangePreset, number> = {
  "1h": 3_600_000,
  "6h": 6 * 3_600_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 24 * 3_600_000,
  "30d": 30 * 24 * 3_600_000,
};

export interface TimeWindow {
  readonly since: string;
  readonly until: string;
  readonly ms: number;
  /** "Last 24 hours", or the custom span. */
  readonly preset: RangePreset | undefined;
}

/**
 * The window a search names, ending at `now` for presets. `now` is rounded up to the minute so
 * every query of one page load (and the next page within that minute) shares cache keys.
 */
export function timeWindow(search: TrafficSearch, now: number): TimeWindow {
  if (search.since !== undefined && search.until !== undefined) {
    return {
      since: search.since,
      until: search.until,
      ms: Date.parse(search.until) - Date.parse(search.since),
      preset: undefined,
    };
  }
  const preset = search.range ?? "24h";
  const until = Math.ceil(now / 60_000) * 60_000;
  const ms = PRESET_MS[preset];
  return { since: new Date(until - ms).toISOString(), until: new Date(until).toISOString(), ms, preset };
}

/** The previous window of the same length (for "change against the previous period"). */
export function previousWindow(window: TimeWindow): { since: string; until: string } {
  const since = Date.parse(window.since);
  return { since: new Date(since - window.ms).toISOString(), until: window.since };
}

/** Bucket width in ms of a timeseries interval. */
export function intervalMs(interval: string): number {
  const unit = interval.slice(-1);
  const count = Number(interval.slice(0, -1));
  return count * (unit === "m" ? 60_000 : unit === "h" ? 3_600_000 : 86_400_000);
}

/** The zone's offset from UTC in ms at an instant (positive east of Greenwich). */
const zoneOffset = (ms: number, timeZone: string): number => offsetMinutes(timeZone, new Date(ms)) * 60_000;

/** "2026-11-21T14:30" read as a wall-clock time in `timeZone` → ISO instant; undefined if bad. */
export function zonedInputToIso(value: string, timeZone: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // Two passes settle the offset across a DST change.
  let guess = wall - zoneOffset(wall, timeZone);
  guess = wall - zoneOffset(guess, timeZone);
  return new Date(guess).toISOString();
}

/** An ISO instant → "2026-11-21T14:30" as the wall clock in `timeZone` (for datetime-local). */
export function isoToZonedInput(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  const local = new Date(ms + zoneOffset(ms, timeZone));
  return local.toISOString().slice(0, 16);
}
