// Routes of the analytics tag: the project overview under /projects/{project_slug}/analytics and
// the app routes of spec 4.5 under /apps/{app_slug}. Schemas and one service call each.
import {
  AppConsumersQuerySchema,
  AppTimeseriesQuerySchema,
  AppWindowQuerySchema,
  ConsumerStatsSchema,
  EndpointConsumerSchema,
  EndpointConsumersQuerySchema,
  EndpointDetailSchema,
  EndpointOptionSchema,
  EndpointOptionsQuerySchema,
  EndpointPayloadsQuerySchema,
  EndpointQuerySchema,
  EndpointStatsPageSchema,
  EndpointStatsQuerySchema,
  EndpointStatusCodesQuerySchema,
  EndpointTimeseriesQuerySchema,
  EnvironmentsQuerySchema,
  EnvironmentsSchema,
  PayloadSampleSchema,
  ProjectAnalyticsQuerySchema,
  ProjectConsumersQuerySchema,
  ProjectEndpointsPageSchema,
  ProjectEndpointsQuerySchema,
  ProjectTimeseriesQuerySchema,
  RelatedApiSchema,
  RelatedApisQuerySchema,
  StatusCodeCountSchema,
  SummarySchema,
  TimeseriesSchema,
} from "@sightline/contracts";
import { type TObject, type TProperties, Type } from "typebox";
import { requireAuth } from "../../http/bearer-auth.js";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { AppParams, AppScopeQuery } from "../apps/app-scope.js";
import type { AnalyticsService, AppTarget } from "./analytics.service.js";

const ProjectParams = Type.Object({ project_slug: Type.String({ maxLength: 200, examples: ["shop"] }) });

/** An app route's query: its own parameters plus `?project=` to pick among same-slug apps. */
function withProject<P extends TProperties>(schema: TObject<P>) {
  return Type.Object({ ...AppScopeQuery.properties, ...schema.properties }, { additionalProperties: false });
}

const RULES =
  "Error = status >= 400 (client_errors 4xx, server_errors 5xx); error_rate is a percentage; empty windows " +
  "give zeros. The window defaults to the 24 hours before now; `since`/`until` are inclusive. Bad " +
  "parameters answer 422 naming each one; an unavailable events store answers 503.";

function target(request: {
  auth: Parameters<typeof requireAuth>[0]["auth"];
  params: { app_slug: string };
  query: { project?: string | undefined };
}): AppTarget {
  return {
    userId: requireAuth(request).userId,
    appSlug: request.params.app_slug,
    projectSlug: request.query.project,
  };
}

