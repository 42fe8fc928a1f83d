// The band chart of an anomaly rule: for each window of a span, back to back, the value and the
// band the model drew at that moment — what the rule page plots, from the same buckets and the
// same model code the evaluator uses.
import { ALERT_LIMITS, type AlertBand, type AlertBandQuery } from "@sightline/contracts";
import type { Clock } from "../../clock.js";
import { toIsoTimestamp } from "../../clock.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import type { AlertRuleRow } from "../../stores/metadata/repos/alert-rules.repo.js";
import { ANOMALY_MODEL, evaluateAnomaly, historyAt, levelBucketsOf } from "./anomaly-model.js";
import { type AnomalySpec, readBuckets, WEEK_MS } from "../../stores/events/queries/alerts/anomaly.js";
import { bandOf } from "./evaluator.js";
import { invalidFields } from "./field-errors.js";
import { anomalyParamsOf, metricSpecOf } from "./rule-rows.js";

const DAY_MS = 86_400_000;

export interface BandDeps {
  readonly events: EventsExecutor;
  readonly clock: Clock;
}

/** The most points one chart may have for a window: the request cap, and one week less the level. */
export function maxBandPoints(windowSeconds: number): number {
  const perWeek = WEEK_MS / (windowSeconds * 1000);
  return Math.min(ALERT_LIMITS.maxBandPoints, perWeek - levelBucketsOf(windowSeconds) - 1);
}

export async function anomalyBand(
  deps: BandDeps,
  rule: AlertRuleRow,
  query: AlertBandQuery,
): Promise<AlertBand> {
  if (rule.kind !== "anomaly") {
    throw invalidFields([
      { pointer: "/alert_id", message: `is a ${rule.kind} rule: only anomaly rules have a band` },
    ]);
  }
  const windowMs = rule.window_seconds * 1000;
  const untilMs = query.until === undefined ? deps.clock.now().getTime() : Date.parse(query.until);
  const sinceMs = query.since === undefined ? untilMs - DAY_MS : Date.parse(query.since);
  const limit = maxBandPoints(rule.window_seconds);
  if (!Number.isFinite(untilMs))
    throw invalidFields([{ pointer: "/until", message: "is not a usable instant" }]);
  if (!Number.isFinite(sinceMs))
    throw invalidFields([{ pointer: "/since", message: "is not a usable instant" }]);
  // Windows end on multiples of their length, so a chart drawn again a minute later keeps its points.
  const endMs = Math.floor(untilMs / windowMs) * windowMs;
  const points = Math.ceil((endMs - sinceMs) / windowMs);
  if (points < 1)
    throw invalidFields([{ pointer: "/since", message: "must be at least one window before until" }]);
  if (points > limit) {
    throw invalidFields([
      {
        pointer: "/since",
        message: `asks for ${points} windows; at most ${limit} of ${rule.window_seconds} s`,
      },
    ]);
  }
  const [buckets] = await readBuckets(
    deps.events,
    {
      projectId: rule.project_id,
      endMs,
      windowSeconds: rule.window_seconds,
      buckets: points + levelBucketsOf(rule.window_seconds),
      weeks: ANOMALY_MODEL.weeks,
      ahead: ANOMALY_MODEL.baselineNeighbours,
    },
    [metricSpecOf(rule) as AnomalySpec],
  );
  const params = anomalyParamsOf(rule);
  return {
    rule_id: rule.id,
    metric: params.metric,
    sensitivity: params.sensitivity,
    direction: params.direction,
    window_seconds: rule.window_seconds,
    points: Array.from({ length: points }, (_, index) => {
      const offset = points - 1 - index;
      const history = historyAt(buckets as NonNullable<typeof buckets>, rule.window_seconds, offset);
      const verdict = evaluateAnomaly(history, params);
      const windowEnd = endMs - offset * windowMs;
      return {
        window_start: toIsoTimestamp(new Date(windowEnd - windowMs)),
        window_end: toIsoTimestamp(new Date(windowEnd)),
        value: verdict.value,
        request_count: history.now.current.requests,
        ...bandOf(verdict),
      };
    }),
  };
}
