// The SLO section's reads (query options) and writes: objectives with their status, the budget
// burn-down, the state history, and the per-consumer template.
import type {
  CreateSloBody,
  Message,
  PerConsumerSloBody,
  Slo,
  SloBurnDown,
  SloEventsPage,
  SlosQuery,
  SloStatus,
  SloWithStatus,
  UpdateSloBody,
} from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api-client";

const p = encodeURIComponent;
const base = (project: string) => `/projects/${p(project)}/slos`;

export const sloKeys = {
  all: (project: string) => ["projects", project, "slos"] as const,
  list: (project: string, query: SlosQuery) => ["projects", project, "slos", "list", query] as const,
  one: (project: string, id: string) => ["projects", project, "slos", "one", id] as const,
  status: (project: string, id: string) => ["projects", project, "slos", "one", id, "status"] as const,
  burnDown: (project: string, id: string) => ["projects", project, "slos", "one", id, "burn-down"] as const,
  events: (project: string, id: string, page: number) =>
    ["projects", project, "slos", "one", id, "events", page] as const,
};

/** Burn rates move by the minute: status reads refresh themselves. */
const LIVE_MS = 30_000;

/** SLOs with their status (the list, and the cards on the endpoint and consumer pages). */
export const slosQuery = (project: string, query: SlosQuery = {}) =>
  queryOptions({
    queryKey: sloKeys.list(project, query),
    queryFn: ({ signal }) =>
      api.get<SloWithStatus[]>(base(project), {
        signal,
        query: { ...query, include_status: true },
      }),
    refetchInterval: LIVE_MS,
  });

export const sloQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: sloKeys.one(project, id),
    queryFn: ({ signal }) => api.get<Slo>(`${base(project)}/${p(id)}`, { signal }),
  });

export const sloStatusQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: sloKeys.status(project, id),
    queryFn: ({ signal }) => api.get<SloStatus>(`${base(project)}/${p(id)}/status`, { signal }),
    refetchInterval: LIVE_MS,
  });

export const sloBurnDownQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: sloKeys.burnDown(project, id),
    queryFn: ({ signal }) => api.get<SloBurnDown>(`${base(project)}/${p(id)}/burn-down`, { signal }),
    staleTime: 60_000,
  });

export const SLO_EVENTS_PAGE_SIZE = 25;

export const sloEventsQuery = (project: string, id: string, page: number) =>
  queryOptions({
    queryKey: sloKeys.events(project, id, page),
    queryFn: ({ signal }) =>
      api.get<SloEventsPage>(`${base(project)}/${p(id)}/events`, {
        signal,
        query: { page, page_size: SLO_EVENTS_PAGE_SIZE },
      }),
    refetchInterval: LIVE_MS,
  });

export const slosApi = {
  create: (project: string, body: CreateSloBody) => api.post<Slo>(base(project), body),
  createPerConsumer: (project: string, body: PerConsumerSloBody) =>
    api.post<Slo[]>(`${base(project)}/per-consumer`, body),
  update: (project: string, id: string, body: UpdateSloBody) =>
    api.patch<Slo>(`${base(project)}/${p(id)}`, body),
  delete: (project: string, id: string) => api.delete<Message>(`${base(project)}/${p(id)}`),
};
