// Routes of alert rules: CRUD under /projects/{slug}/alerts, the history of a rule's state
// changes, and a test notification to its channels. Thin: schema + one service call.
import {
  ALERT_LIMITS,
  AlertBandQuerySchema,
  AlertBandSchema,
  AlertEventsPageSchema,
  AlertEventsQuerySchema,
  AlertRuleSchema,
  CreateAlertRuleBodySchema,
  MessageSchema,
  TestNotificationResultSchema,
  UpdateAlertRuleBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf, withParams } from "../access/index.js";
import type { RulesService } from "./rules.service.js";

const RuleParams = withParams(ProjectParams, {
  alert_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function alertsRoutes(app: App, { rules }: { rules: RulesService }): Promise<void> {
  app.post(
    "/projects/:project_slug/alerts",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "createAlertRule",
        tags: ["alerts"],
        summary: "Create an alert rule",
        description:
          "A rule watches a metric of the project, an app, or an app's environment or endpoint over a " +
          "window, and fires when the condition holds for `for_evaluations` evaluations in a row " +
          "(one every ALERTS_EVAL_INTERVAL_SECONDS). `kind: silence` rules watch heartbeats instead: they " +
          "fire when an app in scope (each app of the project, an app, or an app's environment) has sent " +
          "none for `window_seconds`, and resolve on its next heartbeat. At most 200 rules per project " +
          "(429 limit_reached).",
        params: ProjectParams,
        body: CreateAlertRuleBodySchema,
        response: { 201: AlertRuleSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await rules.create(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/alerts",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listAlertRules",
        tags: ["alerts"],
        summary: "List alert rules with their state",
        description: "Oldest first, with each rule's state (ok, pending, firing) and last observed value.",
        params: ProjectParams,
        response: { 200: Type.Array(AlertRuleSchema) },
      },
    },
    async (request) => rules.list(projectScopeOf(request)),
  );

  app.get(
    "/projects/:project_slug/alerts/:alert_id",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getAlertRule",
        tags: ["alerts"],
        summary: "Get an alert rule",
        params: RuleParams,
        response: { 200: AlertRuleSchema, ...problemResponses(422) },
      },
    },
    async (request) => rules.get(projectScopeOf(request), request.params.alert_id),
  );

  app.patch(
    "/projects/:project_slug/alerts/:alert_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "updateAlertRule",
        tags: ["alerts"],
        summary: "Change an alert rule",
        description:
          "Changing the condition (scope, metric, threshold, window, minimum requests, for, enabled) " +
          "starts the rule again from ok; a pending or firing rule records that in its history without " +
          "notifying. Name, mute and channels change without touching the state.",
        params: RuleParams,
        body: UpdateAlertRuleBodySchema,
        response: { 200: AlertRuleSchema, ...problemResponses(422) },
      },
    },
    async (request) => rules.update(projectScopeOf(request), request.params.alert_id, request.body),
  );

  app.delete(
    "/projects/:project_slug/alerts/:alert_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "deleteAlertRule",
        tags: ["alerts"],
        summary: "Delete an alert rule",
        description: "Its history and any notification not yet sent go with it.",
        params: RuleParams,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      await rules.delete(projectScopeOf(request), request.params.alert_id);
      return { message: "Alert rule deleted" };
    },
  );

  app.get(
    "/projects/:project_slug/alerts/:alert_id/events",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listAlertEvents",
        tags: ["alerts"],
        summary: "History of an alert rule",
        description:
          "State changes, newest first, each with the observed value, threshold, window and request " +
          "count, and the outcome of every notification it caused (attempts, last error).",
        params: RuleParams,
        querystring: AlertEventsQuerySchema,
        response: { 200: AlertEventsPageSchema, ...problemResponses(422) },
      },
    },
    async (request) => rules.events(projectScopeOf(request), request.params.alert_id, request.query),
  );

  app.get(
    "/projects/:project_slug/alerts/:alert_id/band",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getAlertRuleBand",
        tags: ["alerts"],
        summary: "Value and band of an anomaly rule over time",
        description:
          "For an `anomaly` rule: one point per window of `window_seconds`, back to back from `since` to " +
          "`until` (default: the 24 hours before now; windows end on multiples of their length), each with " +
          "the observed value, its request count and the band the model drew — expected value, lower and " +
          "upper edge, score, and status (`warming_up` and `low_volume` never fire). The same model and " +
          "buckets the evaluator uses (ADR 0020). At most " +
          `${ALERT_LIMITS.maxBandPoints} points, and less than a week of windows. A threshold rule answers 422.`,
        params: RuleParams,
        querystring: AlertBandQuerySchema,
        response: { 200: AlertBandSchema, ...problemResponses(422) },
      },
    },
    async (request) => rules.band(projectScopeOf(request), request.params.alert_id, request.query),
  );

  app.post(
    "/projects/:project_slug/alerts/:alert_id/test",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "testAlertRule",
        tags: ["alerts"],
        summary: "Send a test notification",
        description:
          "Sends a notification marked as a test to every channel of the rule now, without retries, " +
          "and reports each channel's outcome. The rule's state does not change. Each send ends " +
          "after ALERTS_SEND_TIMEOUT_SECONDS (10). At most " +
          `${ALERT_LIMITS.testSendsPerUserPerMinute} calls a minute per user and ` +
          `${ALERT_LIMITS.testSendsPerProjectPerMinute} per project (429 rate_limited with Retry-After).`,
        params: RuleParams,
        response: { 200: TestNotificationResultSchema, ...problemResponses(422, 429) },
      },
    },
    async (request) => rules.test(projectScopeOf(request), request.params.alert_id),
  );
}
