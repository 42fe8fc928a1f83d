// The traffic pages' server reads as TanStack Query options: analytics figures and data records
// of one project, keyed by every parameter, previous data kept while new filters load.
import type {
  ExportFormat,
  EndpointDetail,
  Environments,
  ErrorGroupsPage,
  LogsPage,
  PayloadSample,
  ProjectConsumersPage,
  ProjectEndpointsPage,
  RequestDetail,
  RequestsPage,
  StatusCodeCount,
  EndpointConsumer,
  Summary,
  Timeseries,
} from "@sightline/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, buildUrl } from "../../lib/api-client";

/** A page's query parameters, named as the API names them; empty values are dropped. */
export type TrafficParams = Readonly<Record<string, string | number | boolean | undefined>>;
type Params = TrafficParams;
const p = encodeURIComponent;

/** Drops empty values so keys and URLs only carry what is set. */
function clean(params: Params): Record<string, string | number | boolean> {
  return Object.fromEntries(
    Object.entries(params).filter(([, value]) => value !== undefined && value !== ""),
  ) as Record<string, string | number | boolean>;
}

function projectRead<T>(project: string, path: string, params: Params) {
  const query = clean(params);
  return queryOptions({
    queryKey: ["projects", project, "traffic", path, query] as const,
    queryFn: ({ signal }) => api.get<T>(`/projects/${p(project)}/${path}`, { signal, query }),
    placeholderData: keepPreviousData,
  });
}

function appRead<T>(project: string, app: string, path: string, params: Params) {
  const query = clean({ ...params, project });
  return queryOptions({
    queryKey: ["projects", project, "apps", app, "traffic", path, query] as const,
    queryFn: ({ signal }) => api.get<T>(`/apps/${p(app)}/${path}`, { signal, query }),
    placeholderData: keepPreviousData,
  });
}

export const trafficApi = {
  summary: (project: string, params: Params) => projectRead<Summary>(project, "analytics/summary", params),
  timeseries: (project: string, params: Params) =>
    projectRead<Timeseries>(project, "analytics/timeseries", params),
  endpoints: (project: string, params: Params) =>
    projectRead<ProjectEndpointsPage>(project, "analytics/endpoints", params),
  environments: (project: string, params: Params) =>
    projectRead<Environments>(project, "analytics/environments", params),
  consumers: (project: string, params: Params) =>
    projectRead<ProjectConsumersPage>(project, "analytics/consumers", params),
  errors: (project: string, params: Params) =>
    projectRead<ErrorGroupsPage>(project, "analytics/errors", params),
  requests: (project: string, params: Params) => projectRead<RequestsPage>(project, "data/requests", params),
  request: (project: string, id: string) =>
    queryOptions({
      queryKey: ["projects", project, "traffic", "request", id] as const,
      queryFn: ({ signal }) =>
        api.get<RequestDetail>(`/projects/${p(project)}/data/requests/${p(id)}`, { signal }),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  logs: (project: string, params: Params) => projectRead<LogsPage>(project, "data/logs", params),
  /** The export of a search's records: the same filters as the list, without paging. */
  exportUrl: (project: string, kind: "requests" | "logs", params: Params, format: ExportFormat) =>
    buildUrl(`/projects/${p(project)}/data/${kind}/export`, clean({ ...params, format })),
  endpointDetail: (project: string, app: string, params: Params) =>
    appRead<EndpointDetail>(project, app, "analytics/endpoint-detail", params),
  endpointTimeseries: (project: string, app: string, params: Params) =>
    appRead<Timeseries>(project, app, "analytics/endpoint-timeseries", params),
  endpointStatusCodes: (project: string, app: string, params: Params) =>
    appRead<StatusCodeCount[]>(project, app, "analytics/endpoint-status-codes", params),
  endpointConsumers: (project: string, app: string, params: Params) =>
    appRead<EndpointConsumer[]>(project, app, "analytics/endpoint-consumers", params),
  endpointPayloads: (project: string, app: string, params: Params) =>
    appRead<PayloadSample[]>(project, app, "analytics/endpoint-payloads", params),
};
