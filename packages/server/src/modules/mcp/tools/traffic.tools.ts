// Traffic in the API's terms: a window's summary against the window before, the top endpoints by
// volume, errors, latency or change, one endpoint in detail, and the error groups.
import type { EndpointSortKey } from "@sightline/contracts";
import { Type } from "typebox";
import { AppError } from "../../../errors.js";
import { allEndpoints } from "../collect.js";
import { changedItem, diff } from "../diff.js";
import { change, endpointName, endpointRow, traffic } from "../shapes.js";
import { projectTool } from "../tool.js";
import { nextCursor, pageOf, readComparison, readToolWindow } from "../window.js";
import {
  AppSlugsArg,
  baselineArgs,
  ConsumerArg,
  CursorArg,
  EnvironmentArg,
  limitArg,
  ProjectArg,
  windowArgs,
} from "./params.js";

const sliceArgs = {
  project: ProjectArg,
  app_slugs: Type.Optional(AppSlugsArg),
  environment: Type.Optional(EnvironmentArg),
  consumer: Type.Optional(ConsumerArg),
};

export const trafficSummary = projectTool({
  target: "project",
  permission: "data:read",
  name: "traffic_summary",
  title: "Traffic summary with comparison",
  description:
    "Request volume, errors, error rate and latency percentiles of a project (optionally some apps, " +
    "one environment or one consumer) over a window, next to the same figures for the baseline " +
    "window (default: the equally long window right before) and the change between them. " +
    "error_rate_pct is errors (status >= 400) / requests × 100.",
  input: Type.Object({ ...sliceArgs, ...windowArgs, ...baselineArgs }, { additionalProperties: false }),
  async run({ scope, args, services }) {
    const { window, baseline } = readComparison(args, services.clock.now().getTime());
    const slice = { app_slugs: args.app_slugs, environment: args.environment, consumer: args.consumer };
    const [now, then] = await Promise.all([
      services.analytics.projectSummary(scope, { ...slice, ...window }),
      services.analytics.projectSummary(scope, { ...slice, ...baseline }),
    ]);
    const current = traffic(now);
    const previous = traffic(then);
    return {
      window,
      baseline,
      current: { ...current, unique_endpoints: now.unique_endpoints, unique_consumers: now.unique_consumers },
      previous: {
        ...previous,
        unique_endpoints: then.unique_endpoints,
        unique_consumers: then.unique_consumers,
      },
      change: change(current, previous),
    };
  },
});

const SORTS: Record<string, EndpointSortKey> = {
  requests: "total_requests",
  errors: "error_count",
  error_rate: "error_rate",
  latency: "p95_response_time_ms",
};

