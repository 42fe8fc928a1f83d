// The data pages' server reads as TanStack Query options: analytics figures and data records of
// one project, each taking its route's query type from the contracts, keyed by every parameter,
// previous data kept while new filters load.
import type {
  EndpointConsumer,
  EndpointConsumersQuery,
  EndpointDetail,
  EndpointPayloadsQuery,
  EndpointValidationErrorsQuery,
  EndpointQuery,
  EndpointStatusCodesQuery,
  EndpointTimeseriesQuery,
  Environments,
  EnvironmentsQuery,
  ErrorGroupsPage,
  ErrorIssuesPage,
  ExportFormat,
  LogsPage,
  LatencyHistogram,
  LogsQuery,
  PayloadSample,
  ValidationErrorCount,
  ProjectAnalyticsQuery,
  ProjectConsumersPage,
  ProjectConsumersQuery,
  ProjectEndpointsPage,
  ProjectEndpointsQuery,
  ProjectErrorIssuesQuery,
  ProjectErrorsQuery,
  ProjectTimeseriesQuery,
  RequestDetail,
  RequestsPage,
  RequestsHistogramQuery,
  RequestsQuery,
  StatusCodeCount,
  Summary,
  Timeseries,
} from "@sightline/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, buildUrl } from "./api-client";

type QueryValue = string | number | boolean;
const p = encodeURIComponent;

/** Drops empty values so keys and URLs only carry what is set. */
export function cleanQuery(params: object): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  const entries: [string, unknown][] = Object.entries(params);
  for (const [key, value] of entries) {
    if (
      (typeof value === "string" && value !== "") ||
      typeof value === "number" ||
      typeof value === "boolean"
    ) {
      out[key] = value;
    }
  }
  return out;
}

function projectRead<T>(project: string, path: string, params: object) {
  const query = cleanQuery(params);
  return queryOptions({
    queryKey: ["projects", project, "traffic", path, query] as const,
    queryFn: ({ signal }) => api.get<T>(`/projects/${p(project)}/${path}`, { signal, query }),
    placeholderData: keepPreviousData,
  });
}

function appRead<T>(project: string, app: string, path: string, params: object) {
  const query = cleanQuery({ ...params, project });
  return queryOptions({
    queryKey: ["projects", project, "apps", app, "traffic", path, query] as const,
    queryFn: ({ signal }) => api.get<T>(`/apps/${p(app)}/${path}`, { signal, query }),
    placeholderData: keepPreviousData,
  });
}

/** The records an export route writes, with the search's own filters. */
export type ExportKind = "requests" | "logs";
type ExportQuery<K extends ExportKind> = K extends "requests" ? RequestsQuery : LogsQuery;

export const trafficApi = {
  summary: (project: string, params: ProjectAnalyticsQuery) =>
    projectRead<Summary>(project, "analytics/summary", params),
  timeseries: (project: string, params: ProjectTimeseriesQuery) =>
    projectRead<Timeseries>(project, "analytics/timeseries", params),
  endpoints: (project: string, params: ProjectEndpointsQuery) =>
    projectRead<ProjectEndpointsPage>(project, "analytics/endpoints", params),
  environments: (project: string, params: EnvironmentsQuery) =>
    projectRead<Environments>(project, "analytics/environments", params),
  consumers: (project: string, params: ProjectConsumersQuery) =>
    projectRead<ProjectConsumersPage>(project, "analytics/consumers", params),
  errors: (project: string, params: ProjectErrorsQuery) =>
    projectRead<ErrorGroupsPage>(project, "analytics/errors", params),
  errorIssues: (project: string, params: ProjectErrorIssuesQuery) =>
    projectRead<ErrorIssuesPage>(project, "analytics/error-issues", params),
  requests: (project: string, params: RequestsQuery) =>
    projectRead<RequestsPage>(project, "data/requests", params),
  requestsHistogram: (project: string, params: RequestsHistogramQuery) =>
    projectRead<LatencyHistogram>(project, "data/requests/latency-histogram", params),
  request: (project: string, id: string) =>
    queryOptions({
      queryKey: ["projects", project, "traffic", "request", id] as const,
      queryFn: ({ signal }) =>
        api.get<RequestDetail>(`/projects/${p(project)}/data/requests/${p(id)}`, { signal }),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  logs: (project: string, params: LogsQuery) => projectRead<LogsPage>(project, "data/logs", params),
  /** The export of a search's records: the same filters as the list, without paging. */
  exportUrl: <K extends ExportKind>(project: string, kind: K, params: ExportQuery<K>, format: ExportFormat) =>
    buildUrl(`/projects/${p(project)}/data/${kind}/export`, cleanQuery({ ...params, format })),
  endpointDetail: (project: string, app: string, params: EndpointQuery) =>
    appRead<EndpointDetail>(project, app, "analytics/endpoint-detail", params),
  endpointTimeseries: (project: string, app: string, params: EndpointTimeseriesQuery) =>
    appRead<Timeseries>(project, app, "analytics/endpoint-timeseries", params),
  endpointStatusCodes: (project: string, app: string, params: EndpointStatusCodesQuery) =>
    appRead<StatusCodeCount[]>(project, app, "analytics/endpoint-status-codes", params),
  endpointConsumers: (project: string, app: string, params: EndpointConsumersQuery) =>
    appRead<EndpointConsumer[]>(project, app, "analytics/endpoint-consumers", params),
  endpointPayloads: (project: string, app: string, params: EndpointPayloadsQuery) =>
    appRead<PayloadSample[]>(project, app, "analytics/endpoint-payloads", params),
  endpointValidationErrors: (project: string, app: string, params: EndpointValidationErrorsQuery) =>
    appRead<ValidationErrorCount[]>(project, app, "analytics/endpoint-validation-errors", params),
};
