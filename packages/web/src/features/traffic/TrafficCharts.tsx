// Requests by status class and latency percentiles, side by side, from one timeseries answer
// (the overview's, an endpoint's, a consumer's), dragging on either to zoom the window, with the
// previous period laid over them as dashed lines when the page compares periods.
import type { Timeseries } from "@sightline/contracts";
import type { UseQueryResult } from "@tanstack/react-query";
import styles from "../../components/data/Data.module.css";
import {
  Failed,
  formatCount,
  formatMs,
  latencySeries,
  type PreviousPeriod,
  requestSeries,
} from "../../components/data/parts";
import { PeriodChart } from "../../components/data/PeriodChart";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";

/** Requests by status class and latency percentiles, side by side, from one timeseries answer. */
export function TrafficCharts({
  query,
  onZoom,
  previous,
}: {
  query: UseQueryResult<Timeseries>;
  onZoom: (range: { since: string; until: string }) => void;
  /** The previous period, when the page compares periods and it has loaded. */
  previous?: PreviousPeriod | undefined;
}) {
  if (query.isError)
    return <Failed error={query.error} what="the charts" retry={() => void query.refetch()} />;
  const data = query.data;
  return (
    <div className={styles.charts}>
      <Card title="Requests">
        {data === undefined ? (
          <SkeletonRows rows={4} label="Loading the requests chart" />
        ) : (
          <PeriodChart
            label="Requests over time by status class"
            data={data}
            series={requestSeries(data)}
            previous={previous}
            overlay={{ label: "All, previous period", value: (point) => point.total_requests }}
            formatValue={formatCount}
            onZoom={onZoom}
          />
        )}
      </Card>
      <Card title="Latency">
        {data === undefined ? (
          <SkeletonRows rows={4} label="Loading the latency chart" />
        ) : (
          <PeriodChart
            label="Latency percentiles over time"
            data={data}
            series={latencySeries(data)}
            previous={previous}
            overlay={{ label: "p95, previous period", value: (point) => point.p95_response_time_ms }}
            mode="lines"
            formatValue={formatMs}
            onZoom={onZoom}
          />
        )}
      </Card>
    </div>
  );
}
