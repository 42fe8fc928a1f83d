// The signed-in frame: sidebar (project switcher, the project's sections, account) and a top
// bar (breadcrumbs, theme), around the current page. Only sections that exist are listed.
import { useQuery } from "@tanstack/react-query";
import { Link, Outlet, useParams } from "@tanstack/react-router";
import {
  AlertOctagon,
  BellRing,
  BookOpen,
  Inbox,
  LayoutDashboard,
  LayoutGrid,
  List,
  type LucideIcon,
  Rocket,
  ScrollText,
  Settings2,
  UserRound,
  Users,
  Waypoints,
} from "lucide-react";
import { meQuery, receivedInvitationsQuery } from "../../lib/queries";
import { Breadcrumbs } from "./Breadcrumbs";
import { Logo } from "./Logo";
import { ProjectSwitcher } from "./ProjectSwitcher";
import styles from "./Shell.module.css";
import { ThemeToggle } from "./ThemeToggle";
import { UserMenu } from "./UserMenu";

function NavLink({
  to,
  params,
  icon: Icon,
  label,
  exact = false,
  count,
  keepFilters = false,
}: {
  to: string;
  params?: Record<string, string>;
  icon: LucideIcon;
  label: string;
  exact?: boolean;
  /** A number shown after the label (pending invitations), left out when zero. */
  count?: number;
  /** Traffic pages carry the time range, app and environment across (Apitally does too). */
  keepFilters?: boolean;
}) {
  return (
    <Link
      // Paths come from the route tree; the router resolves them at run time.
      to={to as never}
      params={params as never}
      search={
        keepFilters ? (((previous: Record<string, unknown>) => sharedFilters(previous)) as never) : undefined
      }
      className={styles.navLink}
      activeOptions={{ exact }}
      activeProps={{ "aria-current": "page" }}
    >
      <Icon size={17} aria-hidden="true" />
      {label}
      {count ? (
        <span className={styles.navCount}>
          {count}
          <span className="visually-hidden"> pending</span>
        </span>
      ) : null}
    </Link>
  );
}

const SHARED_KEYS = ["range", "since", "until", "app", "env", "refresh"];

function sharedFilters(search: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    SHARED_KEYS.filter((key) => search[key] !== undefined).map((key) => [key, search[key]]),
  );
}

export function AppShell() {
  const params = useParams({ strict: false }) as { project?: string };
  const me = useQuery(meQuery);
  const invitations = useQuery(receivedInvitationsQuery);
  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <aside className={styles.sidebar} aria-label="Sidebar">
        <Link to="/projects" className={styles.logoLink} aria-label="Sightline: all projects">
          <Logo />
        </Link>
        <ProjectSwitcher current={params.project} />
        {params.project !== undefined ? (
          <nav className={styles.navGroup} aria-label="Project">
            <span className={styles.navHeading}>Project</span>
            <NavLink
              to="/projects/$project"
              params={{ project: params.project }}
              icon={LayoutDashboard}
              label="Overview"
              exact
              keepFilters
            />
            <NavLink
              to="/projects/$project/requests"
              params={{ project: params.project }}
              icon={List}
              label="Requests"
              keepFilters
            />
            <NavLink
              to="/projects/$project/logs"
              params={{ project: params.project }}
              icon={ScrollText}
              label="Logs"
              keepFilters
            />
            <NavLink
              to="/projects/$project/traces"
              params={{ project: params.project }}
              icon={Waypoints}
              label="Traces"
              keepFilters
            />
            <NavLink
              to="/projects/$project/consumers"
              params={{ project: params.project }}
              icon={Users}
              label="Consumers"
              keepFilters
            />
            <NavLink
              to="/projects/$project/errors"
              params={{ project: params.project }}
              icon={AlertOctagon}
              label="Errors"
              keepFilters
            />
            <NavLink
              to="/projects/$project/setup"
              params={{ project: params.project }}
              icon={Rocket}
              label="Setup"
            />
            <NavLink
              to="/projects/$project/alerts"
              params={{ project: params.project }}
              icon={BellRing}
              label="Alerts"
            />
            <NavLink
              to="/projects/$project/settings"
              params={{ project: params.project }}
              icon={Settings2}
              label="Settings"
            />
          </nav>
        ) : null}
        <nav className={styles.navGroup} aria-label="Workspace">
          <span className={styles.navHeading}>Workspace</span>
          <NavLink to="/projects" icon={LayoutGrid} label="All projects" exact />
          <NavLink
            to="/invitations"
            icon={Inbox}
            label="Invitations"
            exact
            count={invitations.data?.invitations.length}
          />
          <NavLink to="/account" icon={UserRound} label="Account" />
          <a className={styles.navLink} href="/api/v1/docs">
            <BookOpen size={17} aria-hidden="true" />
            API reference
          </a>
        </nav>
        <div className={styles.spacer} />
        <UserMenu profile={me.data} />
      </aside>
      <div className={styles.main}>
        <header className={styles.topbar}>
          <Breadcrumbs />
          <div className={styles.topActions}>
            <ThemeToggle />
          </div>
        </header>
        <main id="main" className={styles.content} tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
