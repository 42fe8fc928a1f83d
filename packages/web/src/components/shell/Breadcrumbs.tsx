// Where the person is, from the route tree: each prefix of the path that a titled route matches
// is a crumb (Projects › Shop › Settings › Apps › Checkout), records named by their own names.
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "@tanstack/react-router";
import { ChevronRight } from "lucide-react";
import { appQuery, projectQuery } from "../../lib/queries";
import { crumbsFor, type RouteMeta, useTitledRoutes } from "./navigation";
import styles from "./Shell.module.css";

function ProjectName({ slug }: { slug: string }) {
  const { data } = useQuery(projectQuery(slug));
  return <>{data?.name ?? slug}</>;
}

function AppName({ project, app }: { project: string; app: string }) {
  const { data } = useQuery(appQuery(project, app));
  return <>{data?.name ?? app}</>;
}

function CrumbLabel({ meta, params }: { meta: RouteMeta; params: Readonly<Record<string, string>> }) {
  if (meta.crumb === "project" && params.project) return <ProjectName slug={params.project} />;
  if (meta.crumb === "app" && params.project && params.app) {
    return <AppName project={params.project} app={params.app} />;
  }
  if (meta.crumb === "consumer" && params.consumer) return <>{params.consumer}</>;
  return <>{meta.title}</>;
}

export function Breadcrumbs() {
  const routes = useTitledRoutes();
  const pathname = useLocation({ select: (location) => location.pathname });
  const crumbs = crumbsFor(routes, pathname);
  return (
    <nav aria-label="Breadcrumb">
      <ol className={styles.crumbs}>
        {crumbs.map((crumb, index) => {
          const isLast = index === crumbs.length - 1;
          const label = <CrumbLabel meta={crumb.route.options.staticData ?? {}} params={crumb.params} />;
          return (
            <li key={crumb.href}>
              {index > 0 ? <ChevronRight size={14} aria-hidden="true" /> : null}
              {isLast ? (
                <span aria-current="page">{label}</span>
              ) : (
                <Link to={crumb.route.to} params={crumb.params} activeOptions={{ exact: true }}>
                  {label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
