// Consumers (the API's callers, by consumer_id): search and rank them, and read one consumer's
// usage — its traffic against the baseline, its endpoints and its errors.
import type { ConsumerSortKey } from "@sightline/contracts";
import { Type } from "typebox";
import { change, consumerRow, endpointRow, traffic } from "../shapes.js";
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

const SORTS: Record<string, ConsumerSortKey> = {
  requests: "total_requests",
  errors: "error_count",
  error_rate: "error_rate",
  latency: "p95_response_time_ms",
  last_seen: "last_seen_at",
};

export const listConsumers = projectTool({
  target: "project",
  permission: "data:read",
  name: "list_consumers",
  title: "Search and rank consumers",
  description:
    "Consumers (callers identified by consumer_id; `unknown` gathers requests without one) of a " +
    "window, optionally searched by id, name or group, ranked by requests, errors, error_rate, " +
    "latency (p95) or last_seen. Pages with `next_cursor`.",
  input: Type.Object(
    {
      project: ProjectArg,
      app_slugs: Type.Optional(AppSlugsArg),
      environment: Type.Optional(EnvironmentArg),
      q: Type.Optional(
        Type.String({ maxLength: 256, description: "Case-insensitive substring of id, name or group." }),
      ),
      by: Type.Optional(
        Type.Enum(["requests", "errors", "error_rate", "latency", "last_seen"], {
          description: "Ranking, descending; default requests.",
        }),
      ),
      ...windowArgs,
      limit: Type.Optional(limitArg(10, 50, "consumers")),
      cursor: Type.Optional(CursorArg),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const window = readToolWindow(args, services.clock.now().getTime());
    const page = await services.analytics.projectConsumers(scope, {
      app_slugs: args.app_slugs,
      environment: args.environment,
      q: args.q,
      sort_by: SORTS[args.by ?? "requests"],
      sort_dir: "desc",
      ...window,
      page: pageOf(args.cursor),
      page_size: args.limit ?? 10,
    });
    return {
      window,
      items: page.items.map(consumerRow),
      total_count: page.total_count,
      next_cursor: nextCursor(page),
    };
  },
});

export const consumerUsage = projectTool({
  target: "project",
  permission: "data:read",
  name: "consumer_usage",
  title: "One consumer's usage",
  description:
    "One consumer's traffic over a window against the baseline window (default: the equally long " +
    "one before), the endpoints it called most (with their errors and latency), and its error " +
    "groups (endpoint + status code, with first occurrence).",
  input: Type.Object(
    {
      project: ProjectArg,
      consumer: ConsumerArg,
      app_slugs: Type.Optional(AppSlugsArg),
      environment: Type.Optional(EnvironmentArg),
      ...windowArgs,
      ...baselineArgs,
      limit: Type.Optional(limitArg(10, 50, "endpoints and error groups")),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const { window, baseline } = readComparison(args, services.clock.now().getTime());
    const slice = { app_slugs: args.app_slugs, environment: args.environment, consumer: args.consumer };
    const limit = args.limit ?? 10;
    const [now, then, endpoints, errors] = await Promise.all([
      services.analytics.projectSummary(scope, { ...slice, ...window }),
      services.analytics.projectSummary(scope, { ...slice, ...baseline }),
      services.analytics.projectEndpoints(scope, {
        ...slice,
        ...window,
        sort_by: "total_requests",
        page_size: limit,
      }),
      services.analytics.projectErrors(scope, { ...slice, ...window, page_size: limit }),
    ]);
    const current = traffic(now);
    const previous = traffic(then);
    return {
      window,
      baseline,
      consumer_id: args.consumer,
      current: { ...current, unique_endpoints: now.unique_endpoints },
      previous: { ...previous, unique_endpoints: then.unique_endpoints },
      change: change(current, previous),
      endpoints: endpoints.items.map(endpointRow),
      endpoints_total: endpoints.total_count,
      error_groups: errors.items.map((group) => ({
        app: group.app_slug,
        endpoint: `${group.method} ${group.path}`,
        status_code: group.status_code,
        count: group.count,
        first_seen_at: group.first_seen_at,
        last_seen_at: group.last_seen_at,
      })),
      error_groups_total: errors.total_count,
    };
  },
});
