// Individual records: request search (every filter of the data route) and one request in full,
// log search, trace search and one trace as a span tree. Lists carry compact rows; a single
// record carries its payloads, cut to a bound.
import { Type } from "typebox";
import type { ProjectScope } from "../../access/index.js";
import type { McpServices } from "../services.js";
import { bounded, logRow, PAYLOAD_BOUND, requestRow } from "../shapes.js";
import { projectTool } from "../tool.js";
import { nextCursor, pageOf } from "../window.js";
import {
  AppSlugsArg,
  ConsumerArg,
  CursorArg,
  EnvironmentArg,
  limitArg,
  ProjectArg,
  recordWindowArgs,
} from "./params.js";

/** The project's live apps by id, to name the app of each record (null once deleted). */
async function appSlugsOf(services: McpServices, scope: ProjectScope): Promise<Map<string, string>> {
  return new Map((await services.apps.listLiveRefs(scope.project.id)).map((ref) => [ref.id, ref.slug]));
}

const TraceIdArg = Type.String({
  pattern: "^[0-9a-fA-F]{32}$",
  description: "A W3C trace id: 32 hexadecimal digits.",
});

export const searchRequests = projectTool({
  target: "project",
  permission: "data:read",
  name: "search_requests",
  title: "Search request records",
  description:
    "Individual requests, newest first, with every filter of the API's request search: apps, " +
    "environment, time, methods, status codes or classes, consumer, route template, raw-path " +
    "pattern, trace id, response-time bounds. Each row: id (for get_request), timestamp, app, " +
    "endpoint, path, status_code, response_time_ms, consumer_id, trace_id. Pages with `next_cursor`.",
  input: Type.Object(
    {
      project: ProjectArg,
      app_slugs: Type.Optional(AppSlugsArg),
      environment: Type.Optional(EnvironmentArg),
      ...recordWindowArgs,
      methods: Type.Optional(
        Type.String({ maxLength: 1024, description: "Comma-separated, e.g. GET,POST." }),
      ),
      status_codes: Type.Optional(
        Type.String({ maxLength: 1024, description: "Comma-separated status codes, e.g. 500,503." }),
      ),
      status_classes: Type.Optional(
        Type.String({ maxLength: 64, description: "Comma-separated classes, e.g. 4xx,5xx." }),
      ),
      consumer: Type.Optional(ConsumerArg),
      route: Type.Optional(
        Type.String({ maxLength: 2048, description: "One route template, exact, e.g. /users/{id}." }),
      ),
      path_filter: Type.Optional(
        Type.String({
          maxLength: 2048,
          description: "Whole-path pattern, case-insensitive, `*` matches anything, e.g. /users/*/orders*.",
        }),
      ),
      trace_id: Type.Optional(TraceIdArg),
      min_response_time_ms: Type.Optional(Type.Number({ minimum: 0, maximum: 86_400_000 })),
      max_response_time_ms: Type.Optional(Type.Number({ minimum: 0, maximum: 86_400_000 })),
      limit: Type.Optional(limitArg(20, 100, "requests")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const { project: _project, limit, cursor, min_response_time_ms, max_response_time_ms, ...filters } = args;
    const [page, slugs] = await Promise.all([
      services.data.searchRequests(scope, {
        ...filters,
        min_response_time: min_response_time_ms,
        max_response_time: max_response_time_ms,
        page: pageOf(cursor),
        page_size: limit ?? 20,
      }),
      appSlugsOf(services, scope),
    ]);
    return {
      items: page.items.map((row) => requestRow(row, slugs)),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});

export const getRequest = projectTool({
  target: "project",
  permission: "data:read",
  name: "get_request",
  title: "One request in full",
  description:
    "One request record by id (from search_requests): every field, headers (credentials were " +
    `redacted at ingest) and payloads cut to ${PAYLOAD_BOUND} characters each.`,
  input: Type.Object(
    { project: ProjectArg, id: Type.String({ format: "uuid", description: "The request's id." }) },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const [found, slugs] = await Promise.all([
      services.data.getRequest(scope, args.id),
      appSlugsOf(services, scope),
    ]);
    const { app_id, request_payload, response_payload, ...rest } = found;
    return {
      ...rest,
      app: slugs.get(app_id) ?? null,
      request_size_bytes: found.request_size,
      response_size_bytes: found.response_size,
      request_payload: bounded(request_payload, PAYLOAD_BOUND),
      response_payload: bounded(response_payload, PAYLOAD_BOUND),
    };
  },
});

export const searchLogs = projectTool({
  target: "project",
  permission: "data:read",
  name: "search_logs",
  title: "Search log records",
  description:
    "Log records, newest first, filtered by apps, environment, time, levels, a text search (message, " +
    "logger, attributes), loggers or trace id. Messages are cut to 300 characters. Pages with " +
    "`next_cursor`.",
  input: Type.Object(
    {
      project: ProjectArg,
      app_slugs: Type.Optional(AppSlugsArg),
      environment: Type.Optional(EnvironmentArg),
      ...recordWindowArgs,
      levels: Type.Optional(
        Type.String({
          maxLength: 1024,
          description: "Comma-separated: DEBUG, INFO, WARNING, ERROR, CRITICAL.",
        }),
      ),
      search: Type.Optional(Type.String({ maxLength: 1024, description: "Case-insensitive substring." })),
      loggers: Type.Optional(Type.String({ maxLength: 4096, description: "Comma-separated logger names." })),
      trace_id: Type.Optional(TraceIdArg),
      limit: Type.Optional(limitArg(20, 100, "log records")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const { project: _project, limit, cursor, ...filters } = args;
    const [page, slugs] = await Promise.all([
      services.data.searchLogs(scope, { ...filters, page: pageOf(cursor), page_size: limit ?? 20 }),
      appSlugsOf(services, scope),
    ]);
    return {
      items: page.items.map((row) => logRow(row, slugs)),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});

export const searchTraces = projectTool({
  target: "project",
  permission: "data:read",
  name: "search_traces",
  title: "Search traces",
  description:
    "Traces, newest first, with their root span, duration_ms, span_count and whether any span " +
    "failed; filter by apps, environment, time and a minimum duration. Pages with `next_cursor`.",
  input: Type.Object(
    {
      project: ProjectArg,
      app_slugs: Type.Optional(AppSlugsArg),
      environment: Type.Optional(EnvironmentArg),
      ...recordWindowArgs,
      min_duration_ms: Type.Optional(Type.Number({ minimum: 0, maximum: 86_400_000 })),
      limit: Type.Optional(limitArg(20, 100, "traces")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const page = await services.data.searchTraces(scope, {
      app_slugs: args.app_slugs,
      environment: args.environment,
      since: args.since,
      until: args.until,
      min_duration: args.min_duration_ms,
      page: pageOf(args.cursor),
      page_size: args.limit ?? 20,
    });
    return {
      items: page.items.map((trace) => ({
        trace_id: trace.trace_id,
        started_at: trace.started_at,
        duration_ms: trace.duration_ms,
        span_count: trace.span_count,
        error: trace.error,
        root: `${trace.root.service_name}: ${trace.root.name}`,
      })),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});

/** Most spans, requests and logs one get_trace answer lists. */
const TRACE_ITEMS = 200;

export const getTrace = projectTool({
  target: "project",
  permission: "data:read",
  name: "get_trace",
  title: "One trace",
  description:
    `One trace by id: its spans in tree order (depth, offset_ms, duration_ms; at most ${TRACE_ITEMS}), ` +
    "and the request and log records that carry its id.",
  input: Type.Object({ project: ProjectArg, trace_id: TraceIdArg }, { additionalProperties: false }),
  async run({ scope, args, services }) {
    const [trace, slugs] = await Promise.all([
      services.data.getTrace(scope, args.trace_id),
      appSlugsOf(services, scope),
    ]);
    return {
      trace_id: trace.trace_id,
      started_at: trace.started_at,
      duration_ms: trace.duration_ms,
      span_count: trace.span_count,
      error: trace.error,
      truncated: trace.truncated || trace.spans.length > TRACE_ITEMS,
      spans: trace.spans.slice(0, TRACE_ITEMS).map((span) => ({
        span_id: span.span_id,
        parent_span_id: span.parent_span_id,
        depth: span.depth,
        offset_ms: span.offset_ms,
        duration_ms: span.duration_ms,
        name: span.name,
        kind: span.kind,
        service: span.service_name,
        status: span.status,
        status_code: span.status_code,
      })),
      requests: trace.requests.slice(0, TRACE_ITEMS).map((row) => requestRow(row, slugs)),
      logs: trace.logs.slice(0, TRACE_ITEMS).map((row) => logRow(row, slugs)),
    };
  },
});
