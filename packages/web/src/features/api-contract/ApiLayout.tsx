// The project's API section: one header and tabs (Contract, Declared vs observed, Changes,
// Alerts), each its own URL; the app and environment picked travel in the search.
import { getRouteApi, Outlet } from "@tanstack/react-router";
import { Page, PageHeader } from "../../components/ui/Surface";
import { TabNav } from "../../components/ui/TabNav";
import styles from "./Api.module.css";

const route = getRouteApi("/app/projects/$project/api");

export function ApiLayout() {
  const { project } = route.useParams();
  return (
    <Page>
      <div className={styles.layout}>
        <PageHeader
          title="API"
          description="The OpenAPI contract Sightline infers from each app's traffic, how it compares with the document you declare, and every change with the consumers it hits."
        />
        <TabNav
          label="API sections"
          tabs={[
            { to: "/projects/$project/api", params: { project }, label: "Contract" },
            { to: "/projects/$project/api/report", params: { project }, label: "Declared vs observed" },
            { to: "/projects/$project/api/changes", params: { project }, label: "Changes", fuzzy: true },
            { to: "/projects/$project/api/alerts", params: { project }, label: "Alerts" },
          ]}
        />
        <Outlet />
      </div>
    </Page>
  );
}
