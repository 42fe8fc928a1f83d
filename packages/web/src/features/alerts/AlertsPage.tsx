// The project's alerts: every rule with its state, condition, scope and last value, and the
// notification channels. Admins and owners get the controls; everyone else reads.
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { BellRing } from "lucide-react";
import { CollectionPage } from "../../components/ui/CollectionPage";
import { EmptyState } from "../../components/ui/Feedback";
import { WhenCell } from "../../components/data/cells";
import { DataTable } from "../../components/data/DataTable";
import { ListQueryCard } from "../../components/data/QueryView";
import { useProjectAccess } from "../../lib/access";
import { rulesQuery } from "./api";
import text from "../../components/data/Text.module.css";
import { ChannelsCard } from "./ChannelsCard";
import { conditionText, formatMetricValue, scopeText } from "./rule-text";
import { StateBadges } from "./StateBadges";

const route = getRouteApi("/app/projects/$project/alerts");

export function AlertsPage() {
  const { project } = route.useParams();
  const canWrite = useProjectAccess(project).can("alerts:write");
  const rules = useQuery(rulesQuery(project));

  return (
    <CollectionPage
      project={project}
      title="Alerts"
      description="Rules watch error rate, latency and traffic, and notify your channels when something starts failing and when it recovers."
      canWrite={canWrite}
      readOnly="You can see the rules, their history and the channels. Admins and owners of the project change them."
      create={{ to: "/projects/$project/alerts/new", label: "New rule" }}
    >
      {(newRule) => (
        <>
          <ListQueryCard
            query={rules}
            title="Rules"
            what="the alert rules"
            labelledBy="rules-title"
            empty={
              <EmptyState icon={BellRing} title="No alert rules yet" action={newRule}>
                A rule watches a metric of the project, an app or an endpoint, and tells you when it crosses a
                threshold.
              </EmptyState>
            }
          >
            {(rows) => (
              <DataTable
                label="Alert rules"
                rows={rows}
                rowKey={(rule) => rule.id}
                columns={[
                  {
                    header: "Rule",
                    cell: (rule) => (
                      <>
                        <Link
                          className={text.name}
                          to="/projects/$project/alerts/$alertId"
                          params={{ project, alertId: rule.id }}
                        >
                          {rule.name}
                        </Link>
                        <span className={text.sub}>{scopeText(rule.scope)}</span>
                      </>
                    ),
                  },
                  { header: "State", cell: (rule) => <StateBadges rule={rule} /> },
                  { header: "Condition", cell: (rule) => conditionText(rule) },
                  {
                    header: "Last value",
                    numeric: true,
                    cell: (rule) => formatMetricValue(rule.metric, rule.last_value),
                  },
                  {
                    header: "Evaluated",
                    cell: (rule) => (
                      <WhenCell iso={rule.last_evaluated_at} zone={undefined} never="Not yet" />
                    ),
                  },
                ]}
              />
            )}
          </ListQueryCard>
          <ChannelsCard project={project} canWrite={canWrite} />
        </>
      )}
    </CollectionPage>
  );
}
