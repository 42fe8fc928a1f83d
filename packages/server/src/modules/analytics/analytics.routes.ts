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
  ErrorGroupsPageSchema,
  ErrorIssuesPageSchema,
  PayloadSampleSchema,
  ProjectAnalyticsQuerySchema,
  ProjectConsumersPageSchema,
  ProjectConsumersQuerySchema,
  ProjectEndpointsPageSchema,
  ProjectEndpointsQuerySchema,
  ProjectErrorIssuesQuerySchema,
  ProjectErrorsQuerySchema,
  ProjectTimeseriesQuerySchema,
  RelatedApiSchema,
  RelatedApisQuerySchema,
  StatusCodeCountSchema,
  SummarySchema,
  TimeseriesSchema,
  EndpointValidationErrorsQuerySchema,
  ValidationErrorCountSchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import {
  access,
  AppParams,
  appScopeOf,
  ProjectParams,
  projectScopeOf,
  withProject,
} from "../access/index.js";
import type { AnalyticsService } from "./analytics.service.js";

const RULES =
  "Error = status >= 400 (client_errors 4xx, server_errors 5xx); error_rate is a percentage; empty windows " +
  "give zeros. The window defaults to the 24 hours before now; `since`/`until` are inclusive. Bad " +
  "parameters answer 422 naming each one; an unavailable events store answers 503.";

