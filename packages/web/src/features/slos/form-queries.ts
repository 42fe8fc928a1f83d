// The reads the SLO form needs from elsewhere: apps, environments, endpoints and the channels.
import type { Channel } from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api-client";

export { appsQuery, endpointsQuery, environmentsQuery } from "../../lib/queries";

/** Same key as the alerts section's channel list, so both share one cache entry. */
export const channelsListQuery = (project: string) =>
  queryOptions({
    queryKey: ["projects", project, "alerts", "channels"] as const,
    queryFn: ({ signal }) =>
      api.get<Channel[]>(`/projects/${encodeURIComponent(project)}/notification-channels`, { signal }),
  });
