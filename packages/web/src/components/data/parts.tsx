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

export function Kpi({
  label,
  value,
  previous,
  current,
  betterWhen = "lower",
  hint,
}: {
  label: string;
  value: ReactNode;
  /** Raw current and previous figures for the change badge. */
  current?: number;
  previous?: number;
  betterWhen?: "lower" | "higher" | "neither";
  hint?: ReactNode;
}) {
  let change: ReactNode = null;
  if (current !== undefined && previous !== undefined) {
    if (previous === 0) {
      change = <span className={styles.kpiChange}>{current === 0 ? "no change" : "new"}</span>;
    } else {
      const percent = ((current - previous) / previous) * 100;
      const up = percent > 0;
      const good = betterWhen === "neither" || percent === 0 ? undefined : (betterWhen === "higher") === up;
      change = (
        <span
          className={[styles.kpiChange, good === true ? styles.good : good === false ? styles.bad : ""].join(
            " ",
          )}
          title="Change against the previous period of the same length"
        >
          {percent === 0 ? null : up ? (
            <ArrowUp size={12} aria-hidden="true" />
          ) : (
            <ArrowDown size={12} aria-hidden="true" />
          )}
          {`${up ? "+" : ""}${percent.toFixed(1)} % vs previous`}
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
  return <span className={[styles.status, statusTone(code)].join(" ")}>{code}</span>;
}

export function MethodBadge({ method }: { method: string }) {
  return <span className={styles.method}>{method}</span>;
}

/** Requests per bucket as stack layers: 1xx–3xx, 4xx, 5xx (the API counts 4xx and 5xx apart). */
export function requestSeries(series: Timeseries): ChartSeries[] {
  return [
    {
      key: "ok",
      label: "1xx–3xx",
      color: "--success",
      values: series.points.map((point) => point.total_requests - point.client_errors - point.server_errors),
    },
    {
      key: "4xx",
      label: "4xx",
      color: "--warning",
      values: series.points.map((point) => point.client_errors),
    },
    {
      key: "5xx",
      label: "5xx",
      color: "--danger",
      values: series.points.map((point) => point.server_errors),
    },
  ];
}

export function latencySeries(series: Timeseries): ChartSeries[] {
  return [
    {
      key: "p50",
      label: "p50",
      color: "--success",
      values: series.points.map((point) => point.p50_response_time_ms),
    },
    {
      key: "p95",
      label: "p95",
      color: "--accent",
      values: series.points.map((point) => point.p95_response_time_ms),
    },
    {
      key: "p99",
      label: "p99",
      color: "--danger",
      values: series.points.map((point) => point.p99_response_time_ms),
    },
  ];
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
  value: (point: Timeseries["points"][number]) => number,
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
