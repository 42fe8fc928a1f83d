// Recent traces: one row per trace (root span, service, duration, span count, whether any span
// failed), filtered by the shared bar's range, app and environment plus a minimum duration, paged
// through the URL; each row opens the trace.
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { AlertOctagon } from "lucide-react";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { FilterBar } from "../traffic/FilterBar";
import { Failed, formatMs, Pager, Updating } from "../traffic/parts";
import { TextFilter } from "../traffic/TextFilter";
import trafficStyles from "../traffic/Traffic.module.css";
import {
  useDataPainted,
  useProjectSlug,
  useSetSearch,
  useTimeWindow,
  useTrafficSearch,
} from "../traffic/use-traffic";
import { traceApi } from "./trace-api";
import styles from "./Traces.module.css";

const PAGE_SIZE = 50;

export function TracesPage() {
  const project = useProjectSlug();
  const search = useTrafficSearch();
  const setSearch = useSetSearch();
  const navigate = useNavigate();
  const zone = useTimeZone();
  const { window, refresh } = useTimeWindow(search);
  const page = search.page ?? 1;
  const traces = useQuery(
    traceApi.traces(project, {
      app_slugs: search.app,
      environment: search.env,
      since: window.since,
      until: window.until,
      min_duration: search.min_ms,
      page,
      page_size: PAGE_SIZE,
    }),
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
        <TextFilter
          label="Min duration ms"
          type="number"
          width="8"
          value={search.min_ms?.toString()}
          onCommit={(v) => setSearch({ min_ms: v === undefined ? undefined : Number(v), page: undefined })}
        />
      </FilterBar>
      <Card
        title={
          <>
            Traces <Updating active={traces.isPlaceholderData} />
          </>
        }
      >
        {traces.isError ? (
          <Failed error={traces.error} what="the traces" retry={() => void traces.refetch()} />
        ) : traces.data === undefined ? (
          <SkeletonRows rows={8} label="Loading the traces" />
        ) : traces.data.items.length === 0 ? (
          <p className={trafficStyles.updating}>
            No traces match between {formatDateTime(window.since, zone)} and{" "}
            {formatDateTime(window.until, zone)}.
          </p>
        ) : (
          <>
            <div className={table.wrap}>
              <table className={table.table} aria-label="Traces">
                <thead>
                  <tr>
                    <th scope="col">Started</th>
                    <th scope="col">Root span</th>
                    <th scope="col">Service</th>
                    <th scope="col">App · env</th>
                    <th scope="col" className={trafficStyles.num}>
                      Duration
                    </th>
                    <th scope="col" className={trafficStyles.num}>
                      Spans
                    </th>
                    <th scope="col">Outcome</th>
                  </tr>
                </thead>
                <tbody>
                  {traces.data.items.map((row) => (
                    <tr
                      key={row.trace_id}
                      className={trafficStyles.clickRow}
                      data-trace-id={row.trace_id}
                      onClick={() => open(row.trace_id)}
                    >
                      <td className={trafficStyles.num}>{formatDateTime(row.started_at, zone)}</td>
                      <td>
                        {/* The link is the keyboard's way in; the whole row is the pointer's. */}
                        <Link
                          className={trafficStyles.rowLink}
                          to="/projects/$project/traces/$traceId"
                          params={{ project, traceId: row.trace_id }}
                        >
                          {row.root.name}
                        </Link>{" "}
                        <span className={styles.kind}>{row.root.kind}</span>
                      </td>
                      <td className={[trafficStyles.mono, styles.nowrap].join(" ")}>
                        {row.root.service_name || "—"}
                      </td>
                      <td>
                        {appSlugOf(row.root.app_id) ?? "—"} · {row.root.environment}
                      </td>
                      <td className={trafficStyles.num}>{formatMs(row.duration_ms)}</td>
                      <td className={trafficStyles.num}>{row.span_count}</td>
                      <td>
                        {row.error ? (
                          <span className={styles.errorMark}>
                            <AlertOctagon size={12} aria-hidden="true" />
                            error
                          </span>
                        ) : (
                          "ok"
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={traces.data.total_count} what="traces" />
          </>
        )}
      </Card>
    </Page>
  );
}
