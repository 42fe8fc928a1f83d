// The account area: the person's profile and their security (password, sessions, deletion).
import { Outlet } from "@tanstack/react-router";
import { Page, PageHeader } from "../../components/ui/Surface";
import { TabNav } from "../../components/ui/TabNav";
import styles from "./Account.module.css";

export function AccountLayout() {
  return (
    <Page>
      <div className={styles.layout}>
        <PageHeader
          title="Account"
          description="Your profile, how you sign in, and where you are signed in."
        />
        <TabNav
          label="Account sections"
          tabs={[
            { to: "/account", label: "Profile" },
            { to: "/account/security", label: "Security" },
          ]}
        />
        <Outlet />
      </div>
    </Page>
  );
}
