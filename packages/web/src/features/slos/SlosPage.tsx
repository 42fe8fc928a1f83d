// The project's SLOs: each objective with its attainment, error budget left, burn-rate state,
// window and target, and for admins and owners the way to create one (or one per consumer).
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { Gauge } from "lucide-react";
import { DataTable } from "../../components/data/DataTable";
import { ListQueryCard } from "../../components/data/QueryView";
import { CollectionPage } from "../../components/ui/CollectionPage";
import { EmptyState } from "../../components/ui/Feedback";
import { useProjectAccess } from "../../lib/access";
import { useDataPainted } from "../../lib/page-state";
import { slosQuery } from "./api";
import { MeetingBadge, SloLink, SloStateBadge } from "./SloParts";
import { formatBudget, formatPercent, scopeText, sliText } from "./slo-text";
import text from "../../components/data/Text.module.css";

const route = getRouteApi("/app/projects/$project/slos");

export function SlosPage() {
  const { project } = route.useParams();
  const canWrite = useProjectAccess(project).can("alerts:write");
  const slos = useQuery(slosQuery(project));
  useDataPainted(slos.isSuccess);

  return (
    <CollectionPage
      project={project}
      title="Service levels"
      description="Objectives for the share of good requests over a rolling window, the error budget they leave, and burn-rate alerts when it is spent too fast."
      canWrite={canWrite}
      readOnly="You can see the SLOs and their budgets. Admins and owners of the project change them."
      create={{ to: "/projects/$project/slos/new", label: "New SLO" }}
    >
      {(newSlo) => (
        <ListQueryCard
          query={slos}
          title="SLOs"
          what="the SLOs"
          labelledBy="slos-title"
          empty={
            <EmptyState icon={Gauge} title="No SLOs yet" action={newSlo}>
              An SLO promises a level, such as 99.9 % of checkout calls answered without a server error over
              30 days, and tracks the budget of failures that leaves.
            </EmptyState>
          }
        >
          {(rows) => (
            <DataTable
              label="SLOs"
              rows={rows}
              rowKey={(row) => row.slo.id}
              columns={[
                {
                  header: "SLO",
                  cell: ({ slo }) => (
                    <>
                      <SloLink project={project} slo={slo} />
                      <span className={text.sub}>
                        {scopeText(slo.scope)} · {sliText(slo.sli)}
                      </span>
                    </>
                  ),
                },
                {
                  header: "Attainment",
                  numeric: true,
                  cell: ({ status }) => formatPercent(status?.attainment ?? null),
                },
                { header: "Target", numeric: true, cell: ({ slo }) => formatPercent(slo.target) },
                {
                  header: "Budget left",
                  numeric: true,
                  cell: ({ status }) => formatBudget(status?.error_budget.remaining ?? null),
                },
                {
                  header: "Status",
                  cell: ({ slo, status }) => (
                    <>
                      <SloStateBadge state={status?.state ?? slo.state} />{" "}
                      {status ? <MeetingBadge meeting={status.meeting} /> : null}
                    </>
                  ),
                },
                { header: "Window", numeric: true, cell: ({ slo }) => `${slo.window_days} days` },
              ]}
            />
          )}
        </ListQueryCard>
      )}
    </CollectionPage>
  );
}
