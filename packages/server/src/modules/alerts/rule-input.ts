// Turns a create or patch body into a complete, consistent rule definition: merges a patch over
// the stored rule, checks what the schema alone cannot (fields that belong to one metric, scope
// parts that need an app, an error rate above 100%, the fields of the other rule kind), and
// reports every problem with its pointer.
import {
  ALERT_LIMITS,
  type AlertComparator,
  type AlertMetric,
  type AlertRuleKind,
  type AlertScopeInput,
  ANOMALY_METRICS,
  type AnomalyDirection,
  type AnomalySensitivity,
  type CreateAlertRuleBody,
  type FieldError,
  type UpdateAlertRuleBody,
} from "@sightline/contracts";
import { ANOMALY_WINDOWS } from "./anomaly-model.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import { normaliseRouteTemplate } from "../ingest/index.js";
import { invalidFields } from "./field-errors.js";

/** A rule's definition as the service stores it (app still by slug: the service resolves it). */
export interface RuleDefinition {
  readonly name: string;
  readonly kind: AlertRuleKind;
  readonly enabled: boolean;
  readonly app: string | null;
  readonly environment: string | null;
  readonly endpoint: { readonly method: string; readonly route: string } | null;
  readonly metric: AlertMetric;
  readonly errorStatusFrom: number | null;
  readonly status: string | null;
  /** Threshold rules only (null for anomaly rules). */
  readonly comparator: AlertComparator | null;
  readonly threshold: number | null;
  /** Anomaly rules only (null for threshold rules). */
  readonly sensitivity: AnomalySensitivity | null;
  readonly direction: AnomalyDirection | null;
  readonly windowSeconds: number;
  readonly minRequests: number;
  readonly forEvaluations: number;
  readonly mutedUntil: string | null;
}

/** The fields whose change restarts evaluation (the state goes back to ok). */
export const CONDITION_FIELDS = [
  "enabled",
  "app",
  "environment",
  "endpoint",
  "metric",
  "errorStatusFrom",
  "status",
  "comparator",
  "threshold",
  "sensitivity",
  "direction",
  "windowSeconds",
  "minRequests",
  "forEvaluations",
] as const satisfies ReadonlyArray<keyof RuleDefinition>;

/** Defaults of anomaly rules (ADR 0020): a band judged on 20 requests or more, held 2 evaluations. */
export const ANOMALY_DEFAULTS = { sensitivity: "medium", minRequests: 20, forEvaluations: 1 } as const;

/** Errors and latency matter when they rise; traffic matters both ways. */
export function defaultDirection(metric: AlertMetric): AnomalyDirection {
  return metric === "request_count" ? "both" : "up";
}

export function definitionFromCreate(body: CreateAlertRuleBody): RuleDefinition {
  const kind = body.kind ?? "threshold";
  const anomaly = kind === "anomaly";
  return check({
    name: body.name.trim(),
    kind,
    enabled: body.enabled ?? true,
    ...scopeFields(body.scope),
    metric: body.metric,
    errorStatusFrom: body.error_status_from ?? (body.metric === "error_rate" ? 500 : null),
    status: body.status ?? null,
    comparator: body.comparator ?? null,
    threshold: body.threshold ?? null,
    sensitivity: body.sensitivity ?? (anomaly ? ANOMALY_DEFAULTS.sensitivity : null),
    direction: body.direction ?? (anomaly ? defaultDirection(body.metric) : null),
    windowSeconds: body.window_seconds,
    minRequests: body.min_requests ?? (anomaly ? ANOMALY_DEFAULTS.minRequests : 0),
    forEvaluations: body.for_evaluations ?? (anomaly ? ANOMALY_DEFAULTS.forEvaluations : 1),
    mutedUntil: normaliseInstant(body.muted_until ?? null),
  });
}

/**
 * The stored definition with the patch applied. Changing the metric drops the fields of the old
 * metric unless the patch sends them again, so switching metric needs no clean-up request.
 */
export function definitionFromPatch(stored: RuleDefinition, patch: UpdateAlertRuleBody): RuleDefinition {
  const metric = patch.metric ?? stored.metric;
  const metricChanged = metric !== stored.metric;
  const anomaly = stored.kind === "anomaly";
  return check({
    name: patch.name === undefined ? stored.name : patch.name.trim(),
    kind: stored.kind,
    enabled: patch.enabled ?? stored.enabled,
    ...(patch.scope === undefined
      ? { app: stored.app, environment: stored.environment, endpoint: stored.endpoint }
      : scopeFields(patch.scope)),
    metric,
    errorStatusFrom:
      patch.error_status_from ??
      (metric !== "error_rate" ? null : metricChanged ? 500 : (stored.errorStatusFrom ?? 500)),
    status: patch.status ?? (metricChanged ? null : stored.status),
    comparator: patch.comparator ?? stored.comparator,
    threshold: patch.threshold ?? stored.threshold,
    sensitivity: patch.sensitivity ?? stored.sensitivity,
    direction: patch.direction ?? (anomaly && metricChanged ? defaultDirection(metric) : stored.direction),
    windowSeconds: patch.window_seconds ?? stored.windowSeconds,
    minRequests:
      patch.min_requests ??
      (metricChanged && metric === "request_count" && !anomaly ? 0 : stored.minRequests),
    forEvaluations: patch.for_evaluations ?? stored.forEvaluations,
    mutedUntil: patch.muted_until === undefined ? stored.mutedUntil : normaliseInstant(patch.muted_until),
  });
}

