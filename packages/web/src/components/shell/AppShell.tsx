// The signed-in frame: sidebar (project switcher, the project's sections, account) and a top
// bar (breadcrumbs, theme), around the current page. The sidebar's entries are the route tree's
// (`staticData.nav` in router.tsx), so a new page appears by declaring it there.
import { useQuery } from "@tanstack/react-query";
import { Link, Outlet, useLocation } from "@tanstack/react-router";
import { BookOpen, Menu } from "lucide-react";
import { useState } from "react";
import { sharedSearch } from "../../lib/filters";
import { meQuery, receivedInvitationsQuery } from "../../lib/queries";
import { Breadcrumbs } from "./Breadcrumbs";
import { CopyLinkButton } from "./CopyLinkButton";
import { Logo } from "./Logo";
import { PaletteLauncher } from "./PaletteLauncher";
import { useTitledRoutes } from "./navigation";
import { ProjectSwitcher } from "./ProjectSwitcher";
import styles from "./Shell.module.css";
import { ThemeToggle } from "./ThemeToggle";
import { UserMenu } from "./UserMenu";
import { useSidebarProject } from "./useSidebarProject";
import { useSlashToSearch } from "./useSlashToSearch";

/** A section of the sidebar: the routes whose `staticData.nav` names it, in the tree's order. */
function NavSection({
  section,
  project,
  counts = {},
}: {
  section: "project" | "workspace";
  project?: string;
  /** A number after an entry's label (pending invitations), by route id, left out when zero. */
  counts?: Readonly<Record<string, number | undefined>>;
}) {
  const routes = useTitledRoutes().filter((route) => route.options.staticData?.nav?.section === section);
  return (
    <>
      {routes.map((route) => {
        const meta = route.options.staticData;
        const nav = meta?.nav;
        if (nav === undefined) return null;
        const Icon = nav.icon;
        const count = counts[route.id];
        return (
          <Link
            key={route.id}
            to={route.to}
            params={project === undefined ? {} : { project }}
            search={nav.keepFilters ? (previous) => sharedSearch(previous) : undefined}
            className={styles.navLink}
            activeOptions={{ exact: nav.exact ?? false }}
            activeProps={{ "aria-current": "page" }}
          >
            <Icon size={17} aria-hidden="true" />
            {nav.label ?? meta?.title}
            {count ? (
              <span className={styles.navCount}>
                {count}
                <span className="visually-hidden"> pending</span>
              </span>
            ) : null}
          </Link>
        );
      })}
    </>
  );
}

export function AppShell() {
  const project = useSidebarProject();
  const me = useQuery(meQuery);
  const invitations = useQuery(receivedInvitationsQuery);
  useSlashToSearch();
  // Under 768 px the sidebar folds behind a menu button: the page's data comes first.
  // Opened on one page, it closes by itself once a link leads to another.
  const { pathname } = useLocation();
  const [menu, setMenu] = useState({ open: false, at: pathname });
  const menuOpen = menu.open && menu.at === pathname;
  const setMenuOpen = (open: boolean) => setMenu({ open, at: pathname });
  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <aside
        id="sidebar"
        className={styles.sidebar}
        aria-label="Sidebar"
        data-open={menuOpen}
        onKeyDown={(event) => {
          if (event.key === "Escape") setMenuOpen(false);
        }}
      >
        <Link to="/projects" className={styles.logoLink} aria-label="Sightline: all projects">
          <Logo />
        </Link>
        <ProjectSwitcher current={project} />
        {project !== undefined ? (
          <nav className={styles.navGroup} aria-label="Project">
            <span className={styles.navHeading}>Project</span>
            <NavSection section="project" project={project} />
          </nav>
        ) : null}
        <nav className={styles.navGroup} aria-label="Workspace">
          <span className={styles.navHeading}>Workspace</span>
          <NavSection
            section="workspace"
            counts={{ "/app/invitations": invitations.data?.invitations.length }}
          />
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
          <button
            type="button"
            className={styles.menuButton}
            aria-expanded={menuOpen}
            aria-controls="sidebar"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <Menu size={18} aria-hidden="true" />
            <span className="visually-hidden">Menu</span>
          </button>
          <Breadcrumbs />
          <div className={styles.topActions}>
            <PaletteLauncher />
            <CopyLinkButton />
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
