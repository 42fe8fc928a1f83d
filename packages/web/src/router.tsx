// The route tree (code-based, typed): public sign-in pages, and behind the session check the
// shell with projects, a project's setup and settings, and the account. Settings, account and
// setup load as separate chunks; every view's state is in its URL. Each route's `staticData`
// (title, sidebar entry) is the one source of the sidebar, breadcrumbs and page list.
import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from "@tanstack/react-router";
import {
  Activity,
  AlertOctagon,
  BellRing,
  FileJson,
  Gauge,
  Inbox,
  LayoutDashboard,
  LayoutGrid,
  List,
  Rocket,
  ScrollText,
  Settings2,
  UserRound,
  Users,
  Waypoints,
} from "lucide-react";
import { AppShell } from "./components/shell/AppShell";
import type { RouteMeta } from "./components/shell/navigation";
import { ProjectGate } from "./components/shell/ProjectGate";
import { NotFoundPage, RouteErrorPage } from "./components/shell/StatusPages";
import { SignInPage } from "./features/auth/SignInPage";
import { VerifyPage } from "./features/auth/VerifyPage";
import { NewProjectPage } from "./features/projects/NewProjectPage";
import { ProjectsPage } from "./features/projects/ProjectsPage";
import { isSessionEnded } from "./lib/api-client";
import { sessionQuery } from "./lib/queries";
import { validateApiSearch } from "./features/api-contract/api-search";
import { validateTraceSearch } from "./features/traces/trace-search";
import { validateTrafficSearch } from "./lib/filters";
import { optionalString, positiveInt, safeNext, type SignInReason, signInReason } from "./lib/search";

export interface RouterContext {
  readonly queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/projects", replace: true });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/sign-in",
  validateSearch: (
    search: Record<string, unknown>,
  ): { next?: string; reason?: SignInReason; email?: string } => ({
    next: safeNext(search.next),
    reason: signInReason(search.reason),
    email: optionalString(search.email, 254),
  }),
  component: SignInPage,
});

const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/verify",
  validateSearch: (search: Record<string, unknown>): { token?: string; next?: string } => ({
    token: optionalString(search.token, 512),
    next: safeNext(search.next),
  }),
  component: VerifyPage,
});

