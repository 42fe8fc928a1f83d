// The oldest ClickHouse server the events SQL runs on, and the start-up comparison against it.
// Reading version() is the HTTP driver's job; this module only decides.
import { EventsStoreError } from "./executor.js";

/**
 * The floor, documented in the README ("Running on PostgreSQL and ClickHouse"): every call sets
 * session_timezone (23.6), the percentiles use quantileDD/quantilesDD (24.1, the newest function
 * the SQL calls, per system.functions.introduced_in), and the queries are written and tested
 * under the analyzer that 24.3, a long-term-support release, turned on by default.
 */
export const MINIMUM_CLICKHOUSE_VERSION = "24.3";

const VERSION = /^(\d+)\.(\d+)(?:\.(\d+))?(?:\.(\d+))?/;

function parts(version: string): number[] | undefined {
  const match = VERSION.exec(version.trim());
  return match === null ? undefined : match.slice(1).map((part) => Number(part ?? 0));
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const left = parts(a) ?? [];
  const right = parts(b) ?? [];
  for (let index = 0; index < 4; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Refuses a server older than `floor` (or one whose version cannot be read) by name. */
export function assertSupportedVersion(found: string, floor: string = MINIMUM_CLICKHOUSE_VERSION): void {
  if (parts(found) === undefined) {
    throw new EventsStoreError(
      `ClickHouse server answered version() with ${JSON.stringify(found.slice(0, 40))}; ` +
        `Sightline needs ClickHouse ${floor} or newer`,
      "unavailable",
    );
  }
  if (compareVersions(found, floor) < 0) {
    throw new EventsStoreError(
      `ClickHouse server ${found} is older than ${floor}, the oldest version Sightline supports: ` +
        `upgrade the server to ${floor} or newer`,
      "unavailable",
    );
  }
}
