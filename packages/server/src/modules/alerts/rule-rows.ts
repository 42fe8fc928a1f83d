// Conversions between stored rule rows and what the rest of the module speaks: the wire shape,
// the definition the input checks work on, the spec the metrics query needs, and the rule as a
// notification describes it.
import type {
  AlertComparator,
  AlertMetric,
  AlertRule,
  AlertRuleKind,
  AlertState,
  AnomalyBand,
  AnomalyDirection,
  AnomalyMetric,
  AnomalySensitivity,
} from "@sightline/contracts";
import type { AnomalyParams } from "./anomaly-model.js";
import type { AlertRuleRow, AlertRuleWithAppRow } from "../../stores/metadata/repos/alert-rules.repo.js";
import type { MetricSpec, RequestMetric } from "../../stores/events/queries/alerts/metrics.js";
import type { Notification } from "./notification.js";
import type { RuleDefinition } from "./rule-input.js";

export function endpointOf(row: AlertRuleRow): { method: string; route: string } | null {
  return row.endpoint_method === null || row.endpoint_route === null
    ? null
    : { method: row.endpoint_method, route: row.endpoint_route };
}

const isAnomaly = (row: AlertRuleRow) => row.kind === "anomaly";
/** Anomaly and silence rules have no comparator or threshold of their own on the wire. */
const hasThreshold = (row: AlertRuleRow) => row.kind === "threshold";

/** The stored band of the last evaluation (JSON written by the evaluator). */
export function lastBandOf(row: AlertRuleRow): AnomalyBand | null {
  if (!isAnomaly(row) || row.last_band === null) return null;
  return JSON.parse(row.last_band) as AnomalyBand;
}

export function toAlertRule(row: AlertRuleWithAppRow, channelIds: readonly string[]): AlertRule {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as AlertRuleKind,
    enabled: row.enabled === 1,
    scope: {
      app:
        row.app_id === null ? null : { id: row.app_id, slug: row.app_slug ?? "", name: row.app_name ?? "" },
      environment: row.environment,
      endpoint: endpointOf(row),
    },
    metric: row.metric as AlertMetric,
    error_status_from:
      row.error_status_from === 400 || row.error_status_from === 500 ? row.error_status_from : null,
    status: row.status_selector,
    comparator: hasThreshold(row) ? (row.comparator as AlertComparator) : null,
    threshold: hasThreshold(row) ? row.threshold : null,
    sensitivity: row.sensitivity as AnomalySensitivity | null,
    direction: row.direction as AnomalyDirection | null,
    window_seconds: row.window_seconds,
    min_requests: row.min_requests,
    for_evaluations: row.for_evaluations,
    muted_until: row.muted_until,
    channel_ids: [...channelIds],
    state: row.state as AlertState,
    state_since: row.state_since,
    last_evaluated_at: row.last_evaluated_at,
    last_value: row.last_value,
    last_band: lastBandOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function definitionOf(row: AlertRuleWithAppRow): RuleDefinition {
  return {
    name: row.name,
    kind: row.kind as AlertRuleKind,
    enabled: row.enabled === 1,
    app: row.app_id === null ? null : (row.app_slug ?? ""),
    environment: row.environment,
    endpoint: endpointOf(row),
    // The evaluator groups rules by kind: silence rules never ask for a request metric.
    metric: row.metric as RequestMetric,
    errorStatusFrom: row.error_status_from,
    status: row.status_selector,
    comparator: hasThreshold(row) ? (row.comparator as AlertComparator) : null,
    threshold: hasThreshold(row) ? row.threshold : null,
    sensitivity: row.sensitivity as AnomalySensitivity | null,
    direction: row.direction as AnomalyDirection | null,
    windowSeconds: row.window_seconds,
    minRequests: row.min_requests,
    forEvaluations: row.for_evaluations,
    mutedUntil: row.muted_until,
  };
}

/** The stored columns of a definition whose app is resolved to `appId`. */
export function definitionColumns(definition: RuleDefinition, appId: string | null) {
  return {
    name: definition.name,
    kind: definition.kind,
    enabled: definition.enabled ? 1 : 0,
    app_id: appId,
    environment: definition.environment,
    endpoint_method: definition.endpoint?.method ?? null,
    endpoint_route: definition.endpoint?.route ?? null,
    metric: definition.metric,
    error_status_from: definition.errorStatusFrom,
    status_selector: definition.status,
    // Anomaly rules fill the NOT NULL columns of 0008 with placeholders nobody reads; silence
    // rules store what they mean (silent minutes >= the window's minutes) for the history rows.
    ...(definition.kind === "silence"
      ? { comparator: "gte", threshold: definition.windowSeconds / 60 }
      : { comparator: definition.comparator ?? "gt", threshold: definition.threshold ?? 0 }),
    sensitivity: definition.sensitivity,
    direction: definition.direction,
    window_seconds: definition.windowSeconds,
    min_requests: definition.minRequests,
    for_evaluations: definition.forEvaluations,
    muted_until: definition.mutedUntil,
  };
}

export function metricSpecOf(row: AlertRuleRow): MetricSpec {
  return {
    appId: row.app_id,
    environment: row.environment,
    endpoint: endpointOf(row),
    // The evaluator groups rules by kind: silence rules never ask for a request metric.
    metric: row.metric as RequestMetric,
    errorStatusFrom: row.error_status_from,
    status: row.status_selector,
  };
}

export function anomalyParamsOf(row: AlertRuleRow): AnomalyParams {
  return {
    metric: row.metric as AnomalyMetric,
    sensitivity: (row.sensitivity ?? "medium") as AnomalySensitivity,
    direction: (row.direction ?? "both") as AnomalyDirection,
    minRequests: row.min_requests,
  };
}

export function notificationRuleOf(row: AlertRuleWithAppRow): Notification["rule"] {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as AlertRuleKind,
    metric: row.metric as AlertMetric,
    comparator: hasThreshold(row) ? (row.comparator as AlertComparator) : null,
    threshold: hasThreshold(row) ? row.threshold : null,
    sensitivity: row.sensitivity as AnomalySensitivity | null,
    window_seconds: row.window_seconds,
    error_status_from: row.error_status_from,
    status: row.status_selector,
    scope: {
      app: row.app_id === null ? null : (row.app_slug ?? null),
      environment: row.environment,
      endpoint: endpointOf(row),
    },
  };
}