/** Everything behind sign-in: a live session or a trip to the sign-in page. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  beforeLoad: async ({ context, location }) => {
    const hadSession = (context.queryClient.getQueryData(sessionQuery.queryKey) ?? null) !== null;
    try {
      // Revalidated on every navigation (one indexed read): a session ended elsewhere is
      // noticed on the next page, not after a stale render.
      const session = await context.queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
      if (session === null) {
        throw redirect({
          to: "/auth/sign-in",
          search: { next: location.href, ...(hadSession ? { reason: "ended" as const } : {}) },
          replace: true,
        });
      }
      return { session };
    } catch (error) {
      if (isSessionEnded(error)) {
        throw redirect({
          to: "/auth/sign-in",
          search: { next: location.href, ...(hadSession ? { reason: "ended" as const } : {}) },
          replace: true,
        });
      }
      throw error;
    }
  },
  component: AppShell,
});

const projectsRoute = createRoute({
  staticData: {
    title: "Projects",
    nav: { section: "workspace", label: "All projects", icon: LayoutGrid, exact: true },
  },
  getParentRoute: () => appRoute,
  path: "/projects",
  component: ProjectsPage,
});

const newProjectRoute = createRoute({
  staticData: { title: "New project" },
  getParentRoute: () => appRoute,
  path: "/projects/new",
  component: NewProjectPage,
});

export const projectRoute = createRoute({
  staticData: { title: "Project", crumb: "project" },
  getParentRoute: () => appRoute,
  path: "/projects/$project",
  component: ProjectGate,
});

// The traffic pages share one URL schema (filters carry across them) and load as lazy chunks.
const projectIndexRoute = createRoute({
  staticData: {
    title: "Overview",
    nav: { section: "project", icon: LayoutDashboard, exact: true, keepFilters: true },
  },
  getParentRoute: () => projectRoute,
  path: "/",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/OverviewPage"), "OverviewPage"),
});

export const endpointDetailRoute = createRoute({
  staticData: { title: "Endpoint" },
  getParentRoute: () => projectRoute,
  path: "/endpoints/detail",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/EndpointPage"), "EndpointPage"),
});

export const requestsRoute = createRoute({
  staticData: { title: "Requests", nav: { section: "project", icon: List, keepFilters: true } },
  getParentRoute: () => projectRoute,
  path: "/requests",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/RequestsPage"), "RequestsPage"),
});

export const logsRoute = createRoute({
  staticData: { title: "Logs", nav: { section: "project", icon: ScrollText, keepFilters: true } },
  getParentRoute: () => projectRoute,
  path: "/logs",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/LogsPage"), "LogsPage"),
});

export const tracesRoute = createRoute({
  staticData: { title: "Traces", nav: { section: "project", icon: Waypoints, keepFilters: true } },
  getParentRoute: () => projectRoute,
  path: "/traces",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traces/TracesPage"), "TracesPage"),
});

export const traceRoute = createRoute({
  staticData: { title: "Trace" },
  getParentRoute: () => projectRoute,
  path: "/traces/$traceId",
  validateSearch: validateTraceSearch,
  component: lazyRouteComponent(() => import("./features/traces/TracePage"), "TracePage"),
});

export const consumersRoute = createRoute({
  staticData: { title: "Consumers", nav: { section: "project", icon: Users, keepFilters: true } },
  getParentRoute: () => projectRoute,
  path: "/consumers",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/ConsumersPage"), "ConsumersPage"),
});

export const consumerRoute = createRoute({
  staticData: { title: "Consumer", crumb: "consumer" },
  getParentRoute: () => projectRoute,
  path: "/consumers/$consumer",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/ConsumerPage"), "ConsumerPage"),
});

export const errorsRoute = createRoute({
  staticData: { title: "Errors", nav: { section: "project", icon: AlertOctagon, keepFilters: true } },
  getParentRoute: () => projectRoute,
  path: "/errors",
  validateSearch: validateTrafficSearch,
  component: lazyRouteComponent(() => import("./features/traffic/ErrorsPage"), "ErrorsPage"),
});

export const setupRoute = createRoute({
  staticData: { title: "Setup", nav: { section: "project", icon: Rocket } },
  getParentRoute: () => projectRoute,
  path: "/setup",
  validateSearch: (search: Record<string, unknown>): { app?: string } => ({
    app: optionalString(search.app, 64),
  }),
  component: lazyRouteComponent(() => import("./features/setup/SetupPage"), "SetupPage"),
});

const settingsRoute = createRoute({
  staticData: { title: "Settings", nav: { section: "project", icon: Settings2 } },
  getParentRoute: () => projectRoute,
  path: "/settings",
  component: lazyRouteComponent(() => import("./features/settings/SettingsLayout"), "SettingsLayout"),
});

const settingsGeneralRoute = createRoute({
  getParentRoute: () => settingsRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./features/settings/GeneralSettings"), "GeneralSettings"),
});

const settingsAppsRoute = createRoute({
  staticData: { title: "Apps" },
  getParentRoute: () => settingsRoute,
  path: "/apps",
  component: lazyRouteComponent(() => import("./features/settings/AppsSettings"), "AppsSettings"),
});

export const settingsAppRoute = createRoute({
  staticData: { title: "App", crumb: "app" },
  getParentRoute: () => settingsRoute,
  path: "/apps/$app",
  component: lazyRouteComponent(() => import("./features/settings/AppSettings"), "AppSettings"),
});

const settingsKeysRoute = createRoute({
  staticData: { title: "API keys" },
  getParentRoute: () => settingsRoute,
  path: "/keys",
  component: lazyRouteComponent(() => import("./features/settings/KeysSettings"), "KeysSettings"),
});

const settingsMembersRoute = createRoute({
  staticData: { title: "Members" },
  getParentRoute: () => settingsRoute,
  path: "/members",
  component: lazyRouteComponent(() => import("./features/team/MembersPage"), "MembersPage"),
});

const settingsAuditRoute = createRoute({
  staticData: { title: "Audit log" },
  getParentRoute: () => settingsRoute,
  path: "/audit-log",
  validateSearch: (search: Record<string, unknown>): { page: number } => ({
    page: positiveInt(search.page) ?? 1,
  }),
  component: lazyRouteComponent(() => import("./features/team/AuditLogPage"), "AuditLogPage"),
});

const invitationsRoute = createRoute({
  staticData: { title: "Invitations", nav: { section: "workspace", icon: Inbox, exact: true } },
  getParentRoute: () => appRoute,
  path: "/invitations",
  component: lazyRouteComponent(() => import("./features/invitations/InvitationsPage"), "InvitationsPage"),
});

/** The e-mailed link: behind the session check, so a signed-out visitor signs in and comes back. */
const acceptInvitationRoute = createRoute({
  staticData: { title: "Accept invitation" },
  getParentRoute: () => appRoute,
  path: "/invitations/accept",
  validateSearch: (search: Record<string, unknown>): { token?: string } => ({
    token: optionalString(search.token, 200),
  }),
  component: lazyRouteComponent(
    () => import("./features/invitations/AcceptInvitationPage"),
    "AcceptInvitationPage",
  ),
});

