// The alerts section's reads (query options) and writes: rules, their history and test
// notifications, and the project's notification channels.
import type {
  AlertBand,
  AlertEventsPage,
  AlertRule,
  Channel,
  ChannelWithSecret,
  CreateAlertRuleBody,
  CreateChannelBody,
  Message,
  TestNotificationResult,
  Timeseries,
  UpdateAlertRuleBody,
  UpdateChannelBody,
} from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api-client";

const p = encodeURIComponent;
const base = (project: string) => `/projects/${p(project)}`;

export const alertKeys = {
  all: (project: string) => ["projects", project, "alerts"] as const,
  rules: (project: string) => ["projects", project, "alerts", "rules"] as const,
  rule: (project: string, id: string) => ["projects", project, "alerts", "rules", id] as const,
  events: (project: string, id: string, page: number) =>
    ["projects", project, "alerts", "rules", id, "events", page] as const,
  channels: (project: string) => ["projects", project, "alerts", "channels"] as const,
  band: (project: string, id: string) => ["projects", project, "alerts", "rules", id, "band"] as const,
  preview: (project: string, request: { path: string; query: Record<string, string> }) =>
    ["projects", project, "alerts", "preview", request.path, request.query] as const,
};

/** Rule states change with every evaluation: lists and details re-read themselves. */
const LIVE_MS = 15_000;

export const rulesQuery = (project: string) =>
  queryOptions({
    queryKey: alertKeys.rules(project),
    queryFn: ({ signal }) => api.get<AlertRule[]>(`${base(project)}/alerts`, { signal }),
    refetchInterval: LIVE_MS,
  });

export const ruleQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: alertKeys.rule(project, id),
    queryFn: ({ signal }) => api.get<AlertRule>(`${base(project)}/alerts/${p(id)}`, { signal }),
    refetchInterval: LIVE_MS,
  });

export const EVENTS_PAGE_SIZE = 25;

export const eventsQuery = (project: string, id: string, page: number) =>
  queryOptions({
    queryKey: alertKeys.events(project, id, page),
    queryFn: ({ signal }) =>
      api.get<AlertEventsPage>(`${base(project)}/alerts/${p(id)}/events`, {
        signal,
        query: { page, page_size: EVENTS_PAGE_SIZE },
      }),
    refetchInterval: LIVE_MS,
  });

/** An anomaly rule's band over the last 24 hours (the route's default range). */
export const bandQuery = (project: string, id: string) =>
  queryOptions({
    queryKey: alertKeys.band(project, id),
    queryFn: ({ signal }) => api.get<AlertBand>(`${base(project)}/alerts/${p(id)}/band`, { signal }),
    refetchInterval: 60_000,
  });

export const channelsQuery = (project: string) =>
  queryOptions({
    queryKey: alertKeys.channels(project),
    queryFn: ({ signal }) => api.get<Channel[]>(`${base(project)}/notification-channels`, { signal }),
  });

export const previewQuery = (project: string, request: { path: string; query: Record<string, string> }) =>
  queryOptions({
    queryKey: alertKeys.preview(project, request),
    queryFn: ({ signal }) => api.get<Timeseries>(request.path, { signal, query: request.query }),
    placeholderData: (previous) => previous,
    staleTime: 60_000,
  });

export const alertsApi = {
  createRule: (project: string, body: CreateAlertRuleBody) =>
    api.post<AlertRule>(`${base(project)}/alerts`, body),
  updateRule: (project: string, id: string, body: UpdateAlertRuleBody) =>
    api.patch<AlertRule>(`${base(project)}/alerts/${p(id)}`, body),
  deleteRule: (project: string, id: string) => api.delete<Message>(`${base(project)}/alerts/${p(id)}`),
  testRule: (project: string, id: string) =>
    api.post<TestNotificationResult>(`${base(project)}/alerts/${p(id)}/test`),
  createChannel: (project: string, body: CreateChannelBody) =>
    api.post<ChannelWithSecret>(`${base(project)}/notification-channels`, body),
  updateChannel: (project: string, id: string, body: UpdateChannelBody) =>
    api.patch<ChannelWithSecret>(`${base(project)}/notification-channels/${p(id)}`, body),
  deleteChannel: (project: string, id: string) =>
    api.delete<Message>(`${base(project)}/notification-channels/${p(id)}`),
};
