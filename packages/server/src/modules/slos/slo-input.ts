// Turns a create or patch body into a complete, consistent SLO definition: merges a patch over
// the stored SLO, normalises scope parts as ingest stores them, checks what the schema alone
// cannot (scope parts that need an app, one consumer or one group, short windows shorter than
// long ones) and reports every problem with its pointer.
import {
  type BurnCondition,
  type CreateSloBody,
  DEFAULT_BURN_ALERTS,
  type FieldError,
  type Sli,
  type SloScopeInput,
  type SloWindowDays,
  type UpdateSloBody,
} from "@sightline/contracts";
import type { EndpointKey } from "../../stores/events/queries/request-filter.js";
import { invalidFields } from "../alerts/index.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import { normaliseRouteTemplate } from "../ingest/index.js";

export type SliDefinition =
  | { readonly kind: "availability"; readonly alsoBad: readonly string[] }
  | { readonly kind: "latency"; readonly thresholdMs: number };

export interface AlertingDefinition {
  readonly enabled: boolean;
  readonly fast: BurnCondition;
  readonly slow: BurnCondition;
}

/** An SLO as the service stores it (app still by slug: the service resolves it). */
export interface SloDefinition {
  readonly name: string;
  readonly app: string | null;
  readonly environment: string | null;
  readonly endpoints: readonly EndpointKey[];
  readonly consumer: string | null;
  readonly consumerGroup: string | null;
  readonly sli: SliDefinition;
  readonly target: number;
  readonly windowDays: SloWindowDays;
  readonly alerting: AlertingDefinition;
}

/** The parts whose change starts burn-rate evaluation again from ok. */
export const CONDITION_PARTS = [
  "app",
  "environment",
  "endpoints",
  "consumer",
  "consumerGroup",
  "sli",
  "target",
  "windowDays",
  "alerting",
] as const satisfies ReadonlyArray<keyof SloDefinition>;

type ScopeDefinition = Pick<
  SloDefinition,
  "app" | "environment" | "endpoints" | "consumer" | "consumerGroup"
>;

export function definitionFromCreate(body: CreateSloBody): SloDefinition {
  return check({
    name: body.name.trim(),
    ...scopeFields(body.scope),
    sli: sliOf(body.sli),
    target: body.target,
    windowDays: body.window_days,
    alerting: alertingOf(body.alerting, undefined),
  });
}

export function definitionFromPatch(stored: SloDefinition, patch: UpdateSloBody): SloDefinition {
  return check({
    name: patch.name === undefined ? stored.name : patch.name.trim(),
    ...(patch.scope === undefined ? scopeOf(stored) : scopeFields(patch.scope)),
    sli: patch.sli === undefined ? stored.sli : sliOf(patch.sli),
    target: patch.target ?? stored.target,
    windowDays: patch.window_days ?? stored.windowDays,
    alerting: alertingOf(patch.alerting, stored.alerting),
  });
}

/** The same definition for one consumer (the per-consumer template). */
export function forConsumer(definition: SloDefinition, consumer: string): SloDefinition {
  const name = `${definition.name} · ${consumer}`;
  return check({ ...definition, name: name.length > 100 ? `${name.slice(0, 99)}…` : name, consumer });
}

function scopeOf(definition: SloDefinition): ScopeDefinition {
  const { app, environment, endpoints, consumer, consumerGroup } = definition;
  return { app, environment, endpoints, consumer, consumerGroup };
}

function scopeFields(scope: SloScopeInput | undefined): ScopeDefinition {
  const endpoints = new Map<string, EndpointKey>();
  for (const endpoint of scope?.endpoints ?? []) {
    // Stored as ingest stores them, so `post` and `/orders/:id` match recorded traffic.
    const key = {
      method: endpoint.method.toUpperCase(),
      route: normaliseRouteTemplate(endpoint.route.trim()),
    };
    endpoints.set(`${key.method} ${key.route}`, key);
  }
  const environment = scope?.environment ?? null;
  return {
    app: scope?.app ?? null,
    environment: environment === null ? null : normaliseEnvironmentName(environment),
    endpoints: [...endpoints.values()],
    consumer: scope?.consumer ?? null,
    consumerGroup: scope?.consumer_group ?? null,
  };
}

function sliOf(sli: Sli): SliDefinition {
  return sli.kind === "latency"
    ? { kind: "latency", thresholdMs: sli.threshold_ms }
    : { kind: "availability", alsoBad: [...new Set((sli.also_bad ?? []).map((s) => s.toLowerCase()))] };
}

function alertingOf(
  input: CreateSloBody["alerting"],
  stored: AlertingDefinition | undefined,
): AlertingDefinition {
  return {
    enabled: input?.enabled ?? stored?.enabled ?? true,
    fast: input?.fast ?? stored?.fast ?? { ...DEFAULT_BURN_ALERTS.fast },
    slow: input?.slow ?? stored?.slow ?? { ...DEFAULT_BURN_ALERTS.slow },
  };
}

function check(definition: SloDefinition): SloDefinition {
  const errors: FieldError[] = [];
  const problem = (pointer: string, message: string) => errors.push({ pointer, message });
  if (definition.name === "") problem("/name", "must not be blank");
  if (definition.app === null && definition.environment !== null)
    problem("/scope/environment", "needs scope.app: environments belong to an app");
  if (definition.app === null && definition.endpoints.length > 0)
    problem("/scope/endpoints", "needs scope.app: endpoints belong to an app");
  if (definition.environment === "") problem("/scope/environment", "must not be blank");
  if (definition.consumer !== null && definition.consumerGroup !== null)
    problem("/scope/consumer_group", "cannot be combined with scope.consumer");
  if (definition.sli.kind === "availability" && definition.sli.alsoBad.some((s) => s.startsWith("5")))
    problem("/sli/also_bad", "5xx answers are always bad: list 4xx classes or other codes only");
  for (const severity of ["fast", "slow"] as const) {
    const condition = definition.alerting[severity];
    if (condition.short_window_minutes >= condition.long_window_minutes)
      problem(`/alerting/${severity}/short_window_minutes`, "must be shorter than long_window_minutes");
  }
  if (errors.length > 0) throw invalidFields(errors);
  return definition;
}

/** `429` → code 429, `4xx` → class 4: how the events query and the request search take them. */
export function splitStatuses(selectors: readonly string[]): { codes: number[]; classes: number[] } {
  const codes: number[] = [];
  const classes: number[] = [];
  for (const selector of selectors) {
    if (selector.endsWith("xx")) classes.push(Number(selector[0]));
    else codes.push(Number(selector));
  }
  return { codes, classes };
}
