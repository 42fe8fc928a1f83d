// Analytics over request records: the project overview and the app routes of spec 4.5. Each
// call works within an authorized project or app scope, reads its parameters into a filter (one
// 422 naming every bad parameter), and asks one figure for its numbers.
import {
  ANALYTICS_LIMITS,
  type AppConsumersQuery,
  type AppTimeseriesQuery,
  type AppWindowQuery,
  type ConsumerSortKey,
  type ConsumerStats,
  type EndpointConsumer,
  type EndpointConsumersQuery,
  type EndpointDetail,
  type EndpointOption,
  type EndpointOptionsQuery,
  type EndpointPayloadsQuery,
  type EndpointQuery,
  type EndpointSortKey,
  type EndpointStatsPage,
  type EndpointStatsQuery,
  type EndpointStatusCodesQuery,
  type EndpointTimeseriesQuery,
  type Environments,
  type ErrorGroupsPage,
  type ErrorIssuesPage,
  type ErrorSortKey,
  type EnvironmentsQuery,
  type PayloadSample,
  type ProjectAnalyticsQuery,
  type ProjectConsumersPage,
  type ProjectConsumersQuery,
  type ProjectEndpointsPage,
  type ProjectEndpointsQuery,
  type ProjectErrorIssuesQuery,
  type ProjectErrorsQuery,
  type ProjectTimeseriesQuery,
  type RelatedApi,
  type RelatedApisQuery,
  type StatusCodeCount,
  type Summary,
  type Timeseries,
  type TimeseriesInterval,
  type EndpointValidationErrorsQuery,
  type ValidationErrorCount,
} from "@sightline/contracts";
import type { Clock } from "../../clock.js";
import {
  QueryProblems,
  readMethods,
  readStatusClasses,
  readStatusCodes,
  splitList,
} from "../../lib/query-params.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import type { EndpointKey, RequestFilter } from "../../stores/events/queries/request-filter.js";
import type { RollupCoverage } from "../../stores/events/queries/rollups/coverage.js";
import type { ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { AppScope, ProjectScope } from "../access/index.js";
import type { AppsService } from "../apps/index.js";
import { readConsumer, readEnvironment, readPage, recordScopeOf } from "../data/index.js";
import type { UsersService } from "../users/index.js";
import { consumerStats, consumerStatsPage } from "../../stores/events/queries/analytics/consumers.js";
import {
  endpointDetail,
  endpointOptions,
  endpointStatsPage,
  payloadSamples,
  relatedApis,
  statusCodeCounts,
  validationErrorCounts,
  type EndpointSort,
} from "../../stores/events/queries/analytics/endpoints.js";
import { environmentsWithData } from "../../stores/events/queries/analytics/environments.js";
import { errorIssuesPage } from "../../stores/events/queries/analytics/error-issues.js";
import { errorCodeCounts, errorGroupsPage } from "../../stores/events/queries/analytics/errors.js";
import { summary, timeseries } from "../../stores/events/queries/analytics/traffic.js";
import { type AnalyticsWindow, type Bucketing, readBucketing, readWindow } from "./window.js";

export interface AnalyticsServiceDeps {
  readonly events: EventsExecutor;
  readonly apps: AppsService;
  /** The caller's profile zone is the default timeseries zone. */
  readonly users: UsersService;
  readonly clock: Clock;
  /** Request retention in days: errors are first seen within it. Undefined: whatever is stored. */
  readonly requestsRetentionDays?: number | undefined;
  /** How far the rollups are complete; undefined reads raw rows only. */
  readonly rollups?: RollupCoverage | undefined;
  /** Log retention in days: error issues are first seen within it. Undefined: whatever is stored. */
  readonly logsRetentionDays?: number | undefined;
  /** Days the project's analytics reach back: its rollup retention, so a shortened one shows
   *  at once (docs/adr/0023). Undefined: whatever is stored. */
  readonly analyticsDays?: ((project: ProjectRow) => number) | undefined;
}

type WindowedFilter = RequestFilter & AnalyticsWindow;

/** A second window of a comparison, read as every window is (ISO instants, both optional). */
type WindowQuery = { readonly since?: string | undefined; readonly until?: string | undefined };

/** Reads the parameters beyond the window, recording problems; runs before the one 422. */
type ReadMore<T> = (problems: QueryProblems, window: AnalyticsWindow) => T;
const nothingMore: ReadMore<undefined> = () => undefined;

/** A limit as served: the default when absent, the cap when above it. */
function capped(value: number | undefined, limits: { defaultLimit: number; maxLimit: number }): number {
  return Math.min(value ?? limits.defaultLimit, limits.maxLimit);
}

function readSort(query: {
  sort_by?: EndpointSortKey | undefined;
  sort_dir?: "asc" | "desc" | undefined;
}): EndpointSort {
  const by = query.sort_by ?? "total_requests";
  return { by, direction: query.sort_dir ?? (by === "endpoint" ? "asc" : "desc") };
}

/** A sort of the consumers or errors list: `desc` unless asked, `asc` for the consumer label. */
function readSortOf<K extends string>(
  query: { sort_by?: K | undefined; sort_dir?: "asc" | "desc" | undefined },
  fallback: K,
  ascending: K | null,
): { by: K; direction: "asc" | "desc" } {
  const by = query.sort_by ?? fallback;
  return { by, direction: query.sort_dir ?? (by === ascending ? "asc" : "desc") };
}

/** The statuses of the errors breakdown: classes 4xx/5xx and codes 400–599; both classes if neither. */
function readErrorStatuses(
  problems: QueryProblems,
  query: { status_classes?: string | undefined; status_codes?: string | undefined },
): Pick<RequestFilter, "statusClasses" | "statusCodes"> {
  const classes = readStatusClasses(problems, "status_classes", query.status_classes).filter((value) => {
    if (value >= 4) return true;
    problems.add("status_classes", `${value}xx is not an error class (4xx or 5xx)`);
    return false;
  });
  const codes = readStatusCodes(problems, "status_codes", query.status_codes).filter((code) => {
    if (code >= 400) return true;
    problems.add("status_codes", `${code} is not an error status (400–599)`);
    return false;
  });
  return { statusClasses: classes.length === 0 && codes.length === 0 ? [4, 5] : classes, statusCodes: codes };
}

/** `GET /users/{id}` -> {method: "GET", route: "/users/{id}"}; anything else is a problem. */
function readEndpoints(problems: QueryProblems, values: readonly string[] | undefined): EndpointKey[] {
  const endpoints: EndpointKey[] = [];
  for (const value of values ?? []) {
    const match = /^\s*(\S+)\s+(\/.*?)\s*$/.exec(value);
    if (match === null) problems.add("endpoint", `"${value}" is not "<METHOD> <route template>"`);
    else endpoints.push({ method: (match[1] as string).toUpperCase(), route: match[2] as string });
  }
  return endpoints;
}

/** The narrowing filters of endpoint-stats and endpoint-options. */
function readEndpointFilters(
  problems: QueryProblems,
  query: EndpointOptionsQuery & { paths?: string | undefined; endpoint?: string[] | undefined },
): Partial<RequestFilter> {
  const classes = [
    ...readStatusClasses(problems, "status_classes", query.status_classes),
    ...readStatusClasses(problems, "status_class", query.status_class),
  ];
  const codes = readStatusCodes(problems, "status_codes", query.status_codes);
  if (query.status_code !== undefined) codes.push(query.status_code);
  const search = query.q?.trim();
  return {
    statusClasses: classes,
    statusCodes: codes,
    methods: readMethods(query.methods),
    routes: splitList(query.paths),
    endpoints: readEndpoints(problems, query.endpoint),
    endpointSearch: search === undefined || search === "" ? undefined : search,
  };
}

const DAY_MS = 86_400_000;

export function createAnalyticsService(deps: AnalyticsServiceDeps) {
  const { events, clock, rollups } = deps;

  /** The oldest instant the project's analytics read, if they are cut. */
  function keptSince(project: ProjectRow, nowMs: number): number | undefined {
    const days = deps.analyticsDays?.(project);
    return days === undefined ? undefined : nowMs - days * DAY_MS;
  }

  /**
   * The project's filter (scope, window, environment) and what `more` reads from the rest of the
   * parameters; one 422 names every bad parameter of both.
   */
  async function projectFilter<T>(
    project: ProjectScope,
    query: ProjectAnalyticsQuery,
    more: ReadMore<T>,
  ): Promise<[WindowedFilter, T]> {
    const problems = new QueryProblems();
    const scope = await recordScopeOf(deps.apps, project, query.app_slugs, problems);
    const nowMs = clock.now().getTime();
    const window = readWindow(problems, query, nowMs);
    const extra = more(problems, window);
    problems.assertNone();
    return [
      {
        ...scope,
        ...window,
        keptSince: keptSince(project.project, nowMs),
        environment: readEnvironment(query.environment),
        consumerId: readConsumer(query.consumer),
      },
      extra,
    ];
  }

  /** The app's filter (its project and itself), window and environment, as projectFilter. */
  async function appFilter<T>(
    { app, project }: AppScope,
    query: AppWindowQuery,
    more: ReadMore<T>,
  ): Promise<[WindowedFilter, T]> {
    const problems = new QueryProblems();
    const nowMs = clock.now().getTime();
    const window = readWindow(problems, query, nowMs);
    const extra = more(problems, window);
    problems.assertNone();
    return [
      {
        projectId: project.id,
        appIds: [app.id],
        ...window,
        keptSince: keptSince(project, nowMs),
        environment: readEnvironment(query.environment),
      },
      extra,
    ];
  }

  /** An app filter narrowed to the endpoint of the required `method` and `path` parameters. */
  async function endpointFilter<T>(
    target: AppScope,
    query: EndpointQuery,
    more: ReadMore<T>,
  ): Promise<[WindowedFilter, T, EndpointKey]> {
    const endpoint = { method: query.method.trim().toUpperCase(), route: query.path };
    const [filter, extra] = await appFilter(target, query, more);
    return [{ ...filter, endpoints: [endpoint] }, extra, endpoint];
  }

  async function series(
    userId: string,
    query: { interval?: TimeseriesInterval | undefined; timezone?: string | undefined },
    filterOf: (more: ReadMore<Bucketing>) => Promise<[WindowedFilter, Bucketing]>,
  ): Promise<Timeseries> {
    // The profile is read only when the zone is not given.
    const profileZone =
      query.timezone === undefined || query.timezone.trim() === ""
        ? (await deps.users.getProfile(userId)).timezone
        : "UTC";
    const zones = await deps.users.timeZones();
    const [filter, bucketing] = await filterOf((problems, window) =>
      readBucketing(problems, query, window, profileZone, zones),
    );
    return {
      interval: bucketing.interval,
      timezone: bucketing.timezone,
      since: new Date(filter.since).toISOString(),
      until: new Date(filter.until).toISOString(),
      points: await timeseries(events, filter, bucketing, rollups),
    };
  }

  function withoutApp({ app_id: _app, ...stats }: EndpointStatsPage["items"][number] & { app_id: string }) {
    return stats;
  }

  /** Adds each row's app slug (null for apps deleted since), from the cached live apps. */
  async function withAppSlugs<T extends { app_id: string }>(
    projectId: string,
    rows: readonly T[],
  ): Promise<Array<T & { app_slug: string | null }>> {
    if (rows.length === 0) return [];
    const slugs = new Map((await deps.apps.listLiveRefs(projectId)).map((ref) => [ref.id, ref.slug]));
    return rows.map((row) => ({ ...row, app_slug: slugs.get(row.app_id) ?? null }));
  }

  return {
    // ---- /projects/{project_slug}/analytics/... ----

    async environments(project: ProjectScope, query: EnvironmentsQuery): Promise<Environments> {
      const problems = new QueryProblems();
      const scope = await recordScopeOf(deps.apps, project, query.app_slugs, problems);
      problems.assertNone();
      return { environments: await environmentsWithData(events, scope.projectId, scope.appIds) };
    },

    async projectSummary(project: ProjectScope, query: ProjectAnalyticsQuery): Promise<Summary> {
      const [filter] = await projectFilter(project, query, nothingMore);
      return summary(events, filter, rollups);
    },

    /**
     * Failed requests per error status code (4xx and 5xx) in the query's window and in
     * `baseline`, the whole slice counted (not a page of groups), read together.
     */
    async projectErrorCodeComparison(
      project: ProjectScope,
      query: ProjectAnalyticsQuery,
      baseline: WindowQuery,
    ): Promise<Array<{ status_code: number; count: number; baseline_count: number }>> {
      const [filter, then] = await projectFilter(project, query, (problems) =>
        readWindow(problems, baseline, clock.now().getTime()),
      );
      const errorsOnly = { ...filter, statusClasses: [4, 5] };
      const [now, before] = await errorCodeCounts(events, [errorsOnly, { ...errorsOnly, ...then }], rollups);
      const codes = [...new Set([...(now?.keys() ?? []), ...(before?.keys() ?? [])])].sort((a, b) => a - b);
      return codes.map((code) => ({
        status_code: code,
        count: now?.get(code) ?? 0,
        baseline_count: before?.get(code) ?? 0,
      }));
    },

    async projectTimeseries(project: ProjectScope, query: ProjectTimeseriesQuery): Promise<Timeseries> {
      return series(project.userId, query, (more) => projectFilter(project, query, more));
    },

    async projectEndpoints(
      project: ProjectScope,
      query: ProjectEndpointsQuery,
    ): Promise<ProjectEndpointsPage> {
      const [filter, narrowing] = await projectFilter(project, query, (problems) =>
        readEndpointFilters(problems, query),
      );
      const { page, pageSize, window } = readPage(query, ANALYTICS_LIMITS.projectEndpoints);
      const result = await endpointStatsPage(
        events,
        { ...filter, ...narrowing },
        readSort(query),
        window,
        true,
        rollups,
      );
      return {
        items: (await withAppSlugs(filter.projectId, result.items)).map(({ app_id, app_slug, ...stats }) => ({
          app_id,
          app_slug,
          ...stats,
        })),
        total_count: result.total,
        page,
        page_size: pageSize,
      };
    },

    async projectConsumers(
      project: ProjectScope,
      query: ProjectConsumersQuery,
    ): Promise<ProjectConsumersPage> {
      const [filter] = await projectFilter(project, query, nothingMore);
      const { page, pageSize, window } = readPage(query, ANALYTICS_LIMITS.projectConsumers);
      const search = query.q?.trim();
      const result = await consumerStatsPage(
        events,
        filter,
        search === undefined || search === "" ? undefined : search,
        readSortOf<ConsumerSortKey>(query, "total_requests", "consumer"),
        window,
        rollups,
      );
      return { items: result.items, total_count: result.total, page, page_size: pageSize };
    },

    async projectErrors(project: ProjectScope, query: ProjectErrorsQuery): Promise<ErrorGroupsPage> {
      const [filter, statuses] = await projectFilter(project, query, (problems) =>
        readErrorStatuses(problems, query),
      );
      const search = query.q?.trim();
      const { page, pageSize, window } = readPage(query, ANALYTICS_LIMITS.projectErrors);
      const result = await errorGroupsPage(
        events,
        {
          ...filter,
          ...statuses,
          methods: readMethods(query.methods),
          endpointSearch: search === undefined || search === "" ? undefined : search,
        },
        readSortOf<ErrorSortKey>(query, "count", null),
        window,
        deps.requestsRetentionDays === undefined
          ? undefined
          : clock.now().getTime() - deps.requestsRetentionDays * 86_400_000,
        rollups,
      );
      return {
        items: (await withAppSlugs(filter.projectId, result.items)).map(({ app_id, app_slug, ...group }) => ({
          app_id,
          app_slug,
          ...group,
        })),
        total_count: result.total,
        page,
        page_size: pageSize,
      };
    },

    async projectErrorIssues(
      project: ProjectScope,
      query: ProjectErrorIssuesQuery,
    ): Promise<ErrorIssuesPage> {
      const [filter] = await projectFilter(project, query, nothingMore);
      const { page, pageSize, window } = readPage(query, ANALYTICS_LIMITS.projectErrorIssues);
      const result = await errorIssuesPage(
        events,
        filter,
        readSortOf<ErrorSortKey>(query, "count", null),
        window,
        deps.logsRetentionDays === undefined
          ? undefined
          : clock.now().getTime() - deps.logsRetentionDays * 86_400_000,
      );
      return {
        items: (await withAppSlugs(filter.projectId, result.items)).map(({ app_id, app_slug, ...issue }) => ({
          app_id,
          app_slug,
          ...issue,
        })),
        total_count: result.total,
        page,
        page_size: pageSize,
      };
    },

    // ---- /apps/{app_slug}/... ----

    async endpointStats(target: AppScope, query: EndpointStatsQuery): Promise<EndpointStatsPage> {
      const [filter, narrowing] = await appFilter(target, query, (problems) =>
        readEndpointFilters(problems, query),
      );
      const { page, pageSize, window } = readPage(query, ANALYTICS_LIMITS.endpointStats);
      const result = await endpointStatsPage(
        events,
        { ...filter, ...narrowing },
        readSort(query),
        window,
        false,
        rollups,
      );
      return { items: result.items.map(withoutApp), total_count: result.total, page, page_size: pageSize };
    },

    async endpointOptions(target: AppScope, query: EndpointOptionsQuery): Promise<EndpointOption[]> {
      const [filter, narrowing] = await appFilter(target, query, (problems) =>
        readEndpointFilters(problems, query),
      );
      return endpointOptions(
        events,
        { ...filter, ...narrowing },
        capped(query.limit, ANALYTICS_LIMITS.endpointOptions),
      );
    },

    async appConsumers(target: AppScope, query: AppConsumersQuery): Promise<ConsumerStats[]> {
      const [filter] = await appFilter(target, query, nothingMore);
      return consumerStats(events, filter, capped(query.limit, ANALYTICS_LIMITS.consumers));
    },

    async appSummary(target: AppScope, query: AppWindowQuery): Promise<Summary> {
      const [filter] = await appFilter(target, query, nothingMore);
      return summary(events, filter, rollups);
    },

    async appTimeseries(target: AppScope, query: AppTimeseriesQuery): Promise<Timeseries> {
      return series(target.userId, query, (more) => appFilter(target, query, more));
    },

    async relatedApis(target: AppScope, query: RelatedApisQuery): Promise<RelatedApi[]> {
      const [filter] = await appFilter(target, query, nothingMore);
      return relatedApis(events, filter, capped(query.limit, ANALYTICS_LIMITS.relatedApis));
    },

    async endpointDetail(target: AppScope, query: EndpointQuery): Promise<EndpointDetail> {
      const [filter, , endpoint] = await endpointFilter(target, query, nothingMore);
      return endpointDetail(events, filter, endpoint, rollups);
    },

    async endpointTimeseries(target: AppScope, query: EndpointTimeseriesQuery): Promise<Timeseries> {
      return series(target.userId, query, async (more) => {
        const [filter, bucketing] = await endpointFilter(target, query, more);
        return [filter, bucketing];
      });
    },

    async endpointConsumers(target: AppScope, query: EndpointConsumersQuery): Promise<EndpointConsumer[]> {
      const [filter] = await endpointFilter(target, query, nothingMore);
      const rows = await consumerStats(
        events,
        filter,
        capped(query.limit, ANALYTICS_LIMITS.endpointConsumers),
      );
      return rows.map(({ last_seen_at: _seen, ...consumer }) => consumer);
    },

    async endpointStatusCodes(target: AppScope, query: EndpointStatusCodesQuery): Promise<StatusCodeCount[]> {
      const [filter] = await endpointFilter(target, query, nothingMore);
      return statusCodeCounts(
        events,
        filter,
        capped(query.limit, ANALYTICS_LIMITS.endpointStatusCodes),
        rollups,
      );
    },

    async endpointPayloads(target: AppScope, query: EndpointPayloadsQuery): Promise<PayloadSample[]> {
      const [filter] = await endpointFilter(target, query, nothingMore);
      return payloadSamples(events, filter, capped(query.limit, ANALYTICS_LIMITS.endpointPayloads));
    },

    async endpointValidationErrors(
      target: AppScope,
      query: EndpointValidationErrorsQuery,
    ): Promise<ValidationErrorCount[]> {
      const [filter] = await endpointFilter(target, query, nothingMore);
      return validationErrorCounts(
        events,
        filter,
        capped(query.limit, ANALYTICS_LIMITS.endpointValidationErrors),
      );
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