export async function analyticsRoutes(
  app: App,
  { analytics }: { analytics: AnalyticsService },
): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity, tags: ["analytics"] };
  const projectProblems = problemResponses(401, 404, 422, 503);
  const appProblems = problemResponses(401, 404, 409, 422, 503);

  // ---- project overview ----

  app.get(
    "/projects/:project_slug/analytics/environments",
    {
      schema: {
        ...common,
        operationId: "listProjectEnvironments",
        summary: "List the environments the project has data for",
        description:
          "Distinct environments of the project's request and log records (all retained data), sorted; " +
          "`app_slugs` narrows them to some apps.",
        params: ProjectParams,
        querystring: EnvironmentsQuerySchema,
        response: { 200: EnvironmentsSchema, ...projectProblems },
      },
    },
    async (request) =>
      analytics.environments(requireAuth(request).userId, request.params.project_slug, request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/summary",
    {
      schema: {
        ...common,
        operationId: "getProjectSummary",
        summary: "Summarise the project's traffic in a window",
        description: RULES,
        params: ProjectParams,
        querystring: ProjectAnalyticsQuerySchema,
        response: { 200: SummarySchema, ...projectProblems },
      },
    },
    async (request) =>
      analytics.projectSummary(requireAuth(request).userId, request.params.project_slug, request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/timeseries",
    {
      schema: {
        ...common,
        operationId: "getProjectTimeseries",
        summary: "The project's traffic per time bucket",
        description: `Every bucket of the window, zero-filled, aligned in \`timezone\`. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectTimeseriesQuerySchema,
        response: { 200: TimeseriesSchema, ...projectProblems },
      },
    },
    async (request) =>
      analytics.projectTimeseries(requireAuth(request).userId, request.params.project_slug, request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/endpoints",
    {
      schema: {
        ...common,
        operationId: "listProjectEndpoints",
        summary: "Page through the project's endpoints with their figures",
        description:
          "Endpoints (app, method, route template) with traffic in the window, sorted, one page at a time; " +
          `\`total_count\` counts every matching endpoint. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectEndpointsQuerySchema,
        response: { 200: ProjectEndpointsPageSchema, ...projectProblems },
      },
    },
    async (request) =>
      analytics.projectEndpoints(requireAuth(request).userId, request.params.project_slug, request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/consumers",
    {
      schema: {
        ...common,
        operationId: "listProjectConsumers",
        summary: "The project's busiest consumers",
        description: `Consumers by requests in the window (ties: consumer_id). ${RULES}`,
        params: ProjectParams,
        querystring: ProjectConsumersQuerySchema,
        response: { 200: Type.Array(ConsumerStatsSchema), ...projectProblems },
      },
    },
    async (request) =>
      analytics.projectConsumers(requireAuth(request).userId, request.params.project_slug, request.query),
  );

  // ---- app endpoint metrics (spec 4.5) ----

  app.get(
    "/apps/:app_slug/endpoint-stats",
    {
      schema: {
        ...common,
        operationId: "listAppEndpointStats",
        summary: "Page through the app's endpoints with their figures",
        description:
          "Endpoints (method, route template) with traffic in the window. Status classes and codes are " +
          `OR-ed with each other and AND-ed with the rest. ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointStatsQuerySchema),
        response: { 200: EndpointStatsPageSchema, ...appProblems },
      },
    },
    async (request) => analytics.endpointStats(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/endpoint-options",
    {
      schema: {
        ...common,
        operationId: "listAppEndpointOptions",
        summary: "The app's busiest endpoints, for filter pickers",
        description: `Endpoints with traffic in the window by requests (ties: method, route). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointOptionsQuerySchema),
        response: { 200: Type.Array(EndpointOptionSchema), ...appProblems },
      },
    },
    async (request) => analytics.endpointOptions(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/consumers",
    {
      schema: {
        ...common,
        operationId: "listAppConsumers",
        summary: "The app's busiest consumers",
        description: `Consumers by requests in the window (ties: consumer_id). ${RULES}`,
        params: AppParams,
        querystring: withProject(AppConsumersQuerySchema),
        response: { 200: Type.Array(ConsumerStatsSchema), ...appProblems },
      },
    },
    async (request) => analytics.appConsumers(target(request), request.query),
  );

  // ---- app analytics (spec 4.5) ----

  app.get(
    "/apps/:app_slug/analytics/summary",
    {
      schema: {
        ...common,
        operationId: "getAppSummary",
        summary: "Summarise the app's traffic in a window",
        description: RULES,
        params: AppParams,
        querystring: withProject(AppWindowQuerySchema),
        response: { 200: SummarySchema, ...appProblems },
      },
    },
    async (request) => analytics.appSummary(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/timeseries",
    {
      schema: {
        ...common,
        operationId: "getAppTimeseries",
        summary: "The app's traffic per time bucket",
        description: `Every bucket of the window, zero-filled, aligned in \`timezone\`. ${RULES}`,
        params: AppParams,
        querystring: withProject(AppTimeseriesQuerySchema),
        response: { 200: TimeseriesSchema, ...appProblems },
      },
    },
    async (request) => analytics.appTimeseries(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/related-apis",
    {
      schema: {
        ...common,
        operationId: "listAppRelatedApis",
        summary: "The app's endpoints grouped by the first path segment",
        description: `Families ("/" + first segment of the route template) by requests. ${RULES}`,
        params: AppParams,
        querystring: withProject(RelatedApisQuerySchema),
        response: { 200: Type.Array(RelatedApiSchema), ...appProblems },
      },
    },
    async (request) => analytics.relatedApis(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-detail",
    {
      schema: {
        ...common,
        operationId: "getAppEndpointDetail",
        summary: "One endpoint's figures",
        description: `The endpoint named by \`method\` and \`path\` (its route template). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointQuerySchema),
        response: { 200: EndpointDetailSchema, ...appProblems },
      },
    },
    async (request) => analytics.endpointDetail(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-timeseries",
    {
      schema: {
        ...common,
        operationId: "getAppEndpointTimeseries",
        summary: "One endpoint's traffic per time bucket",
        description: `Every bucket of the window, zero-filled, aligned in \`timezone\`. ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointTimeseriesQuerySchema),
        response: { 200: TimeseriesSchema, ...appProblems },
      },
    },
    async (request) => analytics.endpointTimeseries(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-consumers",
    {
      schema: {
        ...common,
        operationId: "listAppEndpointConsumers",
        summary: "One endpoint's busiest consumers",
        description: `Consumers of the endpoint by requests (ties: consumer_id). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointConsumersQuerySchema),
        response: { 200: Type.Array(EndpointConsumerSchema), ...appProblems },
      },
    },
    async (request) => analytics.endpointConsumers(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-status-codes",
    {
      schema: {
        ...common,
        operationId: "listAppEndpointStatusCodes",
        summary: "One endpoint's requests per status code",
        description: `Status codes by requests (ties: lower code first). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointStatusCodesQuerySchema),
        response: { 200: Type.Array(StatusCodeCountSchema), ...appProblems },
      },
    },
    async (request) => analytics.endpointStatusCodes(target(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-payloads",
    {
      schema: {
        ...common,
        operationId: "listAppEndpointPayloads",
        summary: "One endpoint's latest payload samples",
        description:
          "The newest requests of the endpoint that carried a request or response payload, newest first. " +
          RULES,
        params: AppParams,
        querystring: withProject(EndpointPayloadsQuerySchema),
        response: { 200: Type.Array(PayloadSampleSchema), ...appProblems },
      },
    },
    async (request) => analytics.endpointPayloads(target(request), request.query),
  );
}
