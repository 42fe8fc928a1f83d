// Between stored SLO rows and everything else: the columns of a definition, the definition of a
// row, the wire shape, what the events query measures, and the dashboard page path.
import type { Slo, SloState, SloWindowDays } from "@sightline/contracts";
import type { SloWithAppRow } from "../../stores/metadata/repos/slos.repo.js";
import type { SlosTable } from "../../stores/metadata/schema.js";
import type { EndpointKey } from "../../stores/events/queries/request-filter.js";
import { type SliDefinition, type SloDefinition, splitStatuses } from "./slo-input.js";
import type { SloSpec } from "../../stores/events/queries/slos/slo.js";

type DefinitionColumns = Omit<
  SlosTable,
  "id" | "project_id" | "state" | "state_since" | "last_evaluated_at" | "created_at" | "updated_at"
>;

export function definitionColumns(definition: SloDefinition, appId: string | null): DefinitionColumns {
  const { sli, alerting } = definition;
  return {
    name: definition.name,
    app_id: appId,
    environment: definition.environment,
    endpoints: JSON.stringify(definition.endpoints),
    consumer_id: definition.consumer,
    consumer_group: definition.consumerGroup,
    sli: sli.kind,
    also_bad: JSON.stringify(sli.kind === "availability" ? sli.alsoBad : []),
    latency_threshold_ms: sli.kind === "latency" ? sli.thresholdMs : null,
    target: definition.target,
    window_days: definition.windowDays,
    alerting_enabled: alerting.enabled ? 1 : 0,
    fast_burn_rate: alerting.fast.burn_rate,
    fast_long_minutes: alerting.fast.long_window_minutes,
    fast_short_minutes: alerting.fast.short_window_minutes,
    slow_burn_rate: alerting.slow.burn_rate,
    slow_long_minutes: alerting.slow.long_window_minutes,
    slow_short_minutes: alerting.slow.short_window_minutes,
  };
}

function sliOfRow(row: SloWithAppRow): SliDefinition {
  return row.sli === "latency"
    ? { kind: "latency", thresholdMs: row.latency_threshold_ms ?? 0 }
    : { kind: "availability", alsoBad: JSON.parse(row.also_bad) as string[] };
}

export function definitionOf(row: SloWithAppRow): SloDefinition {
  return {
    name: row.name,
    app: row.app_slug,
    environment: row.environment,
    endpoints: JSON.parse(row.endpoints) as EndpointKey[],
    consumer: row.consumer_id,
    consumerGroup: row.consumer_group,
    sli: sliOfRow(row),
    target: row.target,
    windowDays: row.window_days as SloWindowDays,
    alerting: {
      enabled: row.alerting_enabled === 1,
      fast: {
        burn_rate: row.fast_burn_rate,
        long_window_minutes: row.fast_long_minutes,
        short_window_minutes: row.fast_short_minutes,
      },
      slow: {
        burn_rate: row.slow_burn_rate,
        long_window_minutes: row.slow_long_minutes,
        short_window_minutes: row.slow_short_minutes,
      },
    },
  };
}

/** The SLO's page in the dashboard, a path under PUBLIC_URL. */
export function sloPagePath(projectSlug: string, id: string): string {
  return `/projects/${encodeURIComponent(projectSlug)}/slos/${encodeURIComponent(id)}`;
}

export function toSlo(row: SloWithAppRow, channelIds: readonly string[]): Slo {
  const definition = definitionOf(row);
  const { sli } = definition;
  return {
    id: row.id,
    name: row.name,
    scope: {
      app:
        row.app_id === null ? null : { id: row.app_id, slug: row.app_slug ?? "", name: row.app_name ?? "" },
      environment: row.environment,
      endpoints: [...definition.endpoints],
      consumer: row.consumer_id,
      consumer_group: row.consumer_group,
    },
    sli:
      sli.kind === "latency"
        ? { kind: "latency", threshold_ms: sli.thresholdMs }
        : { kind: "availability", also_bad: [...sli.alsoBad] },
    target: row.target,
    window_days: row.window_days,
    alerting: { ...definition.alerting },
    channel_ids: [...channelIds],
    state: row.state as SloState,
    state_since: row.state_since,
    last_evaluated_at: row.last_evaluated_at,
    page: sloPagePath(row.project_slug, row.id),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What the events query counts for a definition whose app is `appId`. */
export function specOfDefinition(definition: SloDefinition, appId: string | null): SloSpec {
  const { sli } = definition;
  const statuses = sli.kind === "availability" ? splitStatuses(sli.alsoBad) : undefined;
  return {
    scope: {
      appId,
      environment: definition.environment,
      endpoints: definition.endpoints,
      consumerId: definition.consumer,
      consumerGroup: definition.consumerGroup,
    },
    sli:
      sli.kind === "latency"
        ? { kind: "latency", thresholdMs: sli.thresholdMs }
        : {
            kind: "availability",
            alsoBadCodes: statuses?.codes ?? [],
            alsoBadClasses: statuses?.classes ?? [],
          },
  };
}

/** What the events query counts for this SLO. */
export function specOf(row: SloWithAppRow): SloSpec {
  return specOfDefinition(definitionOf(row), row.app_id);
}

/** `app checkout, environment production, POST /orders, consumer customer-42`. */
export function describeScope(definition: SloDefinition, projectName: string): string {
  const parts = [definition.app === null ? `project ${projectName}` : `app ${definition.app}`];
  if (definition.environment !== null) parts.push(`environment ${definition.environment}`);
  if (definition.endpoints.length === 1) {
    const [endpoint] = definition.endpoints as [EndpointKey];
    parts.push(`${endpoint.method} ${endpoint.route}`);
  } else if (definition.endpoints.length > 1) parts.push(`${definition.endpoints.length} endpoints`);
  if (definition.consumer !== null) parts.push(`consumer ${definition.consumer}`);
  if (definition.consumerGroup !== null) parts.push(`consumer group ${definition.consumerGroup}`);
  return parts.join(", ");
}
