// Who may do what to a project. Today the owner may do everything and nobody else anything;
// members and roles will slot in here. A project the caller cannot access answers exactly
// like a missing one (404), so that its existence does not leak.
import { AppError } from "../../errors.js";
import type { ProjectRow } from "../../stores/metadata/repos/projects.repo.js";

export type ProjectAction = "read" | "write" | "admin" | "delete";

export function canAccess(userId: string, project: ProjectRow, _action: ProjectAction): boolean {
  return project.owner_id === userId;
}

export function assertCanAccess(
  userId: string,
  project: ProjectRow | undefined,
  action: ProjectAction,
  slug: string,
): asserts project is ProjectRow {
  if (project === undefined || !canAccess(userId, project, action)) {
    throw new AppError("not_found", `Project "${slug}" not found.`);
  }
}