// Alerts: the rules list with channels, a rule (notifications link to it), its editor.
const alertsRoute = createRoute({
  staticData: { title: "Alerts", nav: { section: "project", icon: BellRing } },
  getParentRoute: () => projectRoute,
  path: "/alerts",
  component: lazyRouteComponent(() => import("./features/alerts/AlertsPage"), "AlertsPage"),
});

const newAlertRoute = createRoute({
  staticData: { title: "New rule" },
  getParentRoute: () => projectRoute,
  path: "/alerts/new",
  component: lazyRouteComponent(() => import("./features/alerts/RuleEditor"), "NewRulePage"),
});

const alertRoute = createRoute({
  staticData: { title: "Rule" },
  getParentRoute: () => projectRoute,
  path: "/alerts/$alertId",
  component: lazyRouteComponent(() => import("./features/alerts/RuleDetailPage"), "RuleDetailPage"),
});

const editAlertRoute = createRoute({
  staticData: { title: "Edit" },
  getParentRoute: () => projectRoute,
  path: "/alerts/$alertId/edit",
  component: lazyRouteComponent(() => import("./features/alerts/RuleEditor"), "EditRulePage"),
});

// Uptime: the project's HTTP checks with their uptime, and one check (its notifications link to it).
const uptimeRoute = createRoute({
  staticData: { title: "Uptime", nav: { section: "project", icon: Activity } },
  getParentRoute: () => projectRoute,
  path: "/uptime",
  component: lazyRouteComponent(() => import("./features/uptime/UptimePage"), "UptimePage"),
});

const uptimeCheckRoute = createRoute({
  staticData: { title: "Check" },
  getParentRoute: () => projectRoute,
  path: "/uptime/$checkId",
  component: lazyRouteComponent(() => import("./features/uptime/CheckPage"), "CheckPage"),
});

const newUptimeCheckRoute = createRoute({
  staticData: { title: "New check" },
  getParentRoute: () => projectRoute,
  path: "/uptime/new",
  component: lazyRouteComponent(() => import("./features/uptime/CheckEditor"), "NewCheckPage"),
});

const editUptimeCheckRoute = createRoute({
  staticData: { title: "Edit" },
  getParentRoute: () => projectRoute,
  path: "/uptime/$checkId/edit",
  component: lazyRouteComponent(() => import("./features/uptime/CheckEditor"), "EditCheckPage"),
});

// API: the inferred contract, declared vs observed, the change log (contract-change
// notifications link to a change) and the contract-change alert rules.
const apiRoute = createRoute({
  staticData: { title: "API", nav: { section: "project", icon: FileJson } },
  getParentRoute: () => projectRoute,
  path: "/api",
  validateSearch: validateApiSearch,
  component: lazyRouteComponent(() => import("./features/api-contract/ApiLayout"), "ApiLayout"),
});

const apiContractRoute = createRoute({
  getParentRoute: () => apiRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./features/api-contract/ContractPage"), "ContractPage"),
});

