// One uptime check, where its notifications link to: state and target, uptime over 24 hours,
// 7 days and 30 days, the latency of each run over the last 24 hours, and the recent failures;
// admins edit or delete it from here.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { CircleCheck, Pencil, Trash2 } from "lucide-react";
import { TimeSeriesChart } from "../../components/charts";
import { DataTable } from "../../components/data/DataTable";
import { Button, buttonClass } from "../../components/ui/Button";
import { ConfirmDialog, useConfirmation } from "../../components/ui/Dialog";
import { EmptyState, loadingOrFailed } from "../../components/ui/Feedback";
import { Card, Grid2, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { useToast } from "../../components/ui/Toast";
import { useProjectAccess } from "../../lib/access";
import { formatDateTime, formatLatency } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { checkQuery, resultsQuery, uptimeApi, uptimeKeys } from "./api";
import { percent, StateBadge, UPTIME_WINDOWS } from "./uptime-text";

const route = getRouteApi("/app/projects/$project/uptime/$checkId");

export function CheckPage() {
  const { project, checkId } = route.useParams();
  const check = useQuery(checkQuery(project, checkId));
  const results = useQuery(resultsQuery(project, checkId, false));
  const failures = useQuery(resultsQuery(project, checkId, true));
  const timeZone = useTimeZone();
  const canWrite = useProjectAccess(project).can("alerts:write");
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => uptimeApi.delete(project, checkId),
    onSuccess: () => {
      toast(`Check “${check.data?.check.name ?? ""}” deleted`);
      queryClient.removeQueries({ queryKey: uptimeKeys.check(project, checkId) });
      void queryClient.invalidateQueries({ queryKey: uptimeKeys.checks(project) });
      void navigate({ to: "/projects/$project/uptime", params: { project } });
    },
  });
  const confirmRemove = useConfirmation(remove);
  const loading = loadingOrFailed(check, { title: "Check", what: "the uptime check" });
  if (loading !== null || check.data === undefined) return <Page>{loading}</Page>;
  const { check: item, uptime } = check.data;
  // Oldest first for the chart: one point per run.
  const runs = [...(results.data?.items ?? [])].reverse();
  return (
    <Page>
      <PageHeader
        title={item.name}
        description={
          <>
            <StateBadge state={item.state} enabled={item.enabled} /> {item.method} {item.url} · every{" "}
            {item.interval_seconds} s · expects HTTP {item.expected_status}
            {item.body_contains === null ? "" : ` containing “${item.body_contains}”`} · alerts after{" "}
            {item.failure_threshold} consecutive failures
          </>
        }
        actions={
          canWrite ? (
            <>
              <Link
                className={buttonClass()}
                to="/projects/$project/uptime/$checkId/edit"
                params={{ project, checkId }}
              >
                <Pencil size={16} aria-hidden="true" />
                Edit
              </Link>
              <Button variant="danger" onClick={confirmRemove.show}>
                <Trash2 size={16} aria-hidden="true" />
                Delete
              </Button>
            </>
          ) : null
        }
      />
      <Grid2>
        <Card title="Uptime">
          <dl className={table.muted}>
            {UPTIME_WINDOWS.map((window) => (
              <div key={window.key}>
                <dt>{window.label}</dt>
                <dd data-testid={`uptime-${window.key}`}>{percent(uptime[window.key])}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Last check">
          <p>
            {item.last_checked_at === null ? "Not run yet." : formatDateTime(item.last_checked_at, timeZone)}
            {item.last_error === null ? "" : ` — ${item.last_error}`}
          </p>
        </Card>
      </Grid2>
      <Card title="Latency, last 24 hours">
        {loadingOrFailed(results, { title: "Latency", what: "the results" }) ??
          (runs.length === 0 ? (
            <p>No results in the last 24 hours.</p>
          ) : (
            <TimeSeriesChart
              label="Latency of each check"
              buckets={runs.map((run) => run.timestamp)}
              bucketMs={item.interval_seconds * 1000}
              series={[
                {
                  key: "latency",
                  label: "Latency (ms)",
                  color: "--accent",
                  values: runs.map((run) => run.latency_ms),
                },
              ]}
              mode="lines"
              formatValue={formatLatency}
              timeZone={timeZone}
            />
          ))}
      </Card>
      <Card title="Recent failures">
        {loadingOrFailed(failures, { title: "Failures", what: "the failures" }) ??
          (failures.data?.items.length === 0 ? (
            <EmptyState icon={CircleCheck} title="No failures in the last 24 hours" />
          ) : (
            <DataTable
              label="Recent failures"
              rows={failures.data?.items ?? []}
              rowKey={(run) => run.timestamp}
              columns={[
                { header: "Time", cell: (run) => formatDateTime(run.timestamp, timeZone) },
                {
                  header: "Status",
                  cell: (run) => (run.status_code === null ? "no answer" : String(run.status_code)),
                },
                { header: "Error", className: table.muted, cell: (run) => run.error ?? "" },
                { header: "Latency", numeric: true, cell: (run) => formatLatency(run.latency_ms) },
              ]}
            />
          ))}
      </Card>
      <ConfirmDialog
        {...confirmRemove.dialog}
        title={`Delete “${item.name}”?`}
        consequences={[
          "Sightline stops calling the URL and nobody hears about it any more.",
          "Its results stay until their retention ends.",
        ]}
        confirmLabel="Delete check"
      />
    </Page>
  );
}
