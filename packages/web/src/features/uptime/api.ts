// The uptime section's reads (a project's checks with their uptime, one check, and its results)
// and writes (create, change, delete a check).
import type {
  CreateUptimeCheckBody,
  Message,
  UpdateUptimeCheckBody,
  UptimeCheck,
  UptimeCheckWithUptime,
  UptimeResults,
} from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api-client";

const p = encodeURIComponent;
const base = (project: string) => `/projects/${p(project)}/uptime-checks`;

/** Checks run every 30 s or more: lists and pages re-read themselves. */
const LIVE_MS = 15_000;

export const uptimeKeys = {
  all: (project: string) => ["projects", project, "uptime"] as const,
  checks: (project: string) => ["projects", project, "uptime", "checks"] as const,
  check: (project: string, id: string) => ["projects", project, "uptime", "checks", id] as const,
  results: (project: string, id: string, failuresOnly: boolean) =>
    ["projects", project, "uptime", "checks", id, "results", failuresOnly] as const,
};

export const checksQuery = (project: string) =>
  queryOptions({
    queryKey: uptimeKeys.checks(project),
    queryFn: ({ signal }) => api.get<UptimeCheckWithUptime[]>(base(project), { signal }),
    refetchInterval: LIVE_MS,
  });

export const checkQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: uptimeKeys.check(project, id),
    queryFn: ({ signal }) => api.get<UptimeCheckWithUptime>(`${base(project)}/${p(id)}`, { signal }),
    refetchInterval: LIVE_MS,
  });

/** The last 24 hours of results (all, or the failures), newest first. */
export const resultsQuery = (project: string, id: string, failuresOnly: boolean) =>
  queryOptions({
    queryKey: uptimeKeys.results(project, id, failuresOnly),
    queryFn: ({ signal }) =>
      api.get<UptimeResults>(`${base(project)}/${p(id)}/results`, {
        signal,
        query: { limit: failuresOnly ? 50 : 1000, failures_only: failuresOnly },
      }),
    refetchInterval: LIVE_MS,
  });

export const uptimeApi = {
  create: (project: string, body: CreateUptimeCheckBody) => api.post<UptimeCheck>(base(project), body),
  update: (project: string, id: string, body: UpdateUptimeCheckBody) =>
    api.patch<UptimeCheck>(`${base(project)}/${p(id)}`, body),
  delete: (project: string, id: string) => api.delete<Message>(`${base(project)}/${p(id)}`),
};
