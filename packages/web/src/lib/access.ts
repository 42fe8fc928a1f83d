// What the signed-in person may do in a project, from the server's own answer (GET
// /users/context: each project's role and the permissions the contracts' matrix gives it), so
// the dashboard hides or disables what the server would refuse without a second copy of the
// matrix. The server still checks every request; this only spares people buttons that fail.
import type { Permission, Role } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { userContextQuery } from "./queries";

export interface ProjectAccess {
  /** Undefined while loading, or when the caller is not (or no longer) a member. */
  readonly role: Role | undefined;
  /** False until the context has loaded: nothing is offered before the role is known. */
  can(permission: Permission): boolean;
  readonly loaded: boolean;
}

export function useProjectAccess(projectSlug: string): ProjectAccess {
  const context = useQuery(userContextQuery);
  const entry = context.data?.projects.find((project) => project.slug === projectSlug);
  const permissions = new Set<string>(entry?.permissions ?? []);
  return {
    role: entry?.role,
    loaded: context.isSuccess,
    can: (permission) => permissions.has(permission),
  };
}

/** How each role reads in the dashboard, and what it means in one line. */
export const ROLE_LABELS: Record<Role, { label: string; summary: string }> = {
  owner: { label: "Owner", summary: "Everything, including deleting the project and handing it over." },
  admin: { label: "Admin", summary: "Also API keys, members and invitations, settings, the audit log." },
  member: { label: "Member", summary: "Also apps, environments and endpoints." },
  viewer: { label: "Viewer", summary: "Reads traffic, logs and settings; changes nothing." },
};

/** Roles highest first, as listed above (every role must be: the Record type says so). */
export const ROLE_ORDER = Object.keys(ROLE_LABELS) as readonly Role[];