const apiReportRoute = createRoute({
  staticData: { title: "Declared vs observed" },
  getParentRoute: () => apiRoute,
  path: "/report",
  component: lazyRouteComponent(() => import("./features/api-contract/ReportPage"), "ReportPage"),
});

const apiChangesRoute = createRoute({
  staticData: { title: "Changes" },
  getParentRoute: () => apiRoute,
  path: "/changes",
  component: lazyRouteComponent(() => import("./features/api-contract/ChangesPage"), "ChangesPage"),
});

const apiChangeRoute = createRoute({
  staticData: { title: "Change" },
  getParentRoute: () => apiRoute,
  path: "/changes/$changeId",
  component: lazyRouteComponent(() => import("./features/api-contract/ChangePage"), "ChangePage"),
});

const apiAlertsRoute = createRoute({
  staticData: { title: "Alerts" },
  getParentRoute: () => apiRoute,
  path: "/alerts",
  component: lazyRouteComponent(
    () => import("./features/api-contract/ContractAlertsPage"),
    "ContractAlertsPage",
  ),
});

// Service levels: the list, a new SLO (or one per consumer), an SLO (burn-rate alerts link to it).
const slosRoute = createRoute({
  staticData: { title: "SLOs", nav: { section: "project", icon: Gauge } },
  getParentRoute: () => projectRoute,
  path: "/slos",
  component: lazyRouteComponent(() => import("./features/slos/SlosPage"), "SlosPage"),
});

const newSloRoute = createRoute({
  staticData: { title: "New SLO" },
  getParentRoute: () => projectRoute,
  path: "/slos/new",
  component: lazyRouteComponent(() => import("./features/slos/NewSloPage"), "NewSloPage"),
});

const sloRoute = createRoute({
  staticData: { title: "SLO" },
  getParentRoute: () => projectRoute,
  path: "/slos/$sloId",
  validateSearch: (search: Record<string, unknown>): { page?: number } => ({
    page: positiveInt(search.page),
  }),
  component: lazyRouteComponent(() => import("./features/slos/SloPage"), "SloPage"),
});

const accountRoute = createRoute({
  staticData: { title: "Account", nav: { section: "workspace", icon: UserRound } },
  getParentRoute: () => appRoute,
  path: "/account",
  component: lazyRouteComponent(() => import("./features/account/AccountLayout"), "AccountLayout"),
});

const accountProfileRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./features/account/ProfilePage"), "ProfilePage"),
});

const accountSecurityRoute = createRoute({
  staticData: { title: "Security" },
  getParentRoute: () => accountRoute,
  path: "/security",
  component: lazyRouteComponent(() => import("./features/account/SecurityPage"), "SecurityPage"),
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  signInRoute,
  verifyRoute,
  appRoute.addChildren([
    projectsRoute,
    newProjectRoute,
    projectRoute.addChildren([
      projectIndexRoute,
      endpointDetailRoute,
      requestsRoute,
      logsRoute,
      tracesRoute,
      traceRoute,
      consumersRoute,
      consumerRoute,
      errorsRoute,
      setupRoute,
      alertsRoute,
      newAlertRoute,
      alertRoute,
      editAlertRoute,
      uptimeRoute,
      newUptimeCheckRoute,
      uptimeCheckRoute,
      editUptimeCheckRoute,
      apiRoute.addChildren([
        apiContractRoute,
        apiReportRoute,
        apiChangesRoute,
        apiChangeRoute,
        apiAlertsRoute,
      ]),
      slosRoute,
      newSloRoute,
      sloRoute,
      settingsRoute.addChildren([
        settingsGeneralRoute,
        settingsAppsRoute,
        settingsAppRoute,
        settingsKeysRoute,
        settingsMembersRoute,
        settingsAuditRoute,
      ]),
    ]),
    invitationsRoute,
    acceptInvitationRoute,
    accountRoute.addChildren([accountProfileRoute, accountSecurityRoute]),
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    // The query cache decides freshness; the router never serves its own stale copy.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
declare module "@tanstack/react-router" {
  /** What the sidebar, the breadcrumbs and the command palette read from each route. */
  // An interface merge needs the extends form; the members are RouteMeta's.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface StaticDataRouteOption extends RouteMeta {}
}
