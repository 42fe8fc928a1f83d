// A trace's spans as a tree in depth-first order: each span under its parent, siblings by start
// time; a span whose parent was not received is a root of its own, and a parent cycle (ids
// reused by a broken client) is cut where it closes, so every span appears exactly once. The
// trace's figures (duration, span count, error) are not this module's: the tree may hold only
// part of a trace, so they are computed over all of its spans by the query (traces.query.ts).
import type { TraceSpan } from "@sightline/contracts";
import { toStringMap } from "../../stores/events/queries/data/requests.js";
import type { StoredTraceSpan } from "../../stores/events/queries/data/trace-spans.js";

export type { StoredTraceSpan };

export interface TraceTree {
  readonly startedAtMs: number | null;
  readonly spans: TraceSpan[];
}

export function buildTraceTree(stored: readonly StoredTraceSpan[]): TraceTree {
  if (stored.length === 0) return { startedAtMs: null, spans: [] };
  const byStart = [...stored].sort(
    (a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.span_id.localeCompare(b.span_id),
  );
  const startedAtMs = Date.parse((byStart[0] as StoredTraceSpan).timestamp);
  const ids = new Set(byStart.map((span) => span.span_id));
  const children = new Map<string, StoredTraceSpan[]>();
  const roots: StoredTraceSpan[] = [];
  for (const span of byStart) {
    const parent = span.parent_span_id;
    if (parent === "" || parent === span.span_id || !ids.has(parent)) roots.push(span);
    else children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const out: TraceSpan[] = [];
  const placed = new Set<StoredTraceSpan>();
  const visit = (span: StoredTraceSpan, depth: number) => {
    if (placed.has(span)) return;
    placed.add(span);
    const startMs = Date.parse(span.timestamp);
    out.push({
      span_id: span.span_id,
      parent_span_id: span.parent_span_id,
      depth,
      offset_ms: startMs - startedAtMs,
      timestamp: span.timestamp,
      duration_ms: span.duration_ms,
      name: span.name,
      kind: span.kind,
      service_name: span.service_name,
      app_id: span.app_id,
      environment: span.environment,
      status: span.status,
      status_code: span.status_code,
      attributes: toStringMap(span.attributes),
    });
    for (const child of children.get(span.span_id) ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  // Spans only reachable through a cycle: placed as roots, in start order.
  for (const span of byStart) visit(span, 0);
  return { startedAtMs, spans: out };
}