export const topEndpoints = projectTool({
  target: "project",
  permission: "data:read",
  name: "top_endpoints",
  title: "Top endpoints",
  description:
    "Endpoints (app + `METHOD /route template`) of a window ranked by `by`: requests, errors (count " +
    "of status >= 400), error_rate, latency (p95), or change (largest absolute change of request " +
    "count against the baseline window, new endpoints included). Pages with `next_cursor` except " +
    "for `change`, which ranks the 1000 busiest endpoints of each window.",
  input: Type.Object(
    {
      ...sliceArgs,
      by: Type.Optional(
        Type.Enum(["requests", "errors", "error_rate", "latency", "change"], {
          description: "Ranking; default requests.",
        }),
      ),
      q: Type.Optional(
        Type.String({ maxLength: 256, description: "Substring of the route template or method." }),
      ),
      ...windowArgs,
      ...baselineArgs,
      limit: Type.Optional(limitArg(10, 50, "endpoints")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const limit = args.limit ?? 10;
    const slice = {
      app_slugs: args.app_slugs,
      environment: args.environment,
      consumer: args.consumer,
    };
    const by = args.by ?? "requests";
    if (by === "change") {
      const { window, baseline } = readComparison(args, services.clock.now().getTime());
      const narrowed = { ...slice, q: args.q };
      const [now, then] = await Promise.all([
        allEndpoints(services, scope, { ...narrowed, ...window }),
        allEndpoints(services, scope, { ...narrowed, ...baseline }),
      ]);
      const keyed = (rows: typeof now.rows) =>
        rows.map((row) => ({
          key: `${row.app_id} ${endpointName(row)}`,
          figures: traffic(row),
          label: { app: row.app_slug, endpoint: endpointName(row) },
        }));
      const changes = diff(keyed(now.rows), keyed(then.rows)).all;
      return {
        window,
        baseline,
        by,
        complete: now.complete && then.complete,
        items: changes.slice(0, limit).map(changedItem),
        total_count: changes.length,
      };
    }
    const window = readToolWindow(args, services.clock.now().getTime());
    const page = await services.analytics.projectEndpoints(scope, {
      ...slice,
      ...window,
      q: args.q,
      sort_by: SORTS[by],
      sort_dir: "desc",
      page: pageOf(args.cursor),
      page_size: limit,
    });
    return {
      window,
      by,
      items: page.items.map(endpointRow),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});

/** "GET /users/{id}" as method and route template; anything else is a validation error. */
function splitEndpoint(endpoint: string): { method: string; path: string } {
  const match = /^\s*([A-Za-z]+)\s+(\/\S*)\s*$/.exec(endpoint);
  if (match === null) {
    throw new AppError(
      "validation_error",
      'Invalid arguments: endpoint must be "METHOD /route/{template}".',
      {
        errors: [{ pointer: "/endpoint", message: 'must be "METHOD /route/{template}"' }],
      },
    );
  }
  return { method: (match[1] as string).toUpperCase(), path: match[2] as string };
}

export const endpointDetail = projectTool({
  target: "project",
  permission: "data:read",
  name: "endpoint_detail",
  title: "One endpoint in detail",
  description:
    "One endpoint of an app over a window against its baseline: traffic figures of both and the " +
    "change, its status codes, and its top consumers (by requests, with their error counts).",
  input: Type.Object(
    {
      project: ProjectArg,
      app: Type.String({ minLength: 1, maxLength: 200, description: "The app's slug." }),
      endpoint: Type.String({
        minLength: 3,
        maxLength: 2100,
        description: 'The endpoint as the endpoint tools write it: "METHOD /route/{template}".',
      }),
      environment: Type.Optional(EnvironmentArg),
      ...windowArgs,
      ...baselineArgs,
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const target = await services.access.resolveApp(
      { userId: scope.userId, grant: scope.grant },
      args.app,
      scope.project.slug,
      "data:read",
    );
    const { window, baseline } = readComparison(args, services.clock.now().getTime());
    const endpoint = { ...splitEndpoint(args.endpoint), environment: args.environment };
    const [now, then, codes, consumers] = await Promise.all([
      services.analytics.endpointDetail(target, { ...endpoint, ...window }),
      services.analytics.endpointDetail(target, { ...endpoint, ...baseline }),
      services.analytics.endpointStatusCodes(target, { ...endpoint, ...window, limit: 20 }),
      services.analytics.endpointConsumers(target, { ...endpoint, ...window, limit: 5 }),
    ]);
    const current = traffic(now);
    const previous = traffic(then);
    return {
      window,
      baseline,
      app: args.app,
      endpoint: endpointName(now),
      current: { ...current, last_seen_at: now.last_seen_at },
      previous,
      change: change(current, previous),
      status_codes: codes.map((code) => ({ status_code: code.status_code, requests: code.total_requests })),
      top_consumers: consumers.map((consumer) => ({
        consumer_id: consumer.consumer_id,
        consumer: consumer.consumer,
        total_requests: consumer.total_requests,
        error_count: consumer.error_count,
        server_errors_5xx: consumer.server_errors,
        error_rate_pct: consumer.error_rate,
      })),
    };
  },
});

export const errorGroups = projectTool({
  target: "project",
  permission: "data:read",
  name: "list_error_groups",
  title: "Error groups",
  description:
    "Failed requests of a window grouped by endpoint and status code (4xx and 5xx unless narrowed), " +
    "with counts, affected consumers, first and last occurrence, and whether the group is new in " +
    "the window (first seen inside it). Sorted by count; pages with `next_cursor`.",
  input: Type.Object(
    {
      ...sliceArgs,
      status_classes: Type.Optional(
        Type.String({ maxLength: 16, description: "Comma-separated among 4xx and 5xx; default both." }),
      ),
      status_codes: Type.Optional(
        Type.String({ maxLength: 1024, description: "Comma-separated status codes 400–599." }),
      ),
      q: Type.Optional(
        Type.String({ maxLength: 256, description: "Substring of the route template or method." }),
      ),
      sort_by: Type.Optional(
        Type.Enum(["count", "affected_consumers", "first_seen_at", "last_seen_at"], {
          description: "Default count (descending).",
        }),
      ),
      ...windowArgs,
      limit: Type.Optional(limitArg(10, 50, "groups")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const window = readToolWindow(args, services.clock.now().getTime());
    const page = await services.analytics.projectErrors(scope, {
      app_slugs: args.app_slugs,
      environment: args.environment,
      consumer: args.consumer,
      status_classes: args.status_classes,
      status_codes: args.status_codes,
      q: args.q,
      sort_by: args.sort_by,
      ...window,
      page: pageOf(args.cursor),
      page_size: args.limit ?? 10,
    });
    return {
      window,
      items: page.items.map((group) => ({
        app: group.app_slug,
        endpoint: endpointName(group),
        status_code: group.status_code,
        count: group.count,
        affected_consumers: group.affected_consumers,
        first_seen_at: group.first_seen_at,
        last_seen_at: group.last_seen_at,
        is_new: group.is_new,
      })),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});
