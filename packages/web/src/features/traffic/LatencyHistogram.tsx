// The latency histogram above the request list: how the matching requests spread over fixed
// response-time buckets; dragging across bars (or clicking one, shift-click to extend) sets the
// list's min/max duration filters in the URL, which the list applies.
import type { LatencyBucket, LatencyHistogram as Histogram } from "@sightline/contracts";
import { useState } from "react";
import { formatCount } from "../../components/data/parts";
import { Button } from "../../components/ui/Button";
import styles from "./LatencyHistogram.module.css";

/** 1000 → "1 s", 250 → "250 ms". */
function edgeLabel(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}

function bucketLabel(bucket: LatencyBucket): string {
  return bucket.max_ms === null
    ? `${edgeLabel(bucket.min_ms)} and over`
    : `${edgeLabel(bucket.min_ms)} to ${edgeLabel(bucket.max_ms)}`;
}

/** The duration filters covering buckets `a`..`b` (either order); the last bucket has no upper bound. */
function rangeOf(
  buckets: readonly LatencyBucket[],
  a: number,
  b: number,
): { min_ms?: number; max_ms?: number } {
  const low = buckets[Math.min(a, b)];
  const high = buckets[Math.max(a, b)];
  if (low === undefined || high === undefined) return {};
  return {
    min_ms: low.min_ms === 0 ? undefined : low.min_ms,
    max_ms: high.max_ms === null ? undefined : high.max_ms,
  };
}

/** Whether a bucket lies inside the URL's duration filters (when there are any). */
function inside(bucket: LatencyBucket, min: number | undefined, max: number | undefined): boolean {
  if (min === undefined && max === undefined) return false;
  const upper = bucket.max_ms ?? Number.POSITIVE_INFINITY;
  return bucket.min_ms >= (min ?? 0) && upper <= (max ?? Number.POSITIVE_INFINITY);
}

export function LatencyHistogram({
  data,
  minMs,
  maxMs,
  onSelect,
}: {
  data: Histogram;
  minMs: number | undefined;
  maxMs: number | undefined;
  onSelect: (range: { min_ms?: number; max_ms?: number }) => void;
}) {
  const [drag, setDrag] = useState<{ from: number; to: number } | undefined>(undefined);
  const [anchor, setAnchor] = useState<number | undefined>(undefined);
  const peak = Math.max(1, ...data.buckets.map((bucket) => bucket.count));
  const dragLow = drag === undefined ? undefined : Math.min(drag.from, drag.to);
  const dragHigh = drag === undefined ? undefined : Math.max(drag.from, drag.to);
  const commit = () => {
    if (drag === undefined) return;
    onSelect(rangeOf(data.buckets, drag.from, drag.to));
    setAnchor(drag.from);
    setDrag(undefined);
  };
  const filtered = minMs !== undefined || maxMs !== undefined;

  return (
    <div className={styles.histogram}>
      <div
        className={styles.bars}
        role="group"
        aria-label="Response time distribution: drag across bars or pick one to filter the list"
        onPointerUp={commit}
        onPointerLeave={commit}
      >
        {data.buckets.map((bucket, index) => {
          const selected =
            dragLow !== undefined && dragHigh !== undefined
              ? index >= dragLow && index <= dragHigh
              : inside(bucket, minMs, maxMs);
          const height = bucket.count === 0 ? 0 : Math.max(4, (bucket.count / peak) * 100);
          return (
            <button
              key={bucket.min_ms}
              type="button"
              className={[styles.bar, selected ? styles.selected : ""].join(" ")}
              aria-pressed={selected}
              aria-label={`${bucketLabel(bucket)}: ${formatCount(bucket.count)} requests`}
              title={`${bucketLabel(bucket)}: ${formatCount(bucket.count)} requests`}
              data-bucket={index}
              onPointerDown={(event) => {
                if (event.button !== 0 || event.shiftKey) return;
                event.currentTarget.releasePointerCapture(event.pointerId);
                setDrag({ from: index, to: index });
              }}
              onPointerEnter={() =>
                setDrag((current) => (current === undefined ? current : { ...current, to: index }))
              }
              onClick={(event) => {
                // A pointer drag committed on pointerup; this is the keyboard's (and shift-click's) way.
                if (event.detail !== 0 && !event.shiftKey) return;
                const from = event.shiftKey && anchor !== undefined ? anchor : index;
                onSelect(rangeOf(data.buckets, from, index));
                setAnchor(from);
              }}
            >
              <span className={styles.fill} style={{ height: `${height}%` }} />
            </button>
          );
        })}
      </div>
      <div className={styles.axis} aria-hidden="true">
        {data.buckets.map((bucket, index) => (
          <span key={bucket.min_ms}>{index % 2 === 0 ? edgeLabel(bucket.min_ms) : ""}</span>
        ))}
      </div>
      <div className={styles.footer}>
        <span>
          {formatCount(data.total_count)} requests
          {filtered
            ? `; list filtered to ${minMs === undefined ? "0 ms" : edgeLabel(minMs)}–${
                maxMs === undefined ? "any" : edgeLabel(maxMs)
              }`
            : ""}
        </span>
        {filtered ? (
          <Button size="sm" onClick={() => onSelect({})}>
            Clear duration filter
          </Button>
        ) : null}
      </div>
    </div>
  );
}
