// The one mapping from a page's URL state (`filters.ts`, validated by the router) to the API's
// query parameters, typed by the contracts: a renamed or retyped API parameter fails the build
// here, not on a page. Sort keys are checked against the contracts' own word lists.
import type {
  EndpointQuery,
  LogsQuery,
  RequestsHistogramQuery,
  ProjectAnalyticsQuery,
  ProjectConsumersQuery,
  ProjectEndpointsQuery,
  ProjectErrorsQuery,
  RequestsQuery,
  Timeseries,
  TracesQuery,
} from "@sightline/contracts";
import {
  CONSUMER_SORT_KEYS,
  ENDPOINT_SORT_KEYS,
  ERROR_SORT_KEYS,
  REQUEST_SORT_KEYS,
} from "@sightline/contracts/vocabulary";
import { oneOf, previousWindow, type TimeWindow, type TrafficSearch } from "./filters";

type Window = Pick<TimeWindow, "since" | "until">;

/** A sorted, paged table's order: the URL's if the API knows the key, else the page's default. */
export interface TableOrder<K extends string> {
  readonly sort: K;
  readonly dir: "asc" | "desc";
  readonly page: number;
}

/**
 * The order of a table sorted on the server: `fallback` descending unless the URL says otherwise,
 * except the text column `ascendingKey`, which reads best A to Z.
 */
export function tableOrder<K extends string>(
  search: TrafficSearch,
  keys: readonly K[],
  fallback: K,
  ascendingKey?: K,
): TableOrder<K> {
  const sort = oneOf(keys, search.sort) ?? fallback;
  const dir = search.dir ?? (sort === ascendingKey ? "asc" : "desc");
  return { sort, dir, page: search.page ?? 1 };
}

/** The page of an ordered table that its read asks for. */
export function pageOf(order: TableOrder<string>, pageSize: number): { page: number; page_size: number } {
  return { page: order.page, page_size: pageSize };
}

/** The filters every analytics read of a page takes (a consumer's page adds its id). */
export function windowQuery(search: TrafficSearch, window: Window): ProjectAnalyticsQuery {
  return { since: window.since, until: window.until, app_slugs: search.app, environment: search.env };
}

/** The window of a record search: live (mode or tail) leaves it open at the end so new records arrive. */
function recordsWindow(search: TrafficSearch, window: Window, live: boolean) {
  return { ...windowQuery(search, window), until: live ? undefined : window.until };
}

/** The request search (the list, its export, and the short lists of other pages). */
export function requestsQuery(search: TrafficSearch, window: Window, live = false): RequestsQuery {
  return {
    ...recordsWindow(search, window, live),
    methods: search.method,
    status_classes: search.status,
    status_codes: search.codes,
    route: search.route,
    path_filter: search.path,
    consumer: search.consumer,
    trace_id: search.trace,
    min_response_time: search.min_ms,
    max_response_time: search.max_ms,
  };
}

/** The request list's order: newest first unless the URL sorts by time taken or size. */
export const requestsOrder = (search: TrafficSearch) => tableOrder(search, REQUEST_SORT_KEYS, "timestamp");

/** The latency histogram above the request list: the list's filters but its own duration bounds
 *  (the brush shows the selection over the whole distribution, not only inside it). */
export function requestsHistogramQuery(
  search: TrafficSearch,
  window: Window,
  live = false,
): RequestsHistogramQuery {
  const {
    min_response_time: _min,
    max_response_time: _max,
    ...filters
  } = requestsQuery(search, window, live);
  return filters;
}

/** The log search (the list and its export). */
export function logsQuery(search: TrafficSearch, window: Window, live = false): LogsQuery {
  return {
    ...recordsWindow(search, window, live),
    levels: search.levels,
    search: search.q,
    loggers: search.logger,
    trace_id: search.trace,
  };
}

export function tracesQuery(search: TrafficSearch, window: Window): TracesQuery {
  return {
    ...windowQuery(search, window),
    min_duration: search.min_ms,
  };
}

export const consumersOrder = (search: TrafficSearch) =>
  tableOrder(search, CONSUMER_SORT_KEYS, "total_requests", "consumer");

export function consumersQuery(search: TrafficSearch, window: Window): ProjectConsumersQuery {
  const { sort, dir } = consumersOrder(search);
  return { ...windowQuery(search, window), q: search.q, sort_by: sort, sort_dir: dir };
}

export const endpointsOrder = (search: TrafficSearch) =>
  tableOrder(search, ENDPOINT_SORT_KEYS, "total_requests", "endpoint");

export function endpointsQuery(search: TrafficSearch, window: Window): ProjectEndpointsQuery {
  const { sort, dir } = endpointsOrder(search);
  return { ...windowQuery(search, window), q: search.q, sort_by: sort, sort_dir: dir };
}

export const errorsOrder = (search: TrafficSearch) => tableOrder(search, ERROR_SORT_KEYS, "count");

/** The errors breakdown: the URL's class when it is one the breakdown takes (4xx or 5xx). */
export function errorsQuery(search: TrafficSearch, window: Window): ProjectErrorsQuery {
  const { sort, dir } = errorsOrder(search);
  return {
    ...windowQuery(search, window),
    status_classes: errorClass(search),
    sort_by: sort,
    sort_dir: dir,
  };
}

export function errorClass(search: TrafficSearch): "4xx" | "5xx" | undefined {
  return search.status === "4xx" || search.status === "5xx" ? search.status : undefined;
}

/** An endpoint's reads (`method` and `path`, its route template, in the URL), or none. */
export function endpointQuery(search: TrafficSearch, window: Window): EndpointQuery | undefined {
  if (search.app === undefined || search.method === undefined || search.path === undefined) return undefined;
  return {
    method: search.method,
    path: search.path,
    since: window.since,
    until: window.until,
    environment: search.env,
  };
}

/**
 * The previous period of a chart's read: the same parameters over the window of the same length
 * just before, bucketed like the current answer so the two lay over each other bucket by bucket.
 */
export function previousPeriodQuery<Q extends object>(
  params: Q,
  window: TimeWindow,
  current: Pick<Timeseries, "interval"> | undefined,
): Q & Window & { interval?: Timeseries["interval"] } {
  return {
    ...params,
    ...previousWindow(window),
    ...(current === undefined ? {} : { interval: current.interval }),
  };
}
