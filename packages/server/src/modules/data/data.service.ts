// Searching a project's request and log records (spec 4.4.1, 4.4.2) and reading one request in
// full, within an authorized project scope: turns the query string into a filter (one 422
// naming every bad parameter), then runs one events query; or, for an export, streams every
// matching record as NDJSON or CSV (rate-limited per user).
import {
  DATA_PAGING,
  EXPORT_LIMITS,
  type ExportFormat,
  INGEST_LIMITS,
  LogRecordSchema,
  type LogsExportQuery,
  type LogsPage,
  type LogsQuery,
  normaliseLogLevel,
  RequestRecordSchema,
  type RequestDetail,
  type LatencyHistogram,
  type RequestsExportQuery,
  type RequestsHistogramQuery,
  type RequestsPage,
  type RequestsQuery,
  type RawRetention,
  type TraceDetail,
  type TracesPage,
  type TracesQuery,
} from "@sightline/contracts";
import type { Clock } from "../../clock.js";
import { AppError } from "../../errors.js";
import {
  QueryProblems,
  readMethods,
  readStatusClasses,
  readStatusCodes,
  readTimeRange,
  splitList,
} from "../../lib/query-params.js";
import type { EventsExecutor } from "../../stores/events/index.js";
import type { RequestFilter } from "../../stores/events/queries/request-filter.js";
import type { ProjectRow } from "../../stores/metadata/repos/projects.repo.js";
import type { ProjectScope } from "../access/index.js";
import type { AppsService } from "../apps/index.js";
import { normaliseEnvironmentName } from "../environments/index.js";
import type { RateLimiter, RateLimitRule } from "../rate-limits/index.js";
import { type ExportRecord, formatRecords } from "./export-format.js";
import { findLogPage, type LogFilter, streamLogs } from "../../stores/events/queries/data/logs.js";
import {
  findRequest,
  findRequestPage,
  type PageWindow,
  streamRequests,
} from "../../stores/events/queries/data/requests.js";
import { requestLatencyHistogram } from "../../stores/events/queries/data/requests-histogram.js";
import type { RollupCoverage } from "../../stores/events/queries/rollups/coverage.js";
import { figuresFromRecords } from "./trace-records-figures.js";
import { buildTraceTree } from "./trace-tree.js";
import { findTracePage, findTraceRecords } from "../../stores/events/queries/data/traces.js";

export interface DataServiceDeps {
  readonly events: EventsExecutor;
  readonly apps: AppsService;
  readonly clock: Clock;
  /** REQUESTS_RETENTION_DAYS: an id whose time is older than this names nothing stored. */
  readonly requestsRetentionDays: number;
  /** Counts exports per user (EXPORT_LIMITS). */
  readonly rateLimiter: RateLimiter;
  /** Days the project keeps records of this kind (its setting within the server's maximum). */
  readonly keptDays: (project: ProjectRow, kind: "requests" | "logs") => number;
  /** How far the rollups are complete: the latency histogram reads them where they serve the
   *  search (absent: raw rows only). */
  readonly rollups?: RollupCoverage;
}

/** An export ready to be sent: its text is produced as it is read. */
export interface Download {
  readonly filename: string;
  readonly contentType: string;
  readonly body: AsyncIterable<string>;
}

/** The per-user export limit (exported for tests, which start each case with a clean count). */
export const EXPORT_RATE_LIMIT: RateLimitRule = {
  name: "data-export",
  limit: EXPORT_LIMITS.perUserPerMinute,
  windowSeconds: 60,
};

const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: "application/x-ndjson; charset=utf-8",
  csv: "text/csv; charset=utf-8; header=present",
};

/** CSV columns: the record's fields in the contract's order (README, "Exporting records"). */
const REQUEST_COLUMNS = Object.keys(RequestRecordSchema.properties);
const LOG_COLUMNS = Object.keys(LogRecordSchema.properties);

/**
 * `source` with its first item already read: an engine failure then surfaces before anything is
 * sent (a problem+json 503, not a truncated file). Ending the result ends `source`.
 */
