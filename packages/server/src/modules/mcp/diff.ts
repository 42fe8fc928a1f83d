// "What changed": two sets of keyed figures (a window and its baseline) compared — keys that are
// new, keys that vanished, and the keys whose figures moved most. Pure, so its rules are tested
// on their own; the tools feed it the services' answers.
import { change, type TrafficFigures } from "./shapes.js";

export interface Keyed {
  readonly key: string;
  readonly figures: TrafficFigures;
  /** Fields shown with the key (app, consumer name…). */
  readonly label?: Readonly<Record<string, unknown>>;
}

export interface ChangedRow {
  readonly key: string;
  readonly label: Readonly<Record<string, unknown>>;
  readonly window: TrafficFigures;
  readonly baseline: TrafficFigures;
  readonly change: ReturnType<typeof change>;
}

const ZERO: TrafficFigures = {
  total_requests: 0,
  error_count: 0,
  client_errors_4xx: 0,
  server_errors_5xx: 0,
  error_rate_pct: 0,
  avg_response_time_ms: 0,
  p50_response_time_ms: 0,
  p95_response_time_ms: 0,
  p99_response_time_ms: 0,
};

export interface Diff {
  /** Keys with traffic in the window and none in the baseline, busiest first. */
  readonly appeared: ChangedRow[];
  /** Keys with traffic in the baseline and none in the window, busiest (before) first. */
  readonly vanished: ChangedRow[];
  /** Keys present in both, by largest absolute change of request count. */
  readonly requests: ChangedRow[];
  /** Keys present in both, by largest rise of error rate (percentage points), rises only. */
  readonly errorRate: ChangedRow[];
  /** Keys present in both, by largest rise of p95 latency, rises only. */
  readonly latency: ChangedRow[];
  /** Every key, by largest absolute change of request count (new and vanished included). */
  readonly all: ChangedRow[];
}

export function diff(window: readonly Keyed[], baseline: readonly Keyed[]): Diff {
  const before = new Map(baseline.map((row) => [row.key, row]));
  const after = new Map(window.map((row) => [row.key, row]));
  const rows: ChangedRow[] = [];
  for (const key of new Set([...after.keys(), ...before.keys()])) {
    const now = after.get(key);
    const then = before.get(key);
    const nowFigures = now?.figures ?? ZERO;
    const thenFigures = then?.figures ?? ZERO;
    rows.push({
      key,
      label: { ...then?.label, ...now?.label },
      window: nowFigures,
      baseline: thenFigures,
      change: change(nowFigures, thenFigures),
    });
  }
  const byKey = (a: ChangedRow, b: ChangedRow) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const desc = (value: (row: ChangedRow) => number) => (a: ChangedRow, b: ChangedRow) =>
    value(b) - value(a) || byKey(a, b);
  const inBoth = rows.filter((row) => row.window.total_requests > 0 && row.baseline.total_requests > 0);
  return {
    appeared: rows
      .filter((row) => row.baseline.total_requests === 0 && row.window.total_requests > 0)
      .sort(desc((row) => row.window.total_requests)),
    vanished: rows
      .filter((row) => row.window.total_requests === 0 && row.baseline.total_requests > 0)
      .sort(desc((row) => row.baseline.total_requests)),
    requests: inBoth
      .filter((row) => row.change.total_requests !== 0)
      .sort(desc((row) => Math.abs(row.change.total_requests))),
    errorRate: inBoth
      .filter((row) => row.change.error_rate_pct_points > 0)
      .sort(desc((row) => row.change.error_rate_pct_points)),
    latency: inBoth
      .filter((row) => row.change.p95_response_time_ms > 0)
      .sort(desc((row) => row.change.p95_response_time_ms)),
    all: [...rows].sort(desc((row) => Math.abs(row.change.total_requests))),
  };
}

/** A changed row as a tool answers it: the key's label, both windows' headline figures, the change. */
export function changedItem(row: ChangedRow) {
  return {
    ...row.label,
    total_requests: row.window.total_requests,
    baseline_total_requests: row.baseline.total_requests,
    error_rate_pct: row.window.error_rate_pct,
    baseline_error_rate_pct: row.baseline.error_rate_pct,
    server_errors_5xx: row.window.server_errors_5xx,
    baseline_server_errors_5xx: row.baseline.server_errors_5xx,
    p95_response_time_ms: row.window.p95_response_time_ms,
    baseline_p95_response_time_ms: row.baseline.p95_response_time_ms,
    change: row.change,
  };
}
