// Timestamps of ingested records: a strict ISO 8601 reader (no offset means UTC) and the text
// form the events store reads on both engines.

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * Epoch milliseconds of an ISO 8601 date-time, or null when it is not one. Stricter than
 * Date.parse, which accepts free text and reads offset-less times in the host's zone.
 */
export function parseTimestamp(text: string): number | null {
  if (text.length === 24 && text.charCodeAt(23) === 0x5a && text.charCodeAt(10) === 0x54) {
    const fast = parseCanonical(text);
    if (fast !== undefined) return fast;
  }
  const match = ISO_8601.exec(text);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s, fraction, , sign, offsetHours, offsetMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"));
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0–99 to 1900–1999.
  if (year < 100) ms = new Date(ms).setUTCFullYear(year);
  if (sign !== undefined) {
    const offH = Number(offsetHours);
    const offM = Number(offsetMinutes);
    if (offH > 23 || offM > 59) return null;
    const offset = (offH * 60 + offM) * 60_000;
    ms += sign === "+" ? -offset : offset;
  }
  return ms;
}

/** Offsets of the digits in `2026-11-21T06:00:00.123Z`, and of its separators. */
const CANONICAL_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
const CANONICAL_SEPARATORS: ReadonlyArray<readonly [number, number]> = [
  [4, 0x2d],
  [7, 0x2d],
  [13, 0x3a],
  [16, 0x3a],
  [19, 0x2e],
];

/**
 * The form SDKs send (`Date#toISOString()`), read without a regular expression: it is read
 * once per ingested record. Undefined when `text` is not exactly that form; null when it is
 * but names no real instant.
 */
function parseCanonical(text: string): number | null | undefined {
  for (const [at, code] of CANONICAL_SEPARATORS) if (text.charCodeAt(at) !== code) return undefined;
  for (const at of CANONICAL_DIGITS) {
    const code = text.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return undefined;
  }
  const digit = (at: number) => text.charCodeAt(at) - 0x30;
  const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const month = digit(5) * 10 + digit(6);
  const day = digit(8) * 10 + digit(9);
  const hour = digit(11) * 10 + digit(12);
  const minute = digit(14) * 10 + digit(15);
  const second = digit(17) * 10 + digit(18);
  const millis = digit(20) * 100 + digit(21) * 10 + digit(22);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** The text form DateTime64(3, 'UTC') reads, now owned by the events store's row encoding. */
export { eventsTimestamp } from "../../stores/events/row-encoding.js";