async function primed<T>(source: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  return (async function* () {
    try {
      for (let next = first; next.done !== true; next = await iterator.next()) yield next.value;
    } finally {
      await iterator.return?.();
    }
  })();
}

/** What a project-level query may read: one project, and optionally some of its apps. */
export interface RecordScope {
  readonly projectId: string;
  /** Undefined means every app of the project (live or deleted: their records remain). */
  readonly appIds: readonly string[] | undefined;
}

/**
 * The records of an authorized project a query may read: the apps `app_slugs` names in it, or
 * all. Unknown slugs are recorded as problems naming them, never silently dropped: a typo must
 * not widen a query to every app.
 */
export async function recordScopeOf(
  apps: AppsService,
  { project }: ProjectScope,
  appSlugs: string | undefined,
  problems: QueryProblems,
): Promise<RecordScope> {
  const slugs = splitList(appSlugs);
  if (slugs.length === 0) return { projectId: project.id, appIds: undefined };
  const refs = await apps.listLiveRefs(project.id);
  const appIds: string[] = [];
  for (const slug of slugs) {
    const ref = refs.find((candidate) => candidate.slug === slug);
    if (ref === undefined) problems.add("app_slugs", `no app "${slug}" in project "${project.slug}"`);
    else appIds.push(ref.id);
  }
  return { projectId: project.id, appIds };
}

/** An environment filter as ingest stores environments; blank means none. */
export function readEnvironment(text: string | undefined): string | undefined {
  const name = text === undefined ? "" : normaliseEnvironmentName(text);
  return name === "" ? undefined : name;
}

/** A consumer filter: the exact consumer_id as stored (ingest keeps blanks); empty means none. */
export function readConsumer(text: string | undefined): string | undefined {
  return text === undefined || text === "" ? undefined : text;
}

/** A trace id filter, lower-cased as ingest stores it; blank means none, else 32 hex digits. */
function readTraceId(problems: QueryProblems, text: string | undefined): string | undefined {
  const traceId = text?.trim().toLowerCase();
  if (traceId === undefined || traceId === "") return undefined;
  if (!/^[0-9a-f]{32}$/.test(traceId)) problems.add("trace_id", "must be 32 hexadecimal digits");
  return traceId;
}

/** The page asked for, with page_size capped; the envelope echoes what was served. */
export function readPage(
  query: { page?: number | undefined; page_size?: number | undefined },
  paging: { defaultPageSize: number; maxPageSize: number },
): { page: number; pageSize: number; window: PageWindow } {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.page_size ?? paging.defaultPageSize, paging.maxPageSize);
  return { page, pageSize, window: { limit: pageSize, offset: (page - 1) * pageSize } };
}

/** The epoch milliseconds a version-7 UUID carries, or null for any other id. */
function uuidV7Millis(id: string): number | null {
  const lower = id.toLowerCase();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(lower)) return null;
  return Number.parseInt(lower.slice(0, 8) + lower.slice(9, 13), 16);
}

