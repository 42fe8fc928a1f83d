// Small shared pieces of the data pages: KPI tiles with the change against the previous period,
// status and method badges, number formats, the chart series built from a timeseries answer,
// and the panel that shows a query's failure.
import type { Timeseries } from "@sightline/contracts";
import { ArrowDown, ArrowUp } from "lucide-react";
import type { ReactNode } from "react";
import { type ChartSeries, shiftedValues } from "../charts";
import { ErrorPanel } from "../ui/Feedback";
import { formatLatency } from "../../lib/format";
import styles from "./Data.module.css";

export const formatCount = (value: number) => value.toLocaleString("en-US");
export const formatRate = (value: number) => `${value.toFixed(1)} %`;
export const formatMs = (value: number) => (value > 0 && value < 0.05 ? "< 0.1 ms" : formatLatency(value));

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/**
 * The change badge's wording: "new" when the previous period had (nearly) no data (a relative
 * change against almost nothing reads "+53403 %"), percentage points for a figure that is itself
 * a percentage, else the relative change.
 */
export function describeChange(
  current: number,
  previous: number,
  { unit = "relative", sparse = false }: { unit?: "relative" | "points"; sparse?: boolean } = {},
): { text: string; sign: -1 | 0 | 1 } {
  if (sparse || (unit === "relative" && previous === 0)) {
    return current === 0 && previous === 0 ? { text: "no change", sign: 0 } : { text: "new", sign: 0 };
  }
  const delta = unit === "points" ? current - previous : ((current - previous) / previous) * 100;
  const rounded = Number(delta.toFixed(1));
  const sign = rounded > 0 ? 1 : rounded < 0 ? -1 : 0;
  const figure = `${sign > 0 ? "+" : ""}${rounded.toFixed(1)}`;
  return { text: `${figure} ${unit === "points" ? "pp" : "%"} vs previous`, sign };
}

export function Kpi({
  label,
  value,
  previous,
  current,
  betterWhen = "lower",
  unit = "relative",
  sparse = false,
  hint,
}: {
  label: string;
  value: ReactNode;
  /** Raw current and previous figures for the change badge. */
  current?: number;
  previous?: number;
  betterWhen?: "lower" | "higher" | "neither";
  /** `points`: the figure is a percentage; its change is told in percentage points. */
  unit?: "relative" | "points";
  /** The previous period had (nearly) no data: the badge says "new". */
  sparse?: boolean;
  hint?: ReactNode;
}) {
  let change: ReactNode = null;
  if (current !== undefined && previous !== undefined) {
    const { text, sign } = describeChange(current, previous, { unit, sparse });
    if (text === "new" || text === "no change") {
      change = <span className={styles.kpiChange}>{text}</span>;
    } else {
      const good =
        betterWhen === "neither" || sign === 0 ? undefined : (betterWhen === "higher") === sign > 0;
      change = (
        <span
          className={[styles.kpiChange, good === true ? styles.good : good === false ? styles.bad : ""].join(
            " ",
          )}
          title={
            unit === "points"
              ? "Change in percentage points against the previous period of the same length"
              : "Change against the previous period of the same length"
          }
        >
          {sign === 0 ? null : sign > 0 ? (
            <ArrowUp size={12} aria-hidden="true" />
          ) : (
            <ArrowDown size={12} aria-hidden="true" />
          )}
          {text}
        </span>
      );
    }
  }
  return (
    <div className={styles.kpi}>
      <dt className={styles.kpiLabel}>{label}</dt>
      <dd className={styles.kpiValue}>{value}</dd>
      {change || hint ? <dd className={styles.kpiMeta}>{change ?? hint}</dd> : null}
    </div>
  );
}

/** Below this share of the current requests, the previous period counts as (nearly) empty. */
const SPARSE_SHARE = 0.05;

/** One figure now and in the previous period, for a KPI's change badge. */
export function against<K extends string>(
  now: Record<K | "total_requests", number>,
  before: Record<K | "total_requests", number> | undefined,
  key: K,
) {
  const sparse = before !== undefined && before.total_requests < now.total_requests * SPARSE_SHARE;
  return { current: now[key], previous: before?.[key], sparse };
}

