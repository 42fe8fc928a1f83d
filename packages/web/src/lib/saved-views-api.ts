// Saved views of a project's pages: the caller's own and the shared ones of one page, and the
// writes that save, share and delete them. A view's filters are the page's URL search as text.
import type { CreateSavedViewBody, Message, SavedView, UpdateSavedViewBody } from "@sightline/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "./api-client";

const p = encodeURIComponent;

/** Search keys that say where someone is in a list, not what they filter: never saved. */
const TRANSIENT_KEYS = new Set(["page", "req", "log", "live"]);

/** The page's URL search as a view's filters: text values, without paging or open records. */
export function filtersOf(search: Readonly<Record<string, unknown>>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(search)) {
    if (TRANSIENT_KEYS.has(key) || value === undefined || value === null || value === "") continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      filters[key] = String(value);
    }
  }
  return filters;
}

/**
 * The saved-view page of a route's full path: its path under the project with parameters named
 * (`/projects/$project/consumers/$consumer` → `consumers/consumer`; the overview → `overview`).
 * Undefined outside a project.
 */
export function viewPageOf(fullPath: string): string | undefined {
  const marker = "/projects/$project";
  const at = fullPath.indexOf(marker);
  if (at === -1) return undefined;
  const rest = fullPath
    .slice(at + marker.length)
    .split("/")
    .filter((part) => part !== "")
    .map((part) =>
      part
        .replace(/^\$/, "")
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, "-"),
    )
    .filter((part) => /^[a-z0-9]/.test(part));
  return rest.length === 0 ? "overview" : rest.join("/");
}

export const savedViewsApi = {
  list: (project: string, page: string) =>
    queryOptions({
      queryKey: ["saved-views", project, page],
      queryFn: ({ signal }) =>
        api.get<SavedView[]>(`/projects/${p(project)}/saved-views`, { query: { page }, signal }),
    }),
  create: (project: string, body: CreateSavedViewBody) =>
    api.post<SavedView>(`/projects/${p(project)}/saved-views`, body),
  update: (project: string, id: string, body: UpdateSavedViewBody) =>
    api.patch<SavedView>(`/projects/${p(project)}/saved-views/${p(id)}`, body),
  remove: (project: string, id: string) =>
    api.delete<Message>(`/projects/${p(project)}/saved-views/${p(id)}`),
};
