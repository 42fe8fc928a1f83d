// The app and environment a contract view reads: chosen in the URL, else the project's first
// app and that app's first environment; the pickers change the URL.
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { AppSelect, EnvironmentSelect } from "../../components/forms/ScopeSelects";
import { appsQuery, environmentsQuery } from "../../lib/queries";
import type { Scope } from "./api";
import type { ApiSearch } from "./api-search";
import styles from "./Api.module.css";

export interface ScopeState {
  /** Undefined while the apps load, or when the project has no app or environment yet. */
  readonly scope: Scope | undefined;
  readonly loading: boolean;
  readonly pickers: React.ReactNode;
}

export function useScope(project: string, search: ApiSearch): ScopeState {
  const navigate = useNavigate();
  const apps = useQuery(appsQuery(project));
  const app = search.app ?? apps.data?.[0]?.slug;
  const environments = useQuery({ ...environmentsQuery(project, app ?? ""), enabled: app !== undefined });
  const environment = search.environment ?? environments.data?.[0]?.name;
  const set = (patch: Partial<ApiSearch>) =>
    void navigate({ to: ".", search: (previous: ApiSearch) => ({ ...previous, ...patch }), replace: true });
  const pickers = (
    <div className={styles.pickers}>
      <AppSelect
        project={project}
        value={app ?? ""}
        onChange={(event) => set({ app: event.target.value, environment: undefined })}
      />
      <EnvironmentSelect
        project={project}
        app={app ?? ""}
        value={environment ?? ""}
        onChange={(event) => set({ environment: event.target.value })}
      />
    </div>
  );
  return {
    scope: app !== undefined && environment !== undefined ? { app, environment } : undefined,
    loading: apps.isPending || (app !== undefined && environments.isPending),
    pickers,
  };
}
