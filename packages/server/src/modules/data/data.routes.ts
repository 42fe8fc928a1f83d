// Routes of the data tag: searching a project's request and log records (spec 4.4.1, 4.4.2) and
// one request in full for the dashboard's detail view.
import {
  LogsPageSchema,
  LogsQuerySchema,
  RequestDetailParamsSchema,
  RequestDetailSchema,
  RequestsPageSchema,
  RequestsQuerySchema,
} from "@sightline/contracts";
import { Type } from "typebox";
import { requireAuth } from "../../http/bearer-auth.js";
import { bearerSecurity, problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import type { DataService } from "./data.service.js";

const ProjectParams = Type.Object({ project_slug: Type.String({ maxLength: 200, examples: ["shop"] }) });

const SEARCH_RULES =
  "Filters combine with AND; comma lists with OR inside one parameter. `since`/`until` are inclusive. " +
  "Newest first, ties broken by record id, so consecutive pages never repeat or skip a record. " +
  "Unknown parameters, unknown app slugs and unparsable values answer 422 naming each parameter. " +
  "503 when the events store is unavailable (never an empty page).";

export async function dataRoutes(app: App, { data }: { data: DataService }): Promise<void> {
  app.addHook("onRequest", app.authenticate);
  const common = { security: bearerSecurity, tags: ["data"] };

  app.get(
    "/projects/:project_slug/data/requests",
    {
      schema: {
        ...common,
        operationId: "searchRequests",
        summary: "Search the project's request records",
        description: `Request records without payloads or headers (see the detail route). ${SEARCH_RULES}`,
        params: ProjectParams,
        querystring: RequestsQuerySchema,
        response: { 200: RequestsPageSchema, ...problemResponses(401, 404, 422, 503) },
      },
    },
    async (request) =>
      data.searchRequests(requireAuth(request).userId, request.params.project_slug, request.query),
  );

  app.get(
    "/projects/:project_slug/data/requests/:id",
    {
      schema: {
        ...common,
        operationId: "getRequest",
        summary: "Get one request record in full",
        description:
          "The record with its payloads and headers (credentials were redacted at ingest). 404 when the " +
          "project has no record with this id.",
        params: RequestDetailParamsSchema,
        response: { 200: RequestDetailSchema, ...problemResponses(401, 404, 422, 503) },
      },
    },
    async (request) =>
      data.getRequest(requireAuth(request).userId, request.params.project_slug, request.params.id),
  );

  app.get(
    "/projects/:project_slug/data/logs",
    {
      schema: {
        ...common,
        operationId: "searchLogs",
        summary: "Search the project's log records",
        description: `Log records; \`trace_id\` lists one trace's logs for correlation. ${SEARCH_RULES}`,
        params: ProjectParams,
        querystring: LogsQuerySchema,
        response: { 200: LogsPageSchema, ...problemResponses(401, 404, 422, 503) },
      },
    },
    async (request) =>
      data.searchLogs(requireAuth(request).userId, request.params.project_slug, request.query),
  );
}
