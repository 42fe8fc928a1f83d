// Which project the sidebar shows: the one in the path, or, on the workspace pages a person
// visits in passing (Account, Invitations), the project they came from, so its pages stay one
// click away. The projects list and new-project page show none: there, no project is current.
import { useLocation, useParams } from "@tanstack/react-router";

const KEY = "sightline.sidebar-project";
const KEEPS_PROJECT = ["/account", "/invitations"];

function remembered(): string | undefined {
  try {
    return window.sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function useSidebarProject(): string | undefined {
  const params = useParams({ strict: false });
  const { pathname } = useLocation();
  if (params.project !== undefined) {
    try {
      if (remembered() !== params.project) window.sessionStorage.setItem(KEY, params.project);
    } catch {
      // Storage refused (private mode): the sidebar simply forgets.
    }
    return params.project;
  }
  const keeps = KEEPS_PROJECT.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  return keeps ? remembered() : undefined;
}
