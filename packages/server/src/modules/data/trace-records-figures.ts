// A trace's figures when no span of it was received: start, duration and error flag read from
// the request and log records that carry its trace id, so a lone failing request is not
// reported as a trace without errors lasting no time.
import type { LogRecord, RequestRecord } from "@sightline/contracts";

/** Log levels that make a trace count as failed (the same bar as a span with status error). */
const FAILING_LEVELS: ReadonlySet<string> = new Set(["ERROR", "CRITICAL"]);

export interface RecordFigures {
  /** Epoch milliseconds of the earliest record; null when there are none. */
  readonly startedAtMs: number | null;
  /** Earliest record to the last request's end (or latest log), milliseconds. */
  readonly durationMs: number;
  readonly error: boolean;
}

export function figuresFromRecords(
  requests: readonly Pick<RequestRecord, "timestamp" | "response_time_ms" | "status_code">[],
  logs: readonly Pick<LogRecord, "timestamp" | "level">[],
): RecordFigures {
  let start = Infinity;
  let end = -Infinity;
  for (const request of requests) {
    const at = Date.parse(request.timestamp);
    start = Math.min(start, at);
    end = Math.max(end, at + Math.max(0, request.response_time_ms));
  }
  for (const log of logs) {
    const at = Date.parse(log.timestamp);
    start = Math.min(start, at);
    end = Math.max(end, at);
  }
  const found = Number.isFinite(start);
  return {
    startedAtMs: found ? start : null,
    durationMs: found ? Math.max(0, end - start) : 0,
    error:
      requests.some((request) => request.status_code >= 500) ||
      logs.some((log) => FAILING_LEVELS.has(log.level)),
  };
}
