// The key figures every traffic summary opens with (the project's and an endpoint's): volume,
// rate, error rate and classes, and the latency percentiles, each against the previous period.
import { against, formatCount, formatMs, formatRate, Kpi } from "../../components/data/parts";

type Figure =
  | "total_requests"
  | "error_rate"
  | "client_errors"
  | "server_errors"
  | "p50_response_time_ms"
  | "p95_response_time_ms"
  | "p99_response_time_ms";

type Figures = Record<Figure, number>;

/** The shared KPIs, to sit first in a `KpiGrid` before the page's own. */
export function TrafficKpis({
  now,
  before,
  minutes,
}: {
  now: Figures;
  /** The previous period, once loaded. */
  before: Figures | undefined;
  /** The window's length, for the rate. */
  minutes: number;
}) {
  return (
    <>
      <Kpi
        label="Requests"
        value={formatCount(now.total_requests)}
        {...against(now, before, "total_requests")}
        betterWhen="neither"
      />
      <Kpi label="Requests / min" value={(now.total_requests / minutes).toFixed(2)} />
      <Kpi
        label="Error rate"
        value={formatRate(now.error_rate)}
        {...against(now, before, "error_rate")}
        unit="points"
      />
      <Kpi label="4xx" value={formatCount(now.client_errors)} {...against(now, before, "client_errors")} />
      <Kpi label="5xx" value={formatCount(now.server_errors)} {...against(now, before, "server_errors")} />
      {(["p50", "p95", "p99"] as const).map((p) => (
        <Kpi
          key={p}
          label={p}
          value={formatMs(now[`${p}_response_time_ms`])}
          {...against(now, before, `${p}_response_time_ms`)}
        />
      ))}
    </>
  );
}
