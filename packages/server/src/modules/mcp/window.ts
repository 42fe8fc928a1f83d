// Time windows and paging cursors of the MCP tools. A window is read exactly as the analytics
// routes read one (until defaults to now, since to 24 hours before until); its baseline is the
// window of the same length just before it, unless the caller names one.
import { AppError } from "../../errors.js";
import { QueryProblems } from "../../lib/query-params.js";
import { type AnalyticsWindow, readWindow } from "../analytics/index.js";

export interface ResolvedWindow {
  /** Inclusive ISO instants, as the services take them. */
  readonly since: string;
  readonly until: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

function resolved(window: AnalyticsWindow): ResolvedWindow {
  return { since: iso(window.since), until: iso(window.until) };
}

/** The window `since`..`until` (either may be absent); one validation error names every problem. */
export function readToolWindow(
  args: { since?: string | undefined; until?: string | undefined },
  nowMs: number,
): ResolvedWindow {
  const problems = new QueryProblems();
  const window = readWindow(problems, args, nowMs);
  problems.assertNone();
  return resolved(window);
}

/** The window and its baseline: the named one, or the window of equal length right before it. */
export function readComparison(
  args: {
    since?: string | undefined;
    until?: string | undefined;
    baseline_since?: string | undefined;
    baseline_until?: string | undefined;
  },
  nowMs: number,
): { window: ResolvedWindow; baseline: ResolvedWindow } {
  const problems = new QueryProblems();
  const window = readWindow(problems, args, nowMs);
  let baseline: AnalyticsWindow;
  if (args.baseline_since === undefined && args.baseline_until === undefined) {
    // Bounds are inclusive: the baseline ends 1 ms before the window starts and is as long.
    const length = window.until - window.since;
    baseline = { since: window.since - 1 - length, until: window.since - 1 };
  } else {
    baseline = readWindow(
      problems,
      { since: args.baseline_since, until: args.baseline_until ?? iso(window.since - 1) },
      nowMs,
    );
  }
  problems.assertNone();
  return { window: resolved(window), baseline: resolved(baseline) };
}

/** An opaque cursor for page `page` of a paged answer. */
export function cursorFor(page: number): string {
  return Buffer.from(`page:${page}`, "utf8").toString("base64url");
}

/** The page a cursor names; 1 without one; a bad cursor is a validation error. */
export function pageOf(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 1;
  const match = /^page:([1-9][0-9]{0,6})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (match === null) {
    throw new AppError("validation_error", "Invalid request: cursor is not one this server returned.", {
      errors: [{ pointer: "/cursor", message: "is not a cursor this server returned" }],
    });
  }
  return Number(match[1]);
}

/** The cursor of the page after `page`, or null when `page` holds the last items. */
export function nextCursor(page: { page: number; page_size: number; total_count: number }): string | null {
  return page.page * page.page_size < page.total_count ? cursorFor(page.page + 1) : null;
}
