// Project settings: one header and tabs (General, Apps, API keys), each tab its own URL.
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Outlet } from "@tanstack/react-router";
import { ErrorPanel } from "../../components/ui/Feedback";
import { Page, PageHeader } from "../../components/ui/Surface";
import { TabNav } from "../../components/ui/TabNav";
import { isApiError } from "../../lib/api-client";
import { projectQuery } from "../../lib/queries";
import styles from "./Settings.module.css";

const route = getRouteApi("/app/projects/$project/settings");

export function SettingsLayout() {
  const { project } = route.useParams();
  const info = useQuery(projectQuery(project));
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
              ? `Everything about ${info.data.name}: its apps, environments, endpoints and keys.`
              : " "
          }
        />
        <TabNav
          label="Settings sections"
          tabs={[
            { to: "/projects/$project/settings", params: { project }, label: "General" },
            { to: "/projects/$project/settings/apps", params: { project }, label: "Apps", fuzzy: true },
            { to: "/projects/$project/settings/keys", params: { project }, label: "API keys" },
          ]}
        />
        <Outlet />
      </div>
    </Page>
  );
}
