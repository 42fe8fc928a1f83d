// The route tree read as navigation: each route's `staticData` (title, sidebar entry, dynamic
// crumb) gives the sidebar's sections, the breadcrumbs of a path, and the flat list of pages a
// command palette offers. Nothing here lists a path: add a route with a title and it shows up.
import { useRouter } from "@tanstack/react-router";
import type { LucideIcon } from "lucide-react";

export interface RouteMeta {
  /** The page's name: breadcrumb, sidebar label (unless `nav.label`), command palette entry. */
  readonly title?: string;
  /** A sidebar entry: its section, icon, and whether it carries the traffic filters along. */
  readonly nav?: {
    readonly section: "project" | "workspace";
    readonly icon: LucideIcon;
    readonly label?: string;
    /** Active only on this exact path (the overview, not its children). */
    readonly exact?: boolean;
    /** Traffic pages carry the time range, app and environment across (Apitally does too). */
    readonly keepFilters?: boolean;
  };
  /** A crumb named by the record the path names (the project's name, not "Project"). */
  readonly crumb?: "project" | "app" | "consumer";
}

/** The routes with a title, in the tree's order, as the router registered them. */
export function useTitledRoutes() {
  const router = useRouter();
  return Object.values(router.routesById).filter((route) => route.options.staticData?.title !== undefined);
}

/** One route as navigation sees it: its id, path pattern ("/projects/$project"), metadata. */
export interface NavRoute {
  readonly id: string;
  readonly to: string;
  readonly options: { readonly staticData?: RouteMeta };
}

export interface Crumb<R extends NavRoute> {
  readonly route: R;
  /** The path the crumb opens, its params filled in. */
  readonly href: string;
  readonly params: Readonly<Record<string, string>>;
}

const segments = (path: string) => path.split("/").filter((part) => part !== "");

/** The params of `path` under a route pattern, or undefined if the pattern does not match. */
function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = segments(pattern);
  const have = segments(path);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index++) {
    const part = want[index] ?? "";
    const value = have[index] ?? "";
    if (part.startsWith("$")) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return undefined;
  }
  return params;
}

/** How specific a pattern is: literal segments beat params ("/projects/new" over "$project"). */
const literalCount = (pattern: string) => segments(pattern).filter((part) => !part.startsWith("$")).length;

/**
 * The breadcrumbs of a path: for each of its prefixes, the titled route that matches it (the most
 * literal one; among routes sharing a path, the layout over its index page).
 */
export function crumbsFor<R extends NavRoute>(routes: readonly R[], pathname: string): Crumb<R>[] {
  const parts = segments(pathname);
  const crumbs: Crumb<R>[] = [];
  for (let length = 1; length <= parts.length; length++) {
    const href = `/${parts.slice(0, length).join("/")}`;
    let best: { route: R; params: Record<string, string> } | undefined;
    for (const route of routes) {
      const params = matchPattern(route.to, href);
      if (params === undefined) continue;
      const better =
        best === undefined ||
        literalCount(route.to) > literalCount(best.route.to) ||
        (literalCount(route.to) === literalCount(best.route.to) && route.id.length < best.route.id.length);
      if (better) best = { route, params };
    }
    if (best !== undefined) crumbs.push({ route: best.route, href, params: best.params });
  }
  return crumbs;
}

/** A page a command palette can offer: its route, title and path pattern. */
export interface NavigablePage<R extends NavRoute> {
  readonly route: R;
  readonly title: string;
  readonly to: string;
}

/** The pages a command palette offers: every titled route, in the tree's order. */
export function navigablePages<R extends NavRoute>(routes: readonly R[]): NavigablePage<R>[] {
  return routes.flatMap((route) => {
    const title = route.options.staticData?.title;
    return title === undefined ? [] : [{ route, title, to: route.to }];
  });
}