function scopeFields(
  scope: AlertScopeInput | undefined,
): Pick<RuleDefinition, "app" | "environment" | "endpoint"> {
  return {
    app: scope?.app ?? null,
    // Stored as ingest stores them, so `Production` and `/users/:id` match recorded traffic.
    environment:
      scope?.environment === undefined || scope.environment === null
        ? null
        : normaliseEnvironmentName(scope.environment),
    endpoint:
      scope?.endpoint === undefined || scope.endpoint === null
        ? null
        : {
            method: scope.endpoint.method.toUpperCase(),
            route: normaliseRouteTemplate(scope.endpoint.route.trim()),
          },
  };
}

function normaliseInstant(text: string | null): string | null {
  if (text === null) return null;
  const ms = Date.parse(text);
  // The date-time format admits what Date cannot hold (a leap second, year 0000): refuse it here.
  if (!Number.isFinite(ms) || ms < 0 || ms > 253_402_300_799_999)
    throw invalidFields([{ pointer: "/muted_until", message: "is not a usable instant" }]);
  return new Date(ms).toISOString();
}

function check(definition: RuleDefinition): RuleDefinition {
  const errors: FieldError[] = [];
  const problem = (pointer: string, message: string) => errors.push({ pointer, message });
  if (definition.name === "") problem("/name", "must not be blank");
  if (definition.app === null && definition.environment !== null)
    problem("/scope/environment", "needs scope.app: environments belong to an app");
  if (definition.app === null && definition.endpoint !== null)
    problem("/scope/endpoint", "needs scope.app: endpoints belong to an app");
  if (definition.environment === "") problem("/scope/environment", "must not be blank");
  if (definition.metric !== "error_rate" && definition.errorStatusFrom !== null)
    problem("/error_status_from", "applies to the error_rate metric only");
  if (definition.metric === "status_count" && definition.status === null)
    problem("/status", "is required for the status_count metric (a code like 503 or a class like 5xx)");
  if (definition.metric !== "status_count" && definition.status !== null)
    problem("/status", "applies to the status_count metric only");
  if (definition.kind === "threshold") {
    if (definition.comparator === null) problem("/comparator", "is required for threshold rules");
    if (definition.threshold === null) problem("/threshold", "is required for threshold rules");
    if (definition.metric === "error_rate" && definition.threshold !== null && definition.threshold > 100)
      problem("/threshold", "is a percentage for error_rate: at most 100");
    if (definition.metric === "request_count" && definition.minRequests > 0)
      problem("/min_requests", "does not apply to request_count (it would hide a traffic drop)");
    if (definition.sensitivity !== null) problem("/sensitivity", "applies to anomaly rules only");
    if (definition.direction !== null) problem("/direction", "applies to anomaly rules only");
    if (definition.metric === "silent_minutes") problem("/metric", "applies to silence rules only");
  } else if (definition.kind === "silence") {
    checkSilence(definition, problem);
  } else {
    if (!(ANOMALY_METRICS as readonly string[]).includes(definition.metric))
      problem("/metric", `must be one of ${ANOMALY_METRICS.join(", ")} for anomaly rules`);
    if (definition.comparator !== null)
      problem("/comparator", "does not apply to anomaly rules (the band replaces it)");
    if (definition.threshold !== null)
      problem("/threshold", "does not apply to anomaly rules (the band replaces it)");
    if (!(ANOMALY_WINDOWS as readonly number[]).includes(definition.windowSeconds))
      problem("/window_seconds", `must be one of ${ANOMALY_WINDOWS.join(", ")} for anomaly rules`);
  }
  if (errors.length > 0) {
    throw invalidFields(errors);
  }
  return definition;
}

/** A silence rule watches heartbeats: an app or environment, whole minutes, nothing of requests. */
function checkSilence(definition: RuleDefinition, problem: (pointer: string, message: string) => void): void {
  if (definition.metric !== "silent_minutes") problem("/metric", "must be silent_minutes for silence rules");
  if (definition.endpoint !== null)
    problem("/scope/endpoint", "does not apply to silence rules (heartbeats come from apps, not endpoints)");
  if (definition.comparator !== null)
    problem("/comparator", "does not apply to silence rules (window_seconds is the silence that fires)");
  if (definition.threshold !== null)
    problem("/threshold", "does not apply to silence rules (window_seconds is the silence that fires)");
  if (definition.sensitivity !== null) problem("/sensitivity", "applies to anomaly rules only");
  if (definition.direction !== null) problem("/direction", "applies to anomaly rules only");
  if (definition.minRequests !== 0)
    problem("/min_requests", "does not apply to silence rules (they count heartbeats, not requests)");
  if (definition.windowSeconds % 60 !== 0 || definition.windowSeconds < ALERT_LIMITS.minSilenceSeconds)
    problem(
      "/window_seconds",
      `must be whole minutes, at least ${ALERT_LIMITS.minSilenceSeconds / 60} minutes (${ALERT_LIMITS.minSilenceSeconds} s) for silence rules: the SDK beats every minute`,
    );
}
