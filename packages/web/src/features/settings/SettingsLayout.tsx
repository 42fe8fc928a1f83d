// Project settings: one header and tabs (General, Apps, API keys, Members, Audit log), each tab
// its own URL; tabs the caller's role cannot use are not offered.
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Outlet } from "@tanstack/react-router";
import { ErrorPanel } from "../../components/ui/Feedback";
import { Page, PageHeader } from "../../components/ui/Surface";
import { TabNav } from "../../components/ui/TabNav";
import { useProjectAccess } from "../../lib/access";
import { isApiError } from "../../lib/api-client";
import { projectQuery } from "../../lib/queries";
import styles from "./Settings.module.css";

const route = getRouteApi("/app/projects/$project/settings");

export function SettingsLayout() {
  const { project } = route.useParams();
  const info = useQuery(projectQuery(project));
  const access = useProjectAccess(project);
  if (info.isError && isApiError(info.error) && info.error.status === 404) {
    return (
      <Page>
        <ErrorPanel what="this project" error={info.error} />
      </Page>
    );
  }
  return (
    <Page>
      <div className={styles.layout}>
        <PageHeader
          title="Settings"
          description={
            info.data
              ? `Everything about ${info.data.name}: its apps, environments, endpoints, keys and team.${
                  access.role === undefined ? "" : ` Your role: ${access.role}.`
                }`
              : " "
          }
        />
        <TabNav
          label="Settings sections"
          tabs={[
            { to: "/projects/$project/settings", params: { project }, label: "General" },
            { to: "/projects/$project/settings/apps", params: { project }, label: "Apps", fuzzy: true },
            ...(access.can("keys:manage")
              ? [{ to: "/projects/$project/settings/keys", params: { project }, label: "API keys" }]
              : []),
            { to: "/projects/$project/settings/members", params: { project }, label: "Members" },
            ...(access.can("audit:read")
              ? [{ to: "/projects/$project/settings/audit-log", params: { project }, label: "Audit log" }]
              : []),
          ]}
        />
        <Outlet />
      </div>
    </Page>
  );
}