export async function analyticsRoutes(
  app: App,
  { analytics }: { analytics: AnalyticsService },
): Promise<void> {
  const common = { tags: ["analytics"] };
  const problems = problemResponses(422, 503);
  const projectConfig = { access: access.project("data:read") };
  const appConfig = { access: access.app("data:read") };

  // ---- project overview ----

  app.get(
    "/projects/:project_slug/analytics/environments",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "listProjectEnvironments",
        summary: "List the environments the project has data for",
        description:
          "Distinct environments of the project's request and log records (all retained data), sorted; " +
          "`app_slugs` narrows them to some apps.",
        params: ProjectParams,
        querystring: EnvironmentsQuerySchema,
        response: { 200: EnvironmentsSchema, ...problems },
      },
    },
    async (request) => analytics.environments(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/summary",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "getProjectSummary",
        summary: "Summarise the project's traffic in a window",
        description: RULES,
        params: ProjectParams,
        querystring: ProjectAnalyticsQuerySchema,
        response: { 200: SummarySchema, ...problems },
      },
    },
    async (request) => analytics.projectSummary(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/timeseries",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "getProjectTimeseries",
        summary: "The project's traffic per time bucket",
        description: `Every bucket of the window, zero-filled, aligned in \`timezone\`. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectTimeseriesQuerySchema,
        response: { 200: TimeseriesSchema, ...problems },
      },
    },
    async (request) => analytics.projectTimeseries(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/endpoints",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "listProjectEndpoints",
        summary: "Page through the project's endpoints with their figures",
        description:
          "Endpoints (app, method, route template) with traffic in the window, sorted, one page at a time; " +
          `\`total_count\` counts every matching endpoint. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectEndpointsQuerySchema,
        response: { 200: ProjectEndpointsPageSchema, ...problems },
      },
    },
    async (request) => analytics.projectEndpoints(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/consumers",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "listProjectConsumers",
        summary: "Page through the project's consumers with their figures",
        description:
          "Consumers with traffic in the window (requests without consumer_id are the one `unknown` " +
          "consumer), searchable by `q`, sorted (ties: consumer_id), one page at a time; `total_count` " +
          `counts every matching consumer. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectConsumersQuerySchema,
        response: { 200: ProjectConsumersPageSchema, ...problems },
      },
    },
    async (request) => analytics.projectConsumers(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/errors",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "listProjectErrors",
        summary: "Page through the project's failed requests by endpoint and status code",
        description:
          "Requests with status >= 400 in the window, grouped by (app, method, route template, status code), " +
          "with the distinct consumers affected and the first and last request of each group; most " +
          `frequent first by default. \`total_count\` counts every group. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectErrorsQuerySchema,
        response: { 200: ErrorGroupsPageSchema, ...problems },
      },
    },
    async (request) => analytics.projectErrors(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/analytics/error-issues",
    {
      config: projectConfig,
      schema: {
        ...common,
        operationId: "listProjectErrorIssues",
        summary: "Page through the project's exceptions and error logs grouped into issues",
        description:
          "ERROR and CRITICAL logs in the window grouped by (app, fingerprint): exception type, message with " +
          "numbers, ids, uuids, hex and quoted values masked, and the top three in-app stack frames, computed " +
          "at ingest (logs stored before that have none and are not grouped). Each issue has its count, " +
          "consumers affected, first occurrence within log retention, last in the window, whether it is new " +
          "or regressed (quiet for 24 hours before the window), the newest message and stack, and up to five " +
          `trace ids. \`total_count\` counts every issue. ${RULES}`,
        params: ProjectParams,
        querystring: ProjectErrorIssuesQuerySchema,
        response: { 200: ErrorIssuesPageSchema, ...problems },
      },
    },
    async (request) => analytics.projectErrorIssues(projectScopeOf(request), request.query),
  );

  // ---- app endpoint metrics (spec 4.5) ----

  app.get(
    "/apps/:app_slug/endpoint-stats",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppEndpointStats",
        summary: "Page through the app's endpoints with their figures",
        description:
          "Endpoints (method, route template) with traffic in the window. Status classes and codes are " +
          `OR-ed with each other and AND-ed with the rest. ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointStatsQuerySchema),
        response: { 200: EndpointStatsPageSchema, ...problems },
      },
    },
    async (request) => analytics.endpointStats(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/endpoint-options",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppEndpointOptions",
        summary: "The app's busiest endpoints, for filter pickers",
        description: `Endpoints with traffic in the window by requests (ties: method, route). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointOptionsQuerySchema),
        response: { 200: Type.Array(EndpointOptionSchema), ...problems },
      },
    },
    async (request) => analytics.endpointOptions(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/consumers",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppConsumers",
        summary: "The app's busiest consumers",
        description: `Consumers by requests in the window (ties: consumer_id). ${RULES}`,
        params: AppParams,
        querystring: withProject(AppConsumersQuerySchema),
        response: { 200: Type.Array(ConsumerStatsSchema), ...problems },
      },
    },
    async (request) => analytics.appConsumers(appScopeOf(request), request.query),
  );

  // ---- app analytics (spec 4.5) ----

  app.get(
    "/apps/:app_slug/analytics/summary",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "getAppSummary",
        summary: "Summarise the app's traffic in a window",
        description: RULES,
        params: AppParams,
        querystring: withProject(AppWindowQuerySchema),
        response: { 200: SummarySchema, ...problems },
      },
    },
    async (request) => analytics.appSummary(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/timeseries",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "getAppTimeseries",
        summary: "The app's traffic per time bucket",
        description: `Every bucket of the window, zero-filled, aligned in \`timezone\`. ${RULES}`,
        params: AppParams,
        querystring: withProject(AppTimeseriesQuerySchema),
        response: { 200: TimeseriesSchema, ...problems },
      },
    },
    async (request) => analytics.appTimeseries(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/related-apis",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppRelatedApis",
        summary: "The app's endpoints grouped by the first path segment",
        description: `Families ("/" + first segment of the route template) by requests. ${RULES}`,
        params: AppParams,
        querystring: withProject(RelatedApisQuerySchema),
        response: { 200: Type.Array(RelatedApiSchema), ...problems },
      },
    },
    async (request) => analytics.relatedApis(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-detail",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "getAppEndpointDetail",
        summary: "One endpoint's figures",
        description: `The endpoint named by \`method\` and \`path\` (its route template). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointQuerySchema),
        response: { 200: EndpointDetailSchema, ...problems },
      },
    },
    async (request) => analytics.endpointDetail(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-timeseries",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "getAppEndpointTimeseries",
        summary: "One endpoint's traffic per time bucket",
        description: `Every bucket of the window, zero-filled, aligned in \`timezone\`. ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointTimeseriesQuerySchema),
        response: { 200: TimeseriesSchema, ...problems },
      },
    },
    async (request) => analytics.endpointTimeseries(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-consumers",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppEndpointConsumers",
        summary: "One endpoint's busiest consumers",
        description: `Consumers of the endpoint by requests (ties: consumer_id). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointConsumersQuerySchema),
        response: { 200: Type.Array(EndpointConsumerSchema), ...problems },
      },
    },
    async (request) => analytics.endpointConsumers(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-status-codes",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppEndpointStatusCodes",
        summary: "One endpoint's requests per status code",
        description: `Status codes by requests (ties: lower code first). ${RULES}`,
        params: AppParams,
        querystring: withProject(EndpointStatusCodesQuerySchema),
        response: { 200: Type.Array(StatusCodeCountSchema), ...problems },
      },
    },
    async (request) => analytics.endpointStatusCodes(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-payloads",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppEndpointPayloads",
        summary: "One endpoint's latest payload samples",
        description:
          "The newest requests of the endpoint that carried a request or response payload, newest first. " +
          RULES,
        params: AppParams,
        querystring: withProject(EndpointPayloadsQuerySchema),
        response: { 200: Type.Array(PayloadSampleSchema), ...problems },
      },
    },
    async (request) => analytics.endpointPayloads(appScopeOf(request), request.query),
  );

  app.get(
    "/apps/:app_slug/analytics/endpoint-validation-errors",
    {
      config: appConfig,
      schema: {
        ...common,
        operationId: "listAppEndpointValidationErrors",
        summary: "One endpoint's top validation errors by field",
        description:
          "Validation errors the SDK captured on the endpoint's 400 and 422 answers, counted per field path " +
          "and rule, most frequent first (ties: path, rule), with the latest message (never the value). " +
          RULES,
        params: AppParams,
        querystring: withProject(EndpointValidationErrorsQuerySchema),
        response: { 200: Type.Array(ValidationErrorCountSchema), ...problems },
      },
    },
    async (request) => analytics.endpointValidationErrors(appScopeOf(request), request.query),
  );
}
