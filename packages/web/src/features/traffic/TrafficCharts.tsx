// Requests by status class and latency percentiles, side by side, from one timeseries answer
// (the overview's, an endpoint's, a consumer's), dragging on either to zoom the window, with the
// previous period laid over them as dashed lines when the page compares periods.
import type { Timeseries } from "@sightline/contracts";
import type { UseQueryResult } from "@tanstack/react-query";
import { TimeSeriesChart } from "../../components/charts";
import styles from "../../components/data/Data.module.css";
import {
  Failed,
  formatCount,
  formatMs,
  latencySeries,
  type PreviousPeriod,
  previousOverlay,
  requestSeries,
} from "../../components/data/parts";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card } from "../../components/ui/Surface";
import { intervalMs } from "../../lib/filters";

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
          <TimeSeriesChart
            label="Requests over time by status class"
            buckets={data.points.map((point) => point.bucket)}
            bucketMs={intervalMs(data.interval)}
            series={[
              ...requestSeries(data),
              ...(previous === undefined
                ? []
                : [previousOverlay(data, previous, "All, previous period", (point) => point.total_requests)]),
            ]}
            formatValue={formatCount}
            timeZone={data.timezone}
            onZoom={onZoom}
          />
        )}
      </Card>
      <Card title="Latency">
        {data === undefined ? (
          <SkeletonRows rows={4} label="Loading the latency chart" />
        ) : (
          <TimeSeriesChart
            label="Latency percentiles over time"
            buckets={data.points.map((point) => point.bucket)}
            bucketMs={intervalMs(data.interval)}
            series={[
              ...latencySeries(data),
              ...(previous === undefined
                ? []
                : [
                    previousOverlay(
                      data,
                      previous,
                      "p95, previous period",
                      (point) => point.p95_response_time_ms,
                    ),
                  ]),
            ]}
            mode="lines"
            formatValue={formatMs}
            timeZone={data.timezone}
            onZoom={onZoom}
          />
        )}
      </Card>
    </div>
  );
}
