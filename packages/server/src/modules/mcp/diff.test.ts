import { describe, expect, it } from "vitest";
import { diff, type Keyed } from "./diff.js";
import { traffic } from "./shapes.js";
import { cursorFor, nextCursor, pageOf, readComparison } from "./window.js";

const row = (key: string, requests: number, errors = 0, p95 = 10): Keyed => ({
  key,
  label: { endpoint: key },
  figures: traffic({
    total_requests: requests,
    error_count: errors,
    client_errors: 0,
    server_errors: errors,
    error_rate: requests === 0 ? 0 : (errors / requests) * 100,
    avg_response_time_ms: p95,
    p50_response_time_ms: p95,
    p95_response_time_ms: p95,
    p99_response_time_ms: p95,
  }),
});

describe("diff", () => {
  it("sorts keys into new, vanished and the largest moves, rises only for errors and latency", () => {
    const changes = diff(
      [row("a", 20), row("b", 10, 5, 80), row("d", 4), row("e", 7, 0, 5)],
      [row("a", 10), row("b", 10, 0, 50), row("c", 5), row("e", 7, 1, 9)],
    );
    expect(changes.appeared.map((r) => r.key)).toEqual(["d"]);
    expect(changes.vanished.map((r) => r.key)).toEqual(["c"]);
    expect(changes.requests.map((r) => [r.key, r.change.total_requests])).toEqual([["a", 10]]);
    expect(changes.errorRate.map((r) => [r.key, r.change.error_rate_pct_points])).toEqual([["b", 50]]);
    expect(changes.latency.map((r) => [r.key, r.change.p95_response_time_ms])).toEqual([["b", 30]]);
    expect(changes.all.map((r) => r.key)).toEqual(["a", "c", "d", "b", "e"]);
    expect(changes.vanished[0]?.change.total_requests_pct).toBe(-100);
    expect(changes.appeared[0]?.change.total_requests_pct).toBeNull();
  });
});

describe("windows and cursors", () => {
  it("puts the default baseline right before the window, as long as it", () => {
    const { window, baseline } = readComparison(
      { since: "2026-03-30T11:00:00Z", until: "2026-03-30T12:00:00Z" },
      Date.parse("2026-03-30T12:00:00Z"),
    );
    expect(window).toEqual({ since: "2026-03-30T11:00:00.000Z", until: "2026-03-30T12:00:00.000Z" });
    expect(baseline).toEqual({ since: "2026-03-30T09:59:59.999Z", until: "2026-03-30T10:59:59.999Z" });
  });

  it("reads back its own cursors and refuses others", () => {
    expect(pageOf(cursorFor(7))).toBe(7);
    expect(pageOf(undefined)).toBe(1);
    expect(() => pageOf("page:2")).toThrow(/cursor/);
    expect(nextCursor({ page: 2, page_size: 10, total_count: 20 })).toBeNull();
    expect(pageOf(nextCursor({ page: 2, page_size: 10, total_count: 21 }) as string)).toBe(3);
  });
});
