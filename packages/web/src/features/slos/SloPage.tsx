// One SLO, where burn-rate notifications link to: attainment and budget left, the budget
// burn-down over the window, burn rates over 5 min to 6 h against the alert thresholds, the
// requests that spent the budget (the Requests page, filtered), and the history of its state.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ArrowRight, History, Trash2 } from "lucide-react";
import { useState } from "react";
import { BarList, TimeSeriesChart } from "../../components/charts";
import { formatCount, Kpi, KpiGrid } from "../../components/data/parts";
import { PageQuery, QueryView } from "../../components/data/QueryView";
import { DataTable } from "../../components/data/DataTable";
import { Button, buttonClass } from "../../components/ui/Button";
import { ConfirmDialog } from "../../components/ui/Dialog";
import { EmptyState } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { useDataPainted } from "../../lib/page-state";
import { useTimeZone } from "../../lib/use-time-zone";
import {
  SLO_EVENTS_PAGE_SIZE,
  sloBurnDownQuery,
  sloEventsQuery,
  sloKeys,
  sloQuery,
  slosApi,
  sloStatusQuery,
} from "./api";
import { MeetingBadge, SloStateBadge } from "./SloParts";
import {
  burnDownSeries,
  burnRows,
  formatBudget,
  formatBurnRate,
  formatMinutes,
  formatPercent,
  objectiveText,
  scopeText,
  sliText,
} from "./slo-text";

const route = getRouteApi("/app/projects/$project/slos/$sloId");
const DAY_MS = 86_400_000;

