// Reading a table newest first by its (timestamp, id) sort key in keyset pages: the order, and
// the condition that resumes after a row. It owns no filter; callers add theirs.
import type { SqlParams } from "./sql.js";

/** Where a newest-first read stopped: the last row it returned. */
export interface NewestFirstCursor {
  /** ISO date-time with milliseconds, as the engine returns DateTime64(3). */
  readonly timestamp: string;
  readonly id: string;
}

/** The ORDER BY of a newest-first read; the id breaks ties, so the order is total. */
export const NEWEST_FIRST = "ORDER BY timestamp DESC, id DESC";

/**
 * The rows strictly after `cursor` in NEWEST_FIRST order. The leading `timestamp <=` is what
 * the primary key prunes on; the rest is the tie-break among rows of the same millisecond.
 */
export function afterCursor(cursor: NewestFirstCursor, params: SqlParams): string {
  const at = params.instant(Date.parse(cursor.timestamp));
  return `timestamp <= ${at} AND (timestamp < ${at} OR id < ${params.bind(cursor.id, "UUID")})`;
}

/** ` LIMIT n` when a page is bounded, nothing when the whole result is read in one statement. */
export function limitClause(limit: number | undefined, params: SqlParams): string {
  return limit === undefined ? "" : ` LIMIT ${params.bind(limit, "UInt32")}`;
}