export function createDataService(deps: DataServiceDeps) {
  const { events, apps } = deps;

  /** Whether a record of this time can be stored: ingest takes nothing older than retention or
   *  further ahead than its tolerance, so an id outside that names nothing (and its time, 1970 or
   *  the year 10889, need not be within what the engine can even parse). */
  function retained(atMs: number): boolean {
    const nowMs = deps.clock.now().getTime();
    return (
      atMs >= nowMs - deps.requestsRetentionDays * 86_400_000 &&
      atMs <= nowMs + INGEST_LIMITS.futureToleranceMs
    );
  }

  /**
   * The filter cut to what the project keeps (a shortened retention hides older records at once,
   * before they expire: docs/adr/0023), and what the page says about it: `beyond` when the window
   * asked for starts before the oldest kept record.
   */
  function withinRetention<F extends { readonly since?: number | undefined }>(
    { project }: ProjectScope,
    kind: "requests" | "logs",
    filter: F,
  ): { filter: F; retention: RawRetention } {
    const days = deps.keptDays(project, kind);
    const oldestMs = deps.clock.now().getTime() - days * 86_400_000;
    const beyond = filter.since !== undefined && filter.since < oldestMs;
    return {
      filter: { ...filter, since: Math.max(filter.since ?? oldestMs, oldestMs) },
      retention: { days, beyond },
    };
  }

  /** The request search's filters as a query filter; one 422 naming every bad parameter. */
  async function readRequestFilter(
    project: ProjectScope,
    query: Omit<RequestsQuery, "page" | "page_size">,
  ): Promise<RequestFilter> {
    const problems = new QueryProblems();
    const scope = await recordScopeOf(apps, project, query.app_slugs, problems);
    const range = readTimeRange(problems, query);
    const statusCodes = readStatusCodes(problems, "status_codes", query.status_codes);
    const statusClasses = readStatusClasses(problems, "status_classes", query.status_classes);
    const traceId = readTraceId(problems, query.trace_id);
    const route = query.route?.trim();
    if (
      query.min_response_time !== undefined &&
      query.max_response_time !== undefined &&
      query.min_response_time > query.max_response_time
    ) {
      problems.add("min_response_time", "must not be greater than max_response_time");
    }
    problems.assertNone();
    return {
      ...scope,
      since: range.since,
      until: range.until,
      environment: readEnvironment(query.environment),
      methods: readMethods(query.methods),
      statusCodes,
      statusClasses,
      consumerId: readConsumer(query.consumer),
      routes: route === undefined || route === "" ? undefined : [route],
      traceId,
      minResponseTimeMs: query.min_response_time,
      maxResponseTimeMs: query.max_response_time,
      pathGlob: query.path_filter === undefined || query.path_filter === "" ? undefined : query.path_filter,
    };
  }

  /** The log search's filters as a query filter; one 422 naming every bad parameter. */
  async function readLogFilter(
    project: ProjectScope,
    query: Omit<LogsQuery, "page" | "page_size">,
  ): Promise<LogFilter> {
    const problems = new QueryProblems();
    const scope = await recordScopeOf(apps, project, query.app_slugs, problems);
    const range = readTimeRange(problems, query);
    const levels: string[] = [];
    for (const spelling of splitList(query.levels)) {
      const level = normaliseLogLevel(spelling);
      if (level === null) {
        problems.add(
          "levels",
          `"${spelling}" is not a level (DEBUG, INFO, WARNING, ERROR, CRITICAL, TRACE, WARN, FATAL)`,
        );
      } else if (!levels.includes(level)) {
        levels.push(level);
      }
    }
    const traceId = readTraceId(problems, query.trace_id);
    problems.assertNone();
    const search = query.search?.trim();
    return {
      ...scope,
      since: range.since,
      until: range.until,
      environment: readEnvironment(query.environment),
      levels,
      loggers: splitList(query.loggers),
      traceId,
      search: search === undefined || search === "" ? undefined : search,
    };
  }

  /** Counts the export against the user's limit, then reads its first batch (see primed). */
  async function download(
    { userId, project }: ProjectScope,
    kind: "requests" | "logs",
    format: ExportFormat,
    columns: readonly string[],
    batches: AsyncIterable<readonly ExportRecord[]>,
  ): Promise<Download> {
    await deps.rateLimiter.consume(
      EXPORT_RATE_LIMIT,
      userId,
      `At most ${EXPORT_RATE_LIMIT.limit} exports per minute; try again after the Retry-After delay.`,
    );
    const stamp = deps.clock.now().toISOString().slice(0, 19).replaceAll(":", "");
    return {
      filename: `${project.slug}-${kind}-${stamp}.${format}`,
      contentType: CONTENT_TYPES[format],
      body: formatRecords(await primed(batches), format, columns),
    };
  }

  return {
    async searchRequests(project: ProjectScope, query: RequestsQuery): Promise<RequestsPage> {
      const { filter, retention } = withinRetention(
        project,
        "requests",
        await readRequestFilter(project, query),
      );
      const { page, pageSize, window } = readPage(query, DATA_PAGING);
      const result = await findRequestPage(events, filter, window, {
        by: query.sort_by ?? "timestamp",
        direction: query.sort_dir ?? "desc",
      });
      return { items: result.items, total_count: result.total, page, page_size: pageSize, retention };
    },

    /** How the search's requests spread over latency buckets (the histogram above the list). */
    async requestsHistogram(project: ProjectScope, query: RequestsHistogramQuery): Promise<LatencyHistogram> {
      const { filter } = withinRetention(project, "requests", await readRequestFilter(project, query));
      return requestLatencyHistogram(events, filter, deps.rollups);
    },

    /** Every request the search's filters match, in one file (rate-limited per user). */
    async exportRequests(project: ProjectScope, query: RequestsExportQuery): Promise<Download> {
      const { filter } = withinRetention(project, "requests", await readRequestFilter(project, query));
      return download(
        project,
        "requests",
        query.format ?? "ndjson",
        REQUEST_COLUMNS,
        streamRequests(events, filter),
      );
    },

    async getRequest({ project }: ProjectScope, id: string): Promise<RequestDetail> {
      const at = uuidV7Millis(id);
      const found =
        at === null || !retained(at) ? null : await findRequest(events, project.id, id.toLowerCase(), at);
      if (found === null)
        throw new AppError("not_found", `Request ${id} not found in project "${project.slug}".`);
      return found;
    },

    async searchLogs(project: ProjectScope, query: LogsQuery): Promise<LogsPage> {
      const { filter, retention } = withinRetention(project, "logs", await readLogFilter(project, query));
      const { page, pageSize, window } = readPage(query, DATA_PAGING);
      const result = await findLogPage(events, filter, window);
      return { items: result.items, total_count: result.total, page, page_size: pageSize, retention };
    },

    /** Every log the search's filters match, in one file (rate-limited per user). */
    async exportLogs(project: ProjectScope, query: LogsExportQuery): Promise<Download> {
      const { filter } = withinRetention(project, "logs", await readLogFilter(project, query));
      return download(project, "logs", query.format ?? "ndjson", LOG_COLUMNS, streamLogs(events, filter));
    },

    async searchTraces(project: ProjectScope, query: TracesQuery): Promise<TracesPage> {
      const problems = new QueryProblems();
      const scope = await recordScopeOf(apps, project, query.app_slugs, problems);
      const range = readTimeRange(problems, query);
      problems.assertNone();
      const { page, pageSize, window } = readPage(query, DATA_PAGING);
      const result = await findTracePage(
        events,
        {
          ...scope,
          since: range.since,
          until: range.until,
          environment: readEnvironment(query.environment),
          minDurationMs: query.min_duration,
        },
        window,
      );
      return { items: result.items, total_count: result.total, page, page_size: pageSize };
    },

    async getTrace({ project }: ProjectScope, traceId: string): Promise<TraceDetail> {
      const id = traceId.toLowerCase();
      const found = await findTraceRecords(events, project.id, id);
      if (found.spans.length === 0 && found.requests.length === 0 && found.logs.length === 0) {
        throw new AppError("not_found", `Trace ${id} not found in project "${project.slug}".`);
      }
      const tree = buildTraceTree(found.spans);
      // Over the whole trace, as the list computes them (the tree holds at most
      // TRACE_LIMITS.spans of its spans); without spans, over its requests and logs.
      const figures =
        found.spans.length === 0
          ? figuresFromRecords(found.requests, found.logs)
          : { ...found.figures, startedAtMs: tree.startedAtMs };
      return {
        trace_id: id,
        started_at: figures.startedAtMs === null ? null : new Date(figures.startedAtMs).toISOString(),
        duration_ms: figures.durationMs,
        span_count: found.figures.spanCount,
        error: figures.error,
        truncated: found.figures.spanCount > tree.spans.length,
        spans: tree.spans,
        requests: [...found.requests],
        logs: [...found.logs],
      };
    },
  };
}

export type DataService = ReturnType<typeof createDataService>;
