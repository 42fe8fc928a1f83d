// The project's uptime checks: each with its state, target, interval and uptime over 24 hours,
// 7 days and 30 days, opening the check's page; admins create checks from here.
import type { UptimeCheckWithUptime } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Activity } from "lucide-react";
import { DataTable } from "../../components/data/DataTable";
import { EmptyState, loadingOrFailed } from "../../components/ui/Feedback";
import { CollectionPage } from "../../components/ui/CollectionPage";
import { Card } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { useProjectAccess } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { checksQuery } from "./api";
import { percent, StateBadge, UPTIME_WINDOWS } from "./uptime-text";

const route = getRouteApi("/app/projects/$project/uptime");

export function UptimePage() {
  const { project } = route.useParams();
  const checks = useQuery(checksQuery(project));
  const timeZone = useTimeZone();
  const navigate = useNavigate();
  const canWrite = useProjectAccess(project).can("alerts:write");
  return (
    <CollectionPage
      project={project}
      title="Uptime"
      description="HTTP checks Sightline runs against your API on a schedule, and the share of them that succeeded."
      canWrite={canWrite}
      create={{ to: "/projects/$project/uptime/new", label: "New check" }}
    >
      {() =>
        loadingOrFailed(checks, { title: "Checks", what: "the uptime checks" }) ??
        (checks.data?.length === 0 ? (
          <Card>
            <EmptyState icon={Activity} title="No uptime checks yet">
              {canWrite
                ? "Create one with “New check”: a URL, an interval of 30 s or more, and the status and body text that mean it is up."
                : "An admin or owner of the project creates them."}
            </EmptyState>
          </Card>
        ) : (
          <Card title="Checks">
            <DataTable
              label="Uptime checks"
              rows={checks.data ?? []}
              rowKey={(item) => item.check.id}
              rowLabel={(item) => item.check.name}
              onOpen={(item) =>
                void navigate({
                  to: "/projects/$project/uptime/$checkId",
                  params: { project, checkId: item.check.id },
                })
              }
              exportName="uptime-checks"
              columns={[
                {
                  header: "Check",
                  cell: (item) => (
                    <Link
                      to="/projects/$project/uptime/$checkId"
                      params={{ project, checkId: item.check.id }}
                    >
                      {item.check.name}
                    </Link>
                  ),
                },
                {
                  header: "State",
                  cell: (item) => <StateBadge state={item.check.state} enabled={item.check.enabled} />,
                },
                {
                  header: "Target",
                  className: table.muted,
                  cell: (item) => `${item.check.method} ${item.check.url}`,
                },
                ...UPTIME_WINDOWS.map((window) => ({
                  header: window.label,
                  numeric: true,
                  cell: (item: UptimeCheckWithUptime) => percent(item.uptime[window.key]),
                })),
                {
                  header: "Last check",
                  className: table.muted,
                  cell: (item) =>
                    item.check.last_checked_at === null
                      ? "—"
                      : formatDateTime(item.check.last_checked_at, timeZone),
                },
              ]}
            />
          </Card>
        ))
      }
    </CollectionPage>
  );
}
