// Routes of SLOs under /projects/{slug}/slos: CRUD, the per-consumer template, the computed
// status and budget burn-down, and the history of burn-rate alerts. Thin: schema + one service call.
import {
  AlertEventsQuerySchema,
  CreateSloBodySchema,
  MessageSchema,
  PerConsumerSloBodySchema,
  SLO_LIMITS,
  SloBurnDownSchema,
  SloEventsPageSchema,
  SloSchema,
  SlosQuerySchema,
  SloStatusSchema,
  SloWithStatusSchema,
  UpdateSloBodySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf, withParams } from "../access/index.js";
import type { SlosService } from "./slos.service.js";

const SloParams = withParams(ProjectParams, {
  slo_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function slosRoutes(app: App, { slos }: { slos: SlosService }): Promise<void> {
  app.post(
    "/projects/:project_slug/slos",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "createSlo",
        tags: ["slos"],
        summary: "Create an SLO",
        description:
          "An objective over the project, an app, or an app's environment and endpoints, optionally for " +
          "one consumer or consumer group: the share of good requests (availability: not 5xx and not " +
          "`also_bad`; latency: faster than `threshold_ms`) over a rolling window of 7, 28 or 30 days. " +
          "Burn-rate alerts are evaluated with the alert rules (multi-window, multi-burn-rate). At most " +
          `${SLO_LIMITS.slosPerProject} SLOs per project (429 limit_reached).`,
        params: ProjectParams,
        body: CreateSloBodySchema,
        response: { 201: SloSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await slos.create(projectScopeOf(request), request.body)),
  );

  app.post(
    "/projects/:project_slug/slos/per-consumer",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "createSlosPerConsumer",
        tags: ["slos"],
        summary: "Create the same SLO for each of the top consumers",
        description:
          "Finds the `top` consumers (non-empty consumer_id) with the most requests in the scope over the " +
          "template's window, busiest first, and creates the template's SLO for each, named " +
          "`<name> · <consumer>`. Answers the SLOs created (none when the scope had no consumers).",
        params: ProjectParams,
        body: PerConsumerSloBodySchema,
        response: { 201: Type.Array(SloSchema), ...problemResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await slos.createPerConsumer(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/slos",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listSlos",
        tags: ["slos"],
        summary: "List SLOs, optionally those covering an app, endpoint or consumer, with their status",
        description:
          "Oldest first. `app`, `method` + `route` and `consumer` keep the SLOs whose scope includes that " +
          "app, endpoint or consumer (an SLO of a consumer group is not said to cover a consumer). With " +
          "`include_status` each comes with its status, all read in one events-store statement.",
        params: ProjectParams,
        querystring: SlosQuerySchema,
        response: { 200: Type.Array(SloWithStatusSchema), ...problemResponses(422) },
      },
    },
    async (request) => slos.list(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/slos/:slo_id",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getSlo",
        tags: ["slos"],
        summary: "Get an SLO",
        params: SloParams,
        response: { 200: SloSchema, ...problemResponses(422) },
      },
    },
    async (request) => slos.get(projectScopeOf(request), request.params.slo_id),
  );

  app.get(
    "/projects/:project_slug/slos/:slo_id/status",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getSloStatus",
        tags: ["slos"],
        summary: "Attainment, error budget and burn rates of an SLO now",
        description:
          "Over the rolling window ending now: requests, bad requests, attainment, the error budget left, " +
          "burn rates over the last 5, 30, 60 and 360 minutes, and the failing requests as a request search.",
        params: SloParams,
        response: { 200: SloStatusSchema, ...problemResponses(422) },
      },
    },
    async (request) => slos.status(projectScopeOf(request), request.params.slo_id),
  );

  app.get(
    "/projects/:project_slug/slos/:slo_id/burn-down",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getSloBurnDown",
        tags: ["slos"],
        summary: "Error budget spent per day",
        description:
          "One entry per UTC day of the window ending now: requests, bad requests, the share of the " +
          "window's budget spent that day and what is left at its end.",
        params: SloParams,
        response: { 200: SloBurnDownSchema, ...problemResponses(422) },
      },
    },
    async (request) => slos.burnDown(projectScopeOf(request), request.params.slo_id),
  );

  app.patch(
    "/projects/:project_slug/slos/:slo_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "updateSlo",
        tags: ["slos"],
        summary: "Change an SLO",
        description:
          "Changing what is measured or the alerting starts burn-rate alerting again from ok; a burning " +
          "SLO records that in its history without notifying. Name and channels change without touching the state.",
        params: SloParams,
        body: UpdateSloBodySchema,
        response: { 200: SloSchema, ...problemResponses(422) },
      },
    },
    async (request) => slos.update(projectScopeOf(request), request.params.slo_id, request.body),
  );

  app.delete(
    "/projects/:project_slug/slos/:slo_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "deleteSlo",
        tags: ["slos"],
        summary: "Delete an SLO",
        description: "Its history and any notification not yet sent go with it.",
        params: SloParams,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      await slos.delete(projectScopeOf(request), request.params.slo_id);
      return { message: "SLO deleted" };
    },
  );

  app.get(
    "/projects/:project_slug/slos/:slo_id/events",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listSloEvents",
        tags: ["slos"],
        summary: "History of an SLO's burn-rate alerts",
        description:
          "State changes (ok, slow_burn, fast_burn), newest first, with the burn rates of the condition's " +
          "two windows and the outcome of every notification each caused.",
        params: SloParams,
        querystring: AlertEventsQuerySchema,
        response: { 200: SloEventsPageSchema, ...problemResponses(422) },
      },
    },
    async (request) => slos.events(projectScopeOf(request), request.params.slo_id, request.query),
  );
}
