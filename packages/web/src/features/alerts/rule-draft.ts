// The rule form's state and its two conversions: from a saved rule (to edit it) and to the body
// the API takes. Inputs stay strings while typed; the server validates the numbers it receives.
import type {
  AlertComparator,
  AlertMetric,
  AlertRuleKind,
  AnomalyDirection,
  AnomalySensitivity,
  AlertRule,
  CreateAlertRuleBody,
  UpdateAlertRuleBody,
} from "@sightline/contracts";
import { ANOMALY_METRICS, ANOMALY_WINDOW_SECONDS } from "@sightline/contracts/vocabulary";

export interface RuleDraft {
  readonly kind: AlertRuleKind;
  readonly name: string;
  readonly enabled: boolean;
  /** App slug; "" for the whole project. */
  readonly app: string;
  readonly environment: string;
  readonly method: string;
  readonly route: string;
  readonly metric: AlertMetric;
  readonly error_status_from: 400 | 500;
  readonly status: string;
  readonly comparator: AlertComparator;
  readonly threshold: string;
  /** Anomaly rules: how wide the band is and which side of it fires. */
  readonly sensitivity: AnomalySensitivity;
  readonly direction: AnomalyDirection;
  readonly window_minutes: string;
  readonly min_requests: string;
  readonly for_evaluations: string;
  readonly channel_ids: readonly string[];
}

export const NEW_RULE: RuleDraft = {
  kind: "threshold",
  name: "",
  enabled: true,
  app: "",
  environment: "",
  method: "",
  route: "",
  metric: "error_rate",
  error_status_from: 500,
  status: "5xx",
  comparator: "gt",
  threshold: "5",
  sensitivity: "medium",
  direction: "up",
  window_minutes: "5",
  min_requests: "20",
  for_evaluations: "2",
  channel_ids: [],
};

/** A sensible threshold and comparator when the metric changes (a person edits from there). */
export const METRIC_DEFAULTS: Record<AlertMetric, Pick<RuleDraft, "comparator" | "threshold">> = {
  error_rate: { comparator: "gt", threshold: "5" },
  p95_latency_ms: { comparator: "gt", threshold: "500" },
  p99_latency_ms: { comparator: "gt", threshold: "1000" },
  request_count: { comparator: "lt", threshold: "1" },
  status_count: { comparator: "gt", threshold: "10" },
  silent_minutes: { comparator: "gte", threshold: "" },
};

/** The metrics each kind takes: a silence rule has one, measured from heartbeats. */
export function metricChoices(kind: AlertRuleKind): readonly AlertMetric[] {
  if (kind === "anomaly") return ANOMALY_METRIC_CHOICES;
  if (kind === "silence") return ["silent_minutes"];
  return (Object.keys(METRIC_DEFAULTS) as AlertMetric[]).filter((metric) => metric !== "silent_minutes");
}

// A record, so a kind added to the contracts must be added here (the bundle leaves TypeBox out).
const KINDS: Record<AlertRuleKind, true> = { threshold: true, anomaly: true, silence: true };

export function kindOf(value: string): AlertRuleKind {
  return (Object.keys(KINDS) as AlertRuleKind[]).find((kind) => kind === value) ?? "threshold";
}

/**
 * What changes with the kind: a metric the kind takes, the default side of the band, a window the
 * kind accepts, and no endpoint for silence rules (heartbeats come from apps).
 */
export function kindChange(draft: RuleDraft, kind: AlertRuleKind): Partial<RuleDraft> {
  const choices = metricChoices(kind);
  const metric = choices.includes(draft.metric) ? draft.metric : (choices[0] ?? "error_rate");
  const minutes = Number(draft.window_minutes);
  return {
    kind,
    metric,
    direction: defaultDirection(metric),
    // Anomaly rules fire on the first evaluation outside the band (ADR 0020: the windows of
    // successive evaluations overlap, so a second one mostly adds delay).
    for_evaluations: kind === "threshold" ? NEW_RULE.for_evaluations : "1",
    ...(kind === "anomaly" && !ANOMALY_WINDOW_MINUTES.includes(minutes) ? { window_minutes: "5" } : {}),
    ...(kind === "silence" ? { method: "", route: "", window_minutes: "10" } : {}),
  };
}

