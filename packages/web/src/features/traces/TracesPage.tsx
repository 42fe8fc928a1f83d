// Recent traces: one row per trace (root span, service, duration, span count, whether any span
// failed), filtered by the shared bar's range, app and environment plus a minimum duration, paged
// through the URL; each row opens the trace.
import type { TraceSummary } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { EXPLORER_PAGE_SIZE, ExplorerCard } from "../../components/data/ListCard";
import { AlertOctagon } from "lucide-react";
import trafficStyles from "../../components/data/Data.module.css";
import type { Column } from "../../components/data/DataTable";
import { FilterBar } from "../../components/data/FilterBar";
import { formatMs } from "../../components/data/parts";
import { UrlNumberFilter } from "../../components/data/UrlFilters";
import { Page, PageHeader } from "../../components/ui/Surface";
import { tracesQuery } from "../../lib/api-params";
import { formatDateTime } from "../../lib/format";
import { useDataPage, useDataPainted } from "../../lib/page-state";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { traceApi } from "./trace-api";
import styles from "./Traces.module.css";

export function TracesPage() {
  const { project, search, window, refresh } = useDataPage();
  const navigate = useNavigate();
  const zone = useTimeZone();
  const page = search.page ?? 1;
  const traces = useQuery(
    traceApi.traces(project, { ...tracesQuery(search, window), page, page_size: EXPLORER_PAGE_SIZE }),
  );
  useDataPainted(traces.isSuccess);
  const apps = useQuery(appsQuery(project));
  const appSlugOf = (id: string) => apps.data?.find((app) => app.id === id)?.slug;
  const open = (traceId: string) =>
    void navigate({ to: "/projects/$project/traces/$traceId", params: { project, traceId } });

  return (
    <Page>
      <PageHeader
        title="Traces"
        description="Recent traces, newest first: one row per trace, named by its root span."
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <UrlNumberFilter param="min_ms" label="Min duration ms" width="8" />
      </FilterBar>
      <ExplorerCard
        kind="traces"
        window={window}
        zone={zone}
        query={traces}
        page={page}
        columns={traceColumns(project, zone, appSlugOf)}
        rowKey={(row) => row.trace_id}
        rowData={(row) => ({ "data-trace-id": row.trace_id })}
        onOpen={(row) => open(row.trace_id)}
      />
    </Page>
  );
}

function traceColumns(
  project: string,
  zone: string | undefined,
  appSlugOf: (id: string) => string | undefined,
): Column<TraceSummary>[] {
  return [
    { header: "Started", numeric: true, cell: (row) => formatDateTime(row.started_at, zone) },
    {
      header: "Root span",
      cell: (row) => (
        <>
          <Link
            className={trafficStyles.rowLink}
            to="/projects/$project/traces/$traceId"
            params={{ project, traceId: row.trace_id }}
          >
            {row.root.name}
          </Link>{" "}
          <span className={styles.kind}>{row.root.kind}</span>
        </>
      ),
    },
    {
      header: "Service",
      className: [trafficStyles.mono, styles.nowrap].join(" "),
      cell: (row) => row.root.service_name || "—",
    },
    { header: "App · env", cell: (row) => `${appSlugOf(row.root.app_id) ?? "—"} · ${row.root.environment}` },
    { header: "Duration", numeric: true, cell: (row) => formatMs(row.duration_ms) },
    { header: "Spans", numeric: true, cell: (row) => row.span_count },
    {
      header: "Outcome",
      cell: (row) =>
        row.error ? (
          <span className={styles.errorMark}>
            <AlertOctagon size={12} aria-hidden="true" />
            error
          </span>
        ) : (
          "ok"
        ),
    },
  ];
}
