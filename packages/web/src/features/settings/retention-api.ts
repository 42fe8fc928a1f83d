// A project's retention (GET/PATCH /projects/{slug}/retention): its query and its change.
import type { ProjectRetention, UpdateProjectRetentionBody } from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api-client";

const p = encodeURIComponent;

export const retentionKey = (project: string) => ["projects", project, "retention"] as const;

export const retentionQuery = (project: string) =>
  queryOptions({
    queryKey: retentionKey(project),
    queryFn: ({ signal }) => api.get<ProjectRetention>(`/projects/${p(project)}/retention`, { signal }),
    staleTime: 30_000,
  });

export const updateRetention = (project: string, body: UpdateProjectRetentionBody) =>
  api.patch<ProjectRetention>(`/projects/${p(project)}/retention`, body);
