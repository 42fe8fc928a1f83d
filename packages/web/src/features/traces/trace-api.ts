// The trace reads as TanStack Query options: one trace in full (immutable once its spans are in,
// so kept while the page is open) and the recent-traces list.
import type { TraceDetail, TracesPage, TracesQuery } from "@sightline/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, isApiError } from "../../lib/api-client";
import { cleanQuery } from "../../lib/traffic-api";

const p = encodeURIComponent;

export const traceApi = {
  trace: (project: string, traceId: string) =>
    queryOptions({
      queryKey: ["projects", project, "traffic", "trace", traceId] as const,
      queryFn: ({ signal }) =>
        api.get<TraceDetail>(`/projects/${p(project)}/data/traces/${p(traceId)}`, { signal }),
      // A 404 stays a 404 for a while; retrying it only delays the message.
      retry: (count, error) => count < 2 && !(isApiError(error) && error.status === 404),
    }),
  traces: (project: string, params: TracesQuery) => {
    const query = cleanQuery(params);
    return queryOptions({
      queryKey: ["projects", project, "traffic", "data/traces", query] as const,
      queryFn: ({ signal }) => api.get<TracesPage>(`/projects/${p(project)}/data/traces`, { signal, query }),
      placeholderData: keepPreviousData,
    });
  },
};
