// Unit tests of the span tree: depth-first order, orphans as roots, cycles cut, timings.
import { describe, expect, it } from "vitest";
import { buildTraceTree, type StoredTraceSpan } from "./trace-tree.js";

const T0 = Date.parse("2026-11-21T06:00:00.000Z");

function span(id: string, parent: string, offsetMs: number, durationMs = 1, status = "ok"): StoredTraceSpan {
  return {
    span_id: id,
    parent_span_id: parent,
    timestamp: new Date(T0 + offsetMs).toISOString(),
    duration_ms: durationMs,
    name: id,
    kind: "internal",
    service_name: "svc",
    app_id: "app",
    environment: "production",
    status,
    status_code: 0,
    attributes: { k: "v" },
  };
}

const order = (spans: readonly StoredTraceSpan[]) =>
  buildTraceTree(spans).spans.map((s) => `${"  ".repeat(s.depth)}${s.span_id}@${s.offset_ms}`);

describe("buildTraceTree", () => {
  it("is empty without spans", () => {
    expect(buildTraceTree([])).toEqual({ startedAtMs: null, spans: [] });
  });

  it("orders depth-first with children by start, whatever the input order", () => {
    const tree = buildTraceTree([
      span("c2", "root", 30, 5),
      span("g1", "c1", 12),
      span("c1", "root", 10),
      span("root", "", 0, 100),
    ]);
    expect(tree.spans.map((s) => [s.span_id, s.depth, s.offset_ms])).toEqual([
      ["root", 0, 0],
      ["c1", 1, 10],
      ["g1", 2, 12],
      ["c2", 1, 30],
    ]);
    expect(tree.spans[0]?.attributes).toEqual({ k: "v" });
  });

  it("makes a span whose parent never arrived a root", () => {
    expect(order([span("root", "", 0), span("lost", "ffffffffffffffff", 5, 1, "error")])).toEqual([
      "root@0",
      "lost@5",
    ]);
  });

  it("places every span of a parent cycle exactly once", () => {
    const spans = [span("a", "b", 0), span("b", "a", 1), span("self", "self", 2)];
    const tree = buildTraceTree(spans);
    expect(tree.spans.map((s) => s.span_id).sort()).toEqual(["a", "b", "self"]);
  });

  it("times each span from the trace's first start", () => {
    const tree = buildTraceTree([span("b", "a", 12, 40), span("a", "", 10, 5)]);
    expect(tree.spans.map((s) => s.offset_ms)).toEqual([0, 2]);
  });
});
