// The live preview of a rule: its metric over the last 24 h, measured over the rule's own window
// from the analytics time series of its scope, against the threshold; with the figures a person
// checks (now, highest, how often the condition would have held).
import type { AlertMetric } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { TimeSeriesChart } from "../../components/charts";
import { ErrorPanel, Notice, SkeletonRows } from "../../components/ui/Feedback";
import { pluralise } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { previewQuery } from "./api";
import text from "../../components/data/Text.module.css";
import styles from "./Alerts.module.css";
import {
  bucketingFor,
  PREVIEW_HOURS,
  type PreviewPoint,
  type PreviewRule,
  type PreviewScope,
  previewRequest,
  previewSeries,
  unsupportedReason,
} from "./preview";
import { COMPARATOR_SYMBOLS, formatMetricValue, formatWindow, METRIC_LABELS } from "./rule-text";

/** The end of the previewed range, moved on each minute so the query key changes with it. */
function useMinute(): Date {
  const [minute, setMinute] = useState(() => Math.ceil(Date.now() / 60_000) * 60_000);
  useEffect(() => {
    const timer = window.setInterval(() => setMinute(Math.ceil(Date.now() / 60_000) * 60_000), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  return new Date(minute);
}

export function PreviewPanel({
  project,
  rule,
  scope,
}: {
  project: string;
  rule: PreviewRule;
  scope: PreviewScope;
}) {
  const until = useMinute();
  const timeZone = useTimeZone();
  const validWindow =
    Number.isFinite(rule.window_seconds) && rule.window_seconds >= 60 && rule.window_seconds <= 86_400;
  const bucketing = bucketingFor(validWindow ? rule.window_seconds : 300);
  const request = previewRequest(project, scope, bucketing, until);
  const unsupported = unsupportedReason(rule);
  const series = useQuery({
    ...previewQuery(project, request),
    enabled: unsupported === null && validWindow,
  });
  // Memoised on the rule's figures: the chart redraws when they or the data change, not on
  // every render of the form around it.
  const {
    metric,
    error_status_from,
    status,
    comparator,
    threshold: typed,
    window_seconds,
    min_requests,
  } = rule;
  const computed = useMemo(
    () =>
      series.data
        ? previewSeries(
            { metric, error_status_from, status, comparator, threshold: typed, window_seconds, min_requests },
            series.data.points,
            bucketingFor(validWindow ? window_seconds : 300),
          )
        : null,
    [
      series.data,
      metric,
      error_status_from,
      status,
      comparator,
      typed,
      window_seconds,
      min_requests,
      validWindow,
    ],
  );

  if (unsupported !== null) return <Notice tone="info">{unsupported}</Notice>;
  if (!validWindow)
    return <Notice tone="info">Choose a window of 1 minute to 24 hours to see the preview.</Notice>;
  if (series.isError)
    return <ErrorPanel what="the preview" error={series.error} onRetry={() => void series.refetch()} />;
  if (computed === null) return <SkeletonRows rows={4} label="Loading the preview" />;

  const label = METRIC_LABELS[rule.metric];
  const threshold = Number.isFinite(rule.threshold) ? rule.threshold : null;
  const windowText = formatWindow(rule.window_seconds);
  const latestBreach = computed.latest?.breach ?? false;
  return (
    <section className={styles.preview} aria-label="Preview">
      <dl className={styles.figures}>
        <div>
          <dt>Last {windowText}</dt>
          <dd className={latestBreach ? styles.breach : undefined} data-figure="latest">
            {formatMetricValue(rule.metric, computed.latest?.value ?? null)}
          </dd>
        </div>
        <div>
          <dt>Threshold</dt>
          <dd data-figure="threshold">
            {COMPARATOR_SYMBOLS[rule.comparator]} {formatMetricValue(rule.metric, threshold)}
          </dd>
        </div>
        <div>
          <dt>Highest in {PREVIEW_HOURS} h</dt>
          <dd data-figure="highest">{formatMetricValue(rule.metric, computed.highest)}</dd>
        </div>
        <div>
          <dt>Requests, last {windowText}</dt>
          <dd data-figure="requests">{(computed.latest?.requests ?? 0).toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt>Condition met</dt>
          <dd data-figure="breaches">
            {computed.breaches === 0 ? "never" : pluralise(computed.breaches, "time")}
          </dd>
        </div>
      </dl>
      <PreviewChart
        points={computed.points}
        threshold={threshold}
        metric={rule.metric}
        seriesLabel={`${label}, ${windowText} window`}
        label={`${label} over ${windowText} windows in the last ${PREVIEW_HOURS} hours, against the threshold`}
        bucketMs={bucketing.seconds * 1000}
        timeZone={timeZone}
      />
      <p className={text.sub}>
        Each point is the value over the {windowText} ending at that{" "}
        {bucketing.interval === "1m" ? "minute" : `${bucketing.interval} bucket`}, from the analytics of this
        scope; windows without requests show as 0.
        {computed.perBucket
          ? ` Percentiles cannot be added up, so this shows the ${label.toLowerCase()} of each ${bucketing.interval} bucket; the rule measures it over the whole ${windowText}.`
          : ""}
        {rule.metric !== "request_count" && rule.min_requests > 0
          ? ` Windows with fewer than ${pluralise(rule.min_requests, "request")} do not count as met.`
          : ""}
      </p>
    </section>
  );
}

/** The shared time-series chart with the metric and the threshold as two lines. */
function PreviewChart({
  points,
  threshold,
  metric,
  seriesLabel,
  label,
  bucketMs,
  timeZone,
}: {
  points: readonly PreviewPoint[];
  threshold: number | null;
  metric: AlertMetric;
  seriesLabel: string;
  label: string;
  bucketMs: number;
  timeZone: string | undefined;
}) {
  const buckets = useMemo(() => points.map((point) => point.bucket), [points]);
  const series = useMemo(
    () => [
      {
        key: "value",
        label: seriesLabel,
        color: "--accent",
        values: points.map((point) => point.value ?? 0),
      },
      { key: "threshold", label: "Threshold", color: "--danger", values: points.map(() => threshold ?? 0) },
    ],
    [points, threshold, seriesLabel],
  );
  const formatValue = useCallback((value: number) => formatMetricValue(metric, value), [metric]);
  return (
    <TimeSeriesChart
      label={label}
      buckets={buckets}
      bucketMs={bucketMs}
      series={series}
      mode="lines"
      formatValue={formatValue}
      {...(timeZone === undefined ? {} : { timeZone })}
    />
  );
}