export function KpiGrid({ label, children }: { label: string; children: ReactNode }) {
  return (
    <dl className={styles.kpis} aria-label={label}>
      {children}
    </dl>
  );
}

export function statusTone(code: number): string {
  const tone = code >= 500 ? styles.s5 : code >= 400 ? styles.s4 : code >= 300 ? styles.s3 : styles.s2;
  return tone ?? "";
}

export function StatusPill({ code }: { code: number }) {
  const kind = code >= 500 ? "server error" : code >= 400 ? "client error" : undefined;
  return (
    <span className={[styles.status, statusTone(code)].join(" ")} title={kind}>
      {code}
    </span>
  );
}

/**
 * A URL path that wraps only after a slash (never inside a segment, which "break-all" did):
 * each "/" is followed by a line-break opportunity.
 */
export function PathText({ path }: { path: string }) {
  const parts = path.split(/(?<=\/)/);
  return (
    <span className={styles.path}>
      {parts.map((part, index) => (
        <span key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </span>
      ))}
    </span>
  );
}

export function MethodBadge({ method }: { method: string }) {
  return <span className={styles.method}>{method}</span>;
}

type Point = Timeseries["points"][number];

/** Series of one timeseries, one a figure of its points: [key, label, colour token, figure]. */
function seriesOf(
  series: Timeseries,
  figures: readonly [string, string, string, (point: Point) => number][],
) {
  return figures.map(([key, label, color, value]): ChartSeries => ({
    key,
    label,
    color,
    values: series.points.map(value),
  }));
}

/** Requests per bucket as stack layers: 1xx–3xx, 4xx, 5xx (the API counts 4xx and 5xx apart). */
export function requestSeries(series: Timeseries): ChartSeries[] {
  return seriesOf(series, [
    [
      "ok",
      "1xx–3xx",
      "--success",
      (point) => point.total_requests - point.client_errors - point.server_errors,
    ],
    ["4xx", "4xx", "--warning", (point) => point.client_errors],
    ["5xx", "5xx", "--danger", (point) => point.server_errors],
  ]);
}

export function latencySeries(series: Timeseries): ChartSeries[] {
  return seriesOf(series, [
    ["p50", "p50", "--success", (point) => point.p50_response_time_ms],
    ["p95", "p95", "--accent", (point) => point.p95_response_time_ms],
    ["p99", "p99", "--danger", (point) => point.p99_response_time_ms],
  ]);
}

/** The previous period of a timeseries, shifted by `shiftMs` onto the current buckets. */
export interface PreviousPeriod {
  readonly series: Timeseries;
  readonly shiftMs: number;
}

/** The loaded previous period of a page comparing periods (not another window's, still loading). */
export function previousPeriodOf(
  query: { data: Timeseries | undefined; isPlaceholderData: boolean },
  windowMs: number,
  compare: boolean | undefined,
): PreviousPeriod | undefined {
  return compare === true && query.data !== undefined && !query.isPlaceholderData
    ? { series: query.data, shiftMs: windowMs }
    : undefined;
}

/** One figure of the previous period as a dashed overlay on the current chart. */
export function previousOverlay(
  current: Timeseries,
  previous: PreviousPeriod,
  label: string,
  value: (point: Point) => number,
): ChartSeries {
  return {
    key: "previous",
    label,
    color: "--text-muted",
    overlay: true,
    values: shiftedValues(
      current.points.map((point) => point.bucket),
      previous.series.points.map((point) => point.bucket),
      previous.series.points.map(value),
      previous.shiftMs,
    ),
  };
}

export function errorSeries(series: Timeseries): ChartSeries[] {
  return requestSeries(series).slice(1);
}

/** Shown instead of a region whose query failed: never zeros. */
export function Failed({ error, what, retry }: { error: unknown; what: string; retry: () => void }) {
  return <ErrorPanel error={error} what={what} onRetry={retry} />;
}

/** "Updating…" next to a title while new filters load over the previous figures. */
export function Updating({ active }: { active: boolean }) {
  return active ? (
    <span className={styles.updating} role="status">
      Updating…
    </span>
  ) : null;
}
