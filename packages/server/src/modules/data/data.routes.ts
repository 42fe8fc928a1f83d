// Routes of the data tag: searching a project's request and log records (spec 4.4.1, 4.4.2),
// one request in full for the dashboard's detail view, recent traces and one trace in full.
import {
  EXPORT_LIMITS,
  LatencyHistogramSchema,
  LogsExportQuerySchema,
  LogsPageSchema,
  LogsQuerySchema,
  RequestDetailParamsSchema,
  RequestDetailSchema,
  RequestsExportQuerySchema,
  RequestsHistogramQuerySchema,
  RequestsPageSchema,
  RequestsQuerySchema,
  TraceDetailSchema,
  TraceParamsSchema,
  TracesPageSchema,
  TracesQuerySchema,
} from "@sightline/contracts";
import { sendDownload } from "../../http/download.js";
import { problemResponses } from "../../http/schemas.js";
import type { App } from "../../http/types.js";
import { access, ProjectParams, projectScopeOf } from "../access/index.js";
import type { DataService } from "./data.service.js";

const SEARCH_RULES =
  "Filters combine with AND; comma lists with OR inside one parameter. `since`/`until` are inclusive. " +
  "Newest first, ties broken by record id, so consecutive pages never repeat or skip a record. " +
  "Unknown parameters, unknown app slugs and unparsable values answer 422 naming each parameter. " +
  "503 when the events store is unavailable (never an empty page).";

const EXPORT_RULES =
  "Every record the search's filters match (the same parameters, without paging), newest first, " +
  "streamed as it is read: `format=ndjson` (default) writes one record per line in the search's " +
  "record shape, `format=csv` an RFC 4180 file with a header row and those fields as columns. " +
  "Sent gzip-compressed when the request's `Accept-Encoding` accepts gzip. Closing the connection " +
  `stops the export. At most ${EXPORT_LIMITS.perUserPerMinute} exports per user per minute ` +
  "(429 rate_limited with Retry-After). 422 and 503 as for the search, before any record is sent.";

/** The 200 of an export: a file in either format, documented rather than validated. */
const exportResponse = (record: string) => ({
  description: `The ${record} as NDJSON or CSV (Content-Disposition: attachment).`,
  content: {
    "application/x-ndjson": {
      schema: { type: "string", examples: ['{"id":"0192f3c4-…","timestamp":"…"}\n'] },
    },
    "text/csv": { schema: { type: "string", examples: ["id,timestamp,…\r\n"] } },
  },
});

export async function dataRoutes(app: App, { data }: { data: DataService }): Promise<void> {
  const common = { tags: ["data"] };
  const config = { access: access.project("data:read") };

  app.get(
    "/projects/:project_slug/data/requests",
    {
      config,
      schema: {
        ...common,
        operationId: "searchRequests",
        summary: "Search the project's request records",
        description: `Request records without payloads or headers (see the detail route). ${SEARCH_RULES}`,
        params: ProjectParams,
        querystring: RequestsQuerySchema,
        response: { 200: RequestsPageSchema, ...problemResponses(422, 503) },
      },
    },
    async (request) => data.searchRequests(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/data/requests/export",
    {
      config,
      schema: {
        ...common,
        operationId: "exportRequests",
        summary: "Export the project's request records matching a search",
        description: `Request records without payloads or headers. ${EXPORT_RULES}`,
        params: ProjectParams,
        querystring: RequestsExportQuerySchema,
        response: { 200: exportResponse("request records"), ...problemResponses(422, 429, 503) },
      },
    },
    async (request, reply) =>
      sendDownload(request, reply, await data.exportRequests(projectScopeOf(request), request.query)),
  );

  app.get(
    "/projects/:project_slug/data/requests/latency-histogram",
    {
      config,
      schema: {
        ...common,
        operationId: "getRequestsLatencyHistogram",
        summary: "Count the project's requests matching a search per latency bucket",
        description:
          "The search's filters (without paging or sort) over fixed, roughly logarithmic response-time " +
          "buckets, every bucket listed. Unknown parameters and unparsable values answer 422; 503 when " +
          "the events store is unavailable.",
        params: ProjectParams,
        querystring: RequestsHistogramQuerySchema,
        response: { 200: LatencyHistogramSchema, ...problemResponses(422, 503) },
      },
    },
    async (request) => data.requestsHistogram(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/data/requests/:id",
    {
      config,
      schema: {
        ...common,
        operationId: "getRequest",
        summary: "Get one request record in full",
        description:
          "The record with its payloads and headers (credentials were redacted at ingest). 404 when the " +
          "project has no record with this id.",
        params: RequestDetailParamsSchema,
        response: { 200: RequestDetailSchema, ...problemResponses(422, 503) },
      },
    },
    async (request) => data.getRequest(projectScopeOf(request), request.params.id),
  );

  app.get(
    "/projects/:project_slug/data/logs",
    {
      config,
      schema: {
        ...common,
        operationId: "searchLogs",
        summary: "Search the project's log records",
        description: `Log records; \`trace_id\` lists one trace's logs for correlation. ${SEARCH_RULES}`,
        params: ProjectParams,
        querystring: LogsQuerySchema,
        response: { 200: LogsPageSchema, ...problemResponses(422, 503) },
      },
    },
    async (request) => data.searchLogs(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/data/logs/export",
    {
      config,
      schema: {
        ...common,
        operationId: "exportLogs",
        summary: "Export the project's log records matching a search",
        description: `Log records with their attributes. ${EXPORT_RULES}`,
        params: ProjectParams,
        querystring: LogsExportQuerySchema,
        response: { 200: exportResponse("log records"), ...problemResponses(422, 429, 503) },
      },
    },
    async (request, reply) =>
      sendDownload(request, reply, await data.exportLogs(projectScopeOf(request), request.query)),
  );

  app.get(
    "/projects/:project_slug/data/traces",
    {
      config,
      schema: {
        ...common,
        operationId: "searchTraces",
        summary: "List the project's recent traces",
        description:
          "One summary per trace of the filtered spans: root span, service, duration (first start to last " +
          "end), span count, error flag. Time, app and environment filters apply to spans; `min_duration` " +
          "to the trace. Newest first by first span start, ties broken by trace id, so pages never repeat " +
          "or skip a trace. Unknown parameters, unknown app slugs and unparsable values answer 422. 503 " +
          "when the events store is unavailable.",
        params: ProjectParams,
        querystring: TracesQuerySchema,
        response: { 200: TracesPageSchema, ...problemResponses(422, 503) },
      },
    },
    async (request) => data.searchTraces(projectScopeOf(request), request.query),
  );

  app.get(
    "/projects/:project_slug/data/traces/:trace_id",
    {
      config,
      schema: {
        ...common,
        operationId: "getTrace",
        summary: "Get one trace: its span tree, requests and logs",
        description:
          "The spans of the trace as a tree in depth-first order with each span's depth and offset from " +
          "the trace's start, and the project's request and log records carrying the same trace id. 404 " +
          "when the project has no span, request or log with this trace id.",
        params: TraceParamsSchema,
        response: { 200: TraceDetailSchema, ...problemResponses(422, 503) },
      },
    },
    async (request) => data.getTrace(projectScopeOf(request), request.params.trace_id),
  );
}
