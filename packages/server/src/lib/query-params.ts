// Reading the query-string values a schema can only type as text (comma lists, instants, status
// classes). Readers record problems against `#/query/<name>`, so one 422 names every bad parameter,
// exactly as schema validation does.
import type { FieldError } from "@sightline/contracts";
import { AppError } from "../errors.js";

export class QueryProblems {
  readonly #errors: FieldError[] = [];

  add(name: string, message: string): void {
    this.#errors.push({ pointer: `#/query/${name}`, message });
  }

  /** Throws one validation_error listing every problem recorded, if there is any. */
  assertNone(): void {
    if (this.#errors.length === 0) return;
    const shown = this.#errors.slice(0, 3).map((error) => `${error.pointer} ${error.message}`);
    const more = this.#errors.length > 3 ? ` (and ${this.#errors.length - 3} more)` : "";
    throw new AppError("validation_error", `Invalid request: ${shown.join("; ")}${more}.`, {
      errors: [...this.#errors],
    });
  }
}

/** `a, b,,c` -> `["a", "b", "c"]`: split on commas, trimmed, empties dropped, duplicates kept once. */
export function splitList(text: string | undefined): string[] {
  if (text === undefined) return [];
  return [
    ...new Set(
      text
        .split(",")
        .map((part) => part.trim())
        .filter((part) => part !== ""),
    ),
  ];
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;
const DAY_MS = 86_400_000;

/**
 * Epoch milliseconds of an ISO 8601 date-time (no offset means UTC) or a date, or null when the
 * text is neither. A date is that day's first millisecond, or its last when `edge` is "end", so
 * `until=2026-11-21` includes the whole day. Stricter than Date.parse, which takes free text and
 * reads offset-less times in the host's zone.
 */
export function parseInstant(text: string, edge: "start" | "end"): number | null {
  const trimmed = text.trim();
  const day = DATE_ONLY.exec(trimmed);
  if (day !== null) {
    const start = utcMillis(Number(day[1]), Number(day[2]), Number(day[3]), 0, 0, 0, 0);
    return start === null ? null : edge === "start" ? start : start + DAY_MS - 1;
  }
  const match = DATE_TIME.exec(trimmed);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s, fraction, , sign, offsetHours, offsetMinutes] = match;
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"));
  const local = utcMillis(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0), millis);
  if (local === null) return null;
  if (sign === undefined) return local;
  const offH = Number(offsetHours);
  const offM = Number(offsetMinutes);
  if (offH > 23 || offM > 59) return null;
  const offset = (offH * 60 + offM) * 60_000;
  return sign === "+" ? local - offset : local + offset;
}

function utcMillis(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
): number | null {
  if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC rolls 2026-02-30 over into March; a real date survives the round trip.
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/** Status codes of a comma list; a part that is not an integer 100–599 is a problem. */
export function readStatusCodes(problems: QueryProblems, name: string, text: string | undefined): number[] {
  const codes: number[] = [];
  for (const part of splitList(text)) {
    const code = /^\d{3}$/.test(part) ? Number(part) : Number.NaN;
    if (code >= 100 && code <= 599) codes.push(code);
    else problems.add(name, `"${part}" is not a status code (an integer 100–599)`);
  }
  return codes;
}

/** Status classes (`4xx` -> 4) of a comma list; anything but 1xx–5xx is a problem. */
export function readStatusClasses(problems: QueryProblems, name: string, text: string | undefined): number[] {
  const classes: number[] = [];
  for (const part of splitList(text)) {
    const match = /^([1-5])xx$/i.exec(part);
    if (match !== null) classes.push(Number(match[1]));
    else problems.add(name, `"${part}" is not a status class (1xx, 2xx, 3xx, 4xx or 5xx)`);
  }
  return classes;
}

/** HTTP methods of a comma list, upper-cased. Any text is kept: an odd one matches nothing. */
export function readMethods(text: string | undefined): string[] {
  return [...new Set(splitList(text).map((method) => method.toUpperCase()))];
}

export interface TimeRange {
  /** Epoch milliseconds, inclusive; undefined when not given. */
  readonly since: number | undefined;
  readonly until: number | undefined;
}

/** `since` and `until` as instants; unparsable text or `since` after `until` is a problem. */
export function readTimeRange(
  problems: QueryProblems,
  query: { since?: string | undefined; until?: string | undefined },
): TimeRange {
  const read = (name: "since" | "until", edge: "start" | "end"): number | undefined => {
    const text = query[name];
    if (text === undefined || text.trim() === "") return undefined;
    const ms = parseInstant(text, edge);
    if (ms === null) {
      problems.add(name, "must be an ISO 8601 date-time (e.g. 2026-11-21T06:00:00Z) or date (2026-11-21)");
      return undefined;
    }
    return ms;
  };
  const since = read("since", "start");
  const until = read("until", "end");
  if (since !== undefined && until !== undefined && since > until) {
    problems.add("since", "must not be after until");
  }
  return { since, until };
}
