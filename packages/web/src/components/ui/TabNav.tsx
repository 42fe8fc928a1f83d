// Section tabs that are links: each view has its own URL, and the current one is marked.
import { Link, useMatchRoute } from "@tanstack/react-router";
import type { ReactNode } from "react";
import styles from "./TabNav.module.css";

export interface TabLink {
  readonly to: string;
  readonly params?: Record<string, string>;
  readonly label: ReactNode;
  /** Also current on deeper paths (an app's page under "Apps"). */
  readonly fuzzy?: boolean;
}

export function TabNav({ tabs, label }: { tabs: readonly TabLink[]; label: string }) {
  const matchRoute = useMatchRoute();
  return (
    <nav className={styles.nav} aria-label={label}>
      {tabs.map((tab) => {
        const current = Boolean(matchRoute({ to: tab.to, params: tab.params, fuzzy: tab.fuzzy ?? false }));
        return (
          <Link
            key={tab.to}
            to={tab.to}
            params={tab.params}
            className={styles.tab}
            aria-current={current ? "page" : undefined}
            activeOptions={{ exact: !tab.fuzzy }}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