export function SloPage() {
  const { project, sloId } = route.useParams();
  const page = route.useSearch().page ?? 1;
  const timeZone = useTimeZone();
  const canWrite = useProjectAccess(project).can("alerts:write");
  const slo = useQuery(sloQuery(project, sloId));
  const status = useQuery(sloStatusQuery(project, sloId));
  const burnDown = useQuery(sloBurnDownQuery(project, sloId));
  const events = useQuery(sloEventsQuery(project, sloId, page));
  useDataPainted(slo.isSuccess && status.isSuccess);

  return (
    <PageQuery query={slo} what="the SLO">
      {(s) => (
        <Page>
          <PageHeader
            title={s.name}
            description={`${scopeText(s.scope)} · ${sliText(s.sli)} · ${objectiveText(s)}`}
            actions={canWrite ? <DeleteSlo project={project} id={s.id} name={s.name} /> : undefined}
          />
          <QueryView query={status} what="the SLO's status" rows={2}>
            {(st) => (
              <>
                <KpiGrid label="Status">
                  <Kpi label="Attainment" value={formatPercent(st.attainment)} />
                  <Kpi label="Target" value={formatPercent(s.target)} />
                  <Kpi label="Budget left" value={formatBudget(st.error_budget.remaining)} />
                  <Kpi label="Requests in window" value={formatCount(st.requests)} />
                  <Kpi label="Failed" value={formatCount(st.bad)} />
                  <Kpi
                    label="State"
                    value={
                      <>
                        <SloStateBadge state={st.state} /> <MeetingBadge meeting={st.meeting} />
                      </>
                    }
                  />
                </KpiGrid>
                <Card
                  title="Requests that spent the budget"
                  description={
                    st.bad_requests.exact
                      ? `${formatCount(st.bad)} failed requests in the window.`
                      : "The request search cannot express the whole scope: it shows a superset of the failed requests."
                  }
                >
                  <a className={buttonClass({ variant: "secondary" })} href={st.bad_requests.dashboard_path}>
                    Open them on the Requests page
                    <ArrowRight size={16} aria-hidden="true" />
                  </a>
                </Card>
                <Card
                  title="Burn rate"
                  description="How many times faster than allowed the budget burns. Fast burn alerts when both its windows exceed the fast threshold, slow burn likewise."
                >
                  <BarList
                    label="Burn rate by window"
                    formatValue={(value) => formatBurnRate(value)}
                    items={burnRows(s, st).map((row) => ({
                      key: String(row.minutes),
                      label: `${formatMinutes(row.minutes)} · ${row.condition} threshold ${formatBurnRate(row.threshold)}${row.rate === null ? " · no requests" : ""}`,
                      value: row.rate ?? 0,
                      color: row.over ? "--danger" : "--success",
                    }))}
                  />
                </Card>
              </>
            )}
          </QueryView>
          <Card
            title="Error budget burn-down"
            description={`Percent of the ${s.window_days}-day budget left at the end of each day (UTC).`}
          >
            <QueryView query={burnDown} what="the burn-down" rows={4}>
              {(data) => {
                const shaped = burnDownSeries(data.days);
                return (
                  <TimeSeriesChart
                    label="Error budget left by day"
                    buckets={shaped.buckets}
                    bucketMs={DAY_MS}
                    mode="lines"
                    integers={false}
                    formatValue={(value) => formatBudget(value)}
                    series={[
                      { key: "remaining", label: "Budget left", color: "--accent", values: shaped.remaining },
                      { key: "spent", label: "Spent that day", color: "--danger", values: shaped.spent },
                    ]}
                    {...(timeZone === undefined ? {} : { timeZone })}
                  />
                );
              }}
            </QueryView>
          </Card>
          <Card title="Status history">
            <QueryView query={events} what="the history" rows={3}>
              {(data) =>
                data.items.length === 0 ? (
                  <EmptyState icon={History} title="No state changes yet">
                    Each time a burn-rate condition starts or stops holding, it is listed here with what the
                    channels were told.
                  </EmptyState>
                ) : (
                  <DataTable
                    label="Status history"
                    rows={data.items}
                    rowKey={(event) => event.id}
                    pager={{
                      page: data.page,
                      pageSize: SLO_EVENTS_PAGE_SIZE,
                      total: data.total_count,
                      what: "changes",
                    }}
                    columns={[
                      { header: "When", cell: (event) => formatDateTime(event.created_at, timeZone) },
                      {
                        header: "Change",
                        cell: (event) => (
                          <>
                            <SloStateBadge state={event.from_state} /> →{" "}
                            <SloStateBadge state={event.to_state} />
                          </>
                        ),
                      },
                      {
                        header: "Burn rates",
                        numeric: true,
                        cell: (event) =>
                          `${formatBurnRate(event.long_burn_rate)} (${formatMinutes(event.long_window_minutes)}) · ${formatBurnRate(event.short_burn_rate)} (${formatMinutes(event.short_window_minutes)})`,
                      },
                      {
                        header: "Threshold",
                        numeric: true,
                        cell: (event) => formatBurnRate(event.threshold),
                      },
                      {
                        header: "Notified",
                        cell: (event) =>
                          event.reason === "slo_changed"
                            ? "SLO changed"
                            : event.notifications.length === 0
                              ? "No channels"
                              : event.notifications.map((n) => `${n.channel_name}: ${n.status}`).join(", "),
                      },
                    ]}
                  />
                )
              }
            </QueryView>
          </Card>
          <Link to="/projects/$project/slos" params={{ project }}>
            All SLOs
          </Link>
        </Page>
      )}
    </PageQuery>
  );
}

function DeleteSlo({ project, id, name }: { project: string; id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => slosApi.delete(project, id),
    onSuccess: () => {
      toast(`SLO “${name}” deleted`);
      void queryClient.invalidateQueries({ queryKey: sloKeys.all(project) });
      void navigate({ to: "/projects/$project/slos", params: { project } });
    },
  });
  return (
    <>
      <Button variant="dangerOutline" onClick={() => setOpen(true)}>
        <Trash2 size={16} aria-hidden="true" />
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete “${name}”?`}
        confirmLabel="Delete SLO"
        consequences={["Its status history goes with it.", "Its channels hear nothing more about it."]}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
