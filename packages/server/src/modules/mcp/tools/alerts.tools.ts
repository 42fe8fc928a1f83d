// Alerting as configured and as it happened: the project's rules with their current state, and
// one rule's recent state changes.
import type { AlertRule } from "@sightline/contracts";
import { Type } from "typebox";
import { projectTool } from "../tool.js";
import { nextCursor, pageOf } from "../window.js";
import { CursorArg, limitArg, ProjectArg } from "./params.js";

/** What fires the rule, in one line: each kind states its own condition. */
function conditionOf(rule: AlertRule): string {
  if (rule.kind === "silence") return `no heartbeat for ${rule.window_seconds / 60} min`;
  if (rule.kind === "anomaly")
    return `${rule.metric} outside its expected band (${rule.sensitivity ?? "medium"} sensitivity, ${rule.direction ?? "both"})`;
  return `${rule.metric} ${rule.comparator} ${rule.threshold}`;
}

/** A rule as the tools and the alert-rules resource show it. */
export function ruleRow(rule: AlertRule) {
  return {
    id: rule.id,
    name: rule.name,
    enabled: rule.enabled,
    state: rule.state,
    state_since: rule.state_since,
    scope: rule.scope,
    metric: rule.metric,
    ...(rule.status === null ? {} : { status: rule.status }),
    ...(rule.error_status_from === null ? {} : { error_status_from: rule.error_status_from }),
    condition: conditionOf(rule),
    window_seconds: rule.window_seconds,
    min_requests: rule.min_requests,
    for_evaluations: rule.for_evaluations,
    muted_until: rule.muted_until,
    last_value: rule.last_value,
    last_evaluated_at: rule.last_evaluated_at,
  };
}

export const listAlerts = projectTool({
  target: "project",
  permission: "alerts:read",
  name: "list_alerts",
  title: "Alert rules and their state",
  description:
    "The project's alert rules: what each watches (scope, metric, condition, window), whether it " +
    "is ok, pending or firing and since when, and the value it last observed. `firing_only` keeps " +
    "the rules now firing.",
  input: Type.Object(
    {
      project: ProjectArg,
      firing_only: Type.Optional(Type.Boolean({ description: "Only rules in state firing." })),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const rules = await services.rules.list(scope);
    const shown = args.firing_only === true ? rules.filter((rule) => rule.state === "firing") : rules;
    return { items: shown.map(ruleRow), total_count: shown.length };
  },
});

export const alertEvents = projectTool({
  target: "project",
  permission: "alerts:read",
  name: "alert_events",
  title: "An alert rule's recent events",
  description:
    "State changes of one alert rule (newest first): from and to state, the value and request count " +
    "that caused it, the window evaluated, and whether notifications went out. Pages with `next_cursor`.",
  input: Type.Object(
    {
      project: ProjectArg,
      alert_id: Type.String({ format: "uuid", description: "The rule's id, from list_alerts." }),
      limit: Type.Optional(limitArg(20, 100, "events")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const page = await services.rules.events(scope, args.alert_id, {
      page: pageOf(args.cursor),
      page_size: args.limit ?? 20,
    });
    return {
      items: page.items.map((event) => ({
        at: event.created_at,
        from_state: event.from_state,
        to_state: event.to_state,
        reason: event.reason,
        value: event.value,
        threshold: event.threshold,
        comparator: event.comparator,
        request_count: event.request_count,
        window_start: event.window_start,
        window_end: event.window_end,
        muted: event.muted,
        notifications: event.notifications.map((sent) => ({
          channel: sent.channel_name,
          type: sent.type,
          status: sent.status,
        })),
      })),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});
