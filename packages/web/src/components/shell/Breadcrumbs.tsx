// Where the person is, from the matched routes: Projects › Shop › Settings › Apps › Checkout.
import { useQuery } from "@tanstack/react-query";
import { Link, useMatches } from "@tanstack/react-router";
import { ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { appQuery, projectQuery } from "../../lib/queries";
import styles from "./Shell.module.css";

interface Crumb {
  readonly label: ReactNode;
  readonly to?: string;
  readonly params?: Record<string, string>;
}

function ProjectName({ slug }: { slug: string }) {
  const { data } = useQuery(projectQuery(slug));
  return <>{data?.name ?? slug}</>;
}

function AppName({ project, app }: { project: string; app: string }) {
  const { data } = useQuery(appQuery(project, app));
  return <>{data?.name ?? app}</>;
}

export function crumbsFor(routeIds: readonly string[], params: Record<string, string>): Crumb[] {
  const has = (id: string) => routeIds.includes(id);
  const crumbs: Crumb[] = [];
  const project = params.project;
  if (has("/app/projects") || has("/app/projects/new") || project !== undefined) {
    crumbs.push({ label: "Projects", to: "/projects" });
  }
  if (has("/app/projects/new")) crumbs.push({ label: "New project" });
  if (project !== undefined) {
    crumbs.push({
      label: <ProjectName slug={project} />,
      to: "/projects/$project",
      params: { project },
    });
    if (has("/app/projects/$project/setup")) crumbs.push({ label: "Setup" });
    if (has("/app/projects/$project/settings")) {
      crumbs.push({ label: "Settings", to: "/projects/$project/settings", params: { project } });
      if (has("/app/projects/$project/settings/apps") || has("/app/projects/$project/settings/apps/$app")) {
        crumbs.push({ label: "Apps", to: "/projects/$project/settings/apps", params: { project } });
      }
      if (params.app !== undefined) crumbs.push({ label: <AppName project={project} app={params.app} /> });
      if (has("/app/projects/$project/settings/keys")) crumbs.push({ label: "API keys" });
    }
    if (routeIds.some((id) => id.startsWith("/app/projects/$project/alerts"))) {
      crumbs.push({ label: "Alerts", to: "/projects/$project/alerts", params: { project } });
      if (has("/app/projects/$project/alerts/new")) crumbs.push({ label: "New rule" });
      if (params.alertId !== undefined) {
        crumbs.push({
          label: "Rule",
          to: "/projects/$project/alerts/$alertId",
          params: { project, alertId: params.alertId },
        });
      }
      if (has("/app/projects/$project/alerts/$alertId/edit")) crumbs.push({ label: "Edit" });
    }
  }
  if (has("/app/account")) {
    crumbs.push({ label: "Account", to: "/account" });
    if (has("/app/account/security")) crumbs.push({ label: "Security" });
  }
  return crumbs;
}

export function Breadcrumbs() {
  const matches = useMatches();
  const last = matches[matches.length - 1];
  const params = (last?.params ?? {}) as Record<string, string>;
  const crumbs = crumbsFor(
    matches.map((match) => match.routeId),
    params,
  );
  return (
    <nav aria-label="Breadcrumb">
      <ol className={styles.crumbs}>
        {crumbs.map((crumb, index) => {
          const isLast = index === crumbs.length - 1;
          return (
            <li key={index}>
              {index > 0 ? <ChevronRight size={14} aria-hidden="true" /> : null}
              {isLast || crumb.to === undefined ? (
                <span aria-current={isLast ? "page" : undefined}>{crumb.label}</span>
              ) : (
                // The paths come from the route tree above; the router checks them at run time.
                <Link to={crumb.to as never} params={crumb.params as never} activeOptions={{ exact: true }}>
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