/** The metrics an anomaly rule takes, and its window choices in minutes (ADR 0020). */
export const ANOMALY_METRIC_CHOICES: readonly AlertMetric[] = ANOMALY_METRICS;
export const ANOMALY_WINDOW_MINUTES = ANOMALY_WINDOW_SECONDS.map((seconds) => seconds / 60);

/** The server's default side: traffic may drop or spike, errors and latency only matter going up. */
export function defaultDirection(metric: AlertMetric): AnomalyDirection {
  return metric === "request_count" ? "both" : "up";
}

export function draftFromRule(rule: AlertRule): RuleDraft {
  return {
    kind: rule.kind,
    name: rule.name,
    enabled: rule.enabled,
    app: rule.scope.app?.slug ?? "",
    environment: rule.scope.environment ?? "",
    method: rule.scope.endpoint?.method ?? "",
    route: rule.scope.endpoint?.route ?? "",
    metric: rule.metric,
    error_status_from: rule.error_status_from ?? 500,
    status: rule.status ?? "5xx",
    comparator: rule.comparator ?? "gt",
    threshold: rule.threshold === null ? "" : String(rule.threshold),
    sensitivity: rule.sensitivity ?? "medium",
    direction: rule.direction ?? defaultDirection(rule.metric),
    window_minutes: String(rule.window_seconds / 60),
    min_requests: String(rule.min_requests),
    for_evaluations: String(rule.for_evaluations),
    channel_ids: rule.channel_ids,
  };
}

/** A typed number, or NaN (which the server refuses with a message for that field). */
export function numberOf(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

export function windowSecondsOf(draft: Pick<RuleDraft, "window_minutes">): number {
  return Math.round(numberOf(draft.window_minutes) * 60);
}

/** The body of a create: the edit's fields and the kind (which an edit never changes). */
export function createBodyFromDraft(draft: RuleDraft): CreateAlertRuleBody {
  return { ...bodyFromDraft(draft), kind: draft.kind };
}

/**
 * The body of an edit (PATCH sends every field the form shows): a threshold rule's comparator and
 * threshold, or an anomaly rule's sensitivity and direction.
 */
export function bodyFromDraft(draft: RuleDraft): CreateAlertRuleBody & UpdateAlertRuleBody {
  const scope =
    draft.app === ""
      ? { app: null, environment: null, endpoint: null }
      : {
          app: draft.app,
          environment: draft.environment === "" ? null : draft.environment,
          endpoint:
            draft.method !== "" && draft.route !== "" ? { method: draft.method, route: draft.route } : null,
        };
  return {
    name: draft.name.trim(),
    enabled: draft.enabled,
    scope,
    metric: draft.metric,
    ...(draft.metric === "error_rate" ? { error_status_from: draft.error_status_from } : {}),
    ...(draft.metric === "status_count" ? { status: draft.status.trim().toLowerCase() } : {}),
    ...(draft.kind === "anomaly"
      ? { sensitivity: draft.sensitivity, direction: draft.direction }
      : draft.kind === "threshold"
        ? { comparator: draft.comparator, threshold: numberOf(draft.threshold) }
        : {}),
    window_seconds: windowSecondsOf(draft),
    // Silence rules count heartbeats, not requests: the server refuses a minimum.
    min_requests:
      draft.kind === "silence" || (draft.metric === "request_count" && draft.min_requests.trim() === "")
        ? 0
        : numberOf(draft.min_requests),
    for_evaluations: numberOf(draft.for_evaluations),
    channel_ids: [...draft.channel_ids],
  };
}
