// The project route's body: the page asked for, unless the project is unknown or out of reach,
// which is said once instead of by every card of the page failing on its own.
import { useQuery } from "@tanstack/react-query";
import { Outlet, useParams } from "@tanstack/react-router";
import { isApiError } from "../../lib/api-client";
import { projectQuery } from "../../lib/queries";
import { ProjectUnavailablePage } from "./StatusPages";

export function ProjectGate() {
  const { project = "" } = useParams({ strict: false });
  const answer = useQuery({ ...projectQuery(project), retry: false });
  const unavailable =
    isApiError(answer.error) && (answer.error.status === 404 || answer.error.status === 403);
  return unavailable ? <ProjectUnavailablePage slug={project} /> : <Outlet />;
}
