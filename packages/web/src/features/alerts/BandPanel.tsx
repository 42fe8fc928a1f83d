// An anomaly rule's last 24 hours: the value of each window against the band the rule compared
// it with (expected, lower and upper edge), from the band route, so a person sees why it fired.
import type { AlertRule } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { TimeSeriesChart } from "../../components/charts";
import { ErrorPanel, Notice, SkeletonRows } from "../../components/ui/Feedback";
import { pluralise } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { bandQuery } from "./api";
import { bandChartData } from "./band";
import text from "../../components/data/Text.module.css";
import { formatMetricValue, METRIC_LABELS } from "./rule-text";

export function BandPanel({ project, rule }: { project: string; rule: AlertRule }) {
  const timeZone = useTimeZone();
  const band = useQuery(bandQuery(project, rule.id));
  const data = useMemo(() => (band.data ? bandChartData(band.data) : undefined), [band.data]);
  if (band.isPending) return <SkeletonRows rows={4} label="Loading the band" />;
  if (band.isError)
    return <ErrorPanel what="the band" error={band.error} onRetry={() => void band.refetch()} />;
  if (data === undefined || data.buckets.length === 0)
    return (
      <Notice tone="info" role="status">
        No band yet: the rule needs traffic in at least 2 of the last 4 weeks at this time of week, and enough
        requests in a window to judge it.
      </Notice>
    );
  return (
    <>
      <p className={text.sub}>
        {pluralise(data.outside, "window")} outside the band
        {data.withoutBand > 0 ? `; ${pluralise(data.withoutBand, "window")} without a band (not drawn)` : ""}.
      </p>
      <TimeSeriesChart
        label={`${METRIC_LABELS[rule.metric]} against its expected band`}
        buckets={data.buckets}
        bucketMs={rule.window_seconds * 1000}
        mode="lines"
        integers={false}
        formatValue={(value) => formatMetricValue(rule.metric, value)}
        series={[
          // Drawn in this order: the value last, on top of the band it is judged against.
          { key: "lower", label: "Lower edge", color: "--warning", values: data.lower },
          { key: "upper", label: "Upper edge", color: "--warning", values: data.upper },
          { key: "expected", label: "Expected", color: "--text-subtle", values: data.expected },
          { key: "value", label: "Value", color: "--accent", values: data.value },
        ]}
        {...(timeZone === undefined ? {} : { timeZone })}
      />
    </>
  );
}
