// A chart of one timeseries answer of the analytics API: its buckets and zone, the page's series,
// and, when the page compares periods, one figure of the previous period laid over as a dashed line.
import type { Timeseries } from "@sightline/contracts";
import { type ChartSeries, TimeSeriesChart, type TimeSeriesChartProps } from "../charts";
import { intervalMs } from "../../lib/filters";
import { type PreviousPeriod, previousOverlay } from "./parts";

export function PeriodChart({
  data,
  series,
  previous,
  overlay,
  ...chart
}: Omit<TimeSeriesChartProps, "buckets" | "bucketMs" | "series" | "timeZone"> & {
  data: Timeseries;
  series: readonly ChartSeries[];
  /** The previous period, when the page compares periods and it has loaded. */
  previous: PreviousPeriod | undefined;
  /** The figure of the previous period drawn over the chart, and its legend label. */
  overlay: { label: string; value: (point: Timeseries["points"][number]) => number };
}) {
  return (
    <TimeSeriesChart
      {...chart}
      buckets={data.points.map((point) => point.bucket)}
      bucketMs={intervalMs(data.interval)}
      series={
        previous === undefined
          ? series
          : [...series, previousOverlay(data, previous, overlay.label, overlay.value)]
      }
      timeZone={data.timezone}
    />
  );
}
