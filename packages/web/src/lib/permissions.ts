// What the signed-in person may do in a project, as the server says (GET /users/context lists
// each project's role and its permissions): controls are hidden from roles that lack them, and
// the matrix itself stays in @sightline/contracts, on the server.
import type { Permission, UserContext } from "@sightline/contracts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./api-client";

export const userContextQuery = queryOptions({
  queryKey: ["user-context"] as const,
  queryFn: ({ signal }) => api.get<UserContext>("/users/context", { signal }),
  staleTime: 30_000,
});

/** True when the caller's role in `project` holds `permission`; false until that is known. */
export function useCan(project: string, permission: Permission): boolean {
  const context = useQuery(userContextQuery);
  const access = context.data?.projects.find((entry) => entry.slug === project);
  return access?.permissions.includes(permission) ?? false;
}
