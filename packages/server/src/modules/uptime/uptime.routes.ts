// Routes of uptime checks under /projects/{slug}/uptime-checks: CRUD, each with its uptime
// percentages, and a check's results. Thin: schema + one service call.
import {
  CreateUptimeCheckBodySchema,
  MessageSchema,
  UpdateUptimeCheckBodySchema,
  UPTIME_LIMITS,
  UptimeCheckSchema,
  UptimeCheckWithUptimeSchema,
  UptimeResultsQuerySchema,
  UptimeResultsSchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf, withParams } from "../access/index.js";
import type { UptimeService } from "./uptime.service.js";

const CheckParams = withParams(ProjectParams, {
  check_id: Type.String({ format: "uuid", examples: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }),
});

export async function uptimeRoutes(app: App, { uptime }: { uptime: UptimeService }): Promise<void> {
  app.post(
    "/projects/:project_slug/uptime-checks",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "createUptimeCheck",
        tags: ["uptime"],
        summary: "Create an uptime check",
        description:
          "An HTTP request Sightline sends every `interval_seconds` (at least 30) from the instance holding " +
          "the uptime lease; a run succeeds when the answer comes within `timeout_ms` with `expected_status` " +
          "and, if set, contains `body_contains`. After `failure_threshold` consecutive failures the check " +
          "is down and its channels are told; its next good run resolves it. Private addresses are refused " +
          `as for webhooks. At most ${UPTIME_LIMITS.checksPerProject} checks per project (429 limit_reached).`,
        params: ProjectParams,
        body: CreateUptimeCheckBodySchema,
        response: { 201: UptimeCheckSchema, ...problemResponses(422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await uptime.create(projectScopeOf(request), request.body)),
  );

  app.get(
    "/projects/:project_slug/uptime-checks",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listUptimeChecks",
        tags: ["uptime"],
        summary: "List uptime checks with their state and uptime over 24 h, 7 d and 30 d",
        description: "Oldest first; the percentages of all checks are read in one events-store statement.",
        params: ProjectParams,
        response: { 200: Type.Array(UptimeCheckWithUptimeSchema), ...problemResponses(422) },
      },
    },
    async (request) => uptime.list(projectScopeOf(request)),
  );

  app.get(
    "/projects/:project_slug/uptime-checks/:check_id",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "getUptimeCheck",
        tags: ["uptime"],
        summary: "Get an uptime check with its uptime percentages",
        params: CheckParams,
        response: { 200: UptimeCheckWithUptimeSchema, ...problemResponses(422) },
      },
    },
    async (request) => uptime.get(projectScopeOf(request), request.params.check_id),
  );

  app.get(
    "/projects/:project_slug/uptime-checks/:check_id/results",
    {
      config: { access: access.project("alerts:read") },
      schema: {
        operationId: "listUptimeResults",
        tags: ["uptime"],
        summary: "Results of an uptime check, newest first",
        description:
          "Each run's time, success, status, latency (to the answer's headers) and failure reason, over " +
          "`since`–`until` (default: the last 24 hours); `failures_only` keeps the failed runs.",
        params: CheckParams,
        querystring: UptimeResultsQuerySchema,
        response: { 200: UptimeResultsSchema, ...problemResponses(422) },
      },
    },
    async (request) => uptime.results(projectScopeOf(request), request.params.check_id, request.query),
  );

  app.patch(
    "/projects/:project_slug/uptime-checks/:check_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "updateUptimeCheck",
        tags: ["uptime"],
        summary: "Change an uptime check",
        description: "The check keeps its state and runs again at once.",
        params: CheckParams,
        body: UpdateUptimeCheckBodySchema,
        response: { 200: UptimeCheckSchema, ...problemResponses(422) },
      },
    },
    async (request) => uptime.update(projectScopeOf(request), request.params.check_id, request.body),
  );

  app.delete(
    "/projects/:project_slug/uptime-checks/:check_id",
    {
      config: { access: access.project("alerts:write") },
      schema: {
        operationId: "deleteUptimeCheck",
        tags: ["uptime"],
        summary: "Delete an uptime check",
        description: "Its results stay in the events store until their retention ends.",
        params: CheckParams,
        response: { 200: MessageSchema, ...problemResponses(422) },
      },
    },
    async (request) => {
      await uptime.delete(projectScopeOf(request), request.params.check_id);
      return { message: "Uptime check deleted" };
    },
  );
}
