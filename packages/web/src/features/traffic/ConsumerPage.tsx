// One consumer: KPIs, traffic over time, the endpoints it calls (three calls, all with the
// consumer filter), then its recent requests and errors once those are on screen.
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { FilterBar } from "./FilterBar";
import { pickShared, TrafficCharts } from "./OverviewPage";
import { formatBytes, formatCount, formatMs, formatRate, Kpi, KpiGrid, MethodBadge } from "./parts";
import { noItems, QueryView, Quiet } from "./query-view";
import { RecentRequests } from "./RecentRequests";
import { trafficApi } from "./traffic-api";
import type { TimeWindow } from "./traffic-search";
import styles from "./Traffic.module.css";
import { useDataPainted, useTrafficPage, useTrafficSearch, windowParams } from "./use-traffic";

export function ConsumerPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const consumer = (useParams({ strict: false }) as { consumer?: string }).consumer ?? "";
  const base = { ...windowParams(search, window), consumer };
  const summary = useQuery(trafficApi.summary(project, base));
  const series = useQuery(trafficApi.timeseries(project, base));
  const endpoints = useQuery(
    trafficApi.endpoints(project, { ...base, sort_by: "total_requests", page_size: 25 }),
  );
  const painted = summary.isSuccess && series.isSuccess && endpoints.isSuccess;
  const marked = useDataPainted(painted);

  return (
    <Page>
      <PageHeader title={`Consumer ${consumer}`} description="Everything this consumer did in the window." />
      <FilterBar search={search} window={window} onRefresh={refresh} />
      <QueryView query={summary} what="the consumer's figures" rows={2}>
        {(s) => (
          <KpiGrid label="Key figures">
            <Kpi label="Requests" value={formatCount(s.total_requests)} />
            <Kpi label="Error rate" value={formatRate(s.error_rate)} />
            <Kpi label="4xx" value={formatCount(s.client_errors)} />
            <Kpi label="5xx" value={formatCount(s.server_errors)} />
            <Kpi label="p50" value={formatMs(s.p50_response_time_ms)} />
            <Kpi label="p95" value={formatMs(s.p95_response_time_ms)} />
            <Kpi label="Endpoints called" value={formatCount(s.unique_endpoints)} />
            <Kpi
              label="Data transferred"
              value={formatBytes(s.total_request_bytes + s.total_response_bytes)}
            />
          </KpiGrid>
        )}
      </QueryView>
      <TrafficCharts query={series} onZoom={(range) => setSearch({ ...range, range: undefined })} />
      <Card title="Endpoints it calls">
        <QueryView query={endpoints} what="the endpoints" rows={4}>
          {(data) => (
            <div className={table.wrap}>
              <table className={table.table} aria-label="Endpoints of this consumer">
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col" className={styles.num}>
                      Requests
                    </th>
                    <th scope="col" className={styles.num}>
                      Error rate
                    </th>
                    <th scope="col" className={styles.num}>
                      p95
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((row) => (
                    <tr key={`${row.app_id} ${row.method} ${row.path}`}>
                      <td>
                        <MethodBadge method={row.method} />{" "}
                        <Link
                          className={[styles.rowLink, styles.mono].join(" ")}
                          to="/projects/$project/endpoints/detail"
                          params={{ project }}
                          search={(previous: Record<string, unknown>) => ({
                            ...pickShared(previous),
                            app: row.app_slug ?? undefined,
                            method: row.method,
                            path: row.path,
                          })}
                        >
                          {row.path}
                        </Link>
                      </td>
                      <td className={styles.num}>{formatCount(row.total_requests)}</td>
                      <td className={styles.num}>{formatRate(row.error_rate)}</td>
                      <td className={styles.num}>{formatMs(row.p95_response_time_ms)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryView>
      </Card>
      <Card title="Recent requests">
        {marked ? (
          <RecentRequests
            project={project}
            filters={{ ...search, consumer }}
            window={window}
            openId={search.req}
            label="Recent requests of this consumer"
          />
        ) : (
          <SkeletonRows rows={4} label="Waiting for the figures" />
        )}
      </Card>
      <Card title="Recent errors">
        {marked ? (
          <RecentErrors project={project} consumer={consumer} window={window} />
        ) : (
          <SkeletonRows rows={3} label="Waiting for the figures" />
        )}
      </Card>
    </Page>
  );
}

function RecentErrors({
  project,
  consumer,
  window,
}: {
  project: string;
  consumer: string;
  window: TimeWindow;
}) {
  const search = useTrafficSearch();
  const errors = useQuery(
    trafficApi.errors(project, { ...windowParams(search, window), consumer, page_size: 10 }),
  );
  return (
    <QueryView
      query={errors}
      what="the errors"
      rows={3}
      empty={{ when: noItems, show: <Quiet>No failed requests for this consumer.</Quiet> }}
    >
      {(data) => (
        <div className={table.wrap}>
          <table className={table.table} aria-label="Errors of this consumer">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col" className={styles.num}>
                  Count
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((row) => (
                <tr key={`${row.app_id} ${row.method} ${row.path} ${row.status_code}`}>
                  <td>
                    <MethodBadge method={row.method} /> <span className={styles.mono}>{row.path}</span>
                  </td>
                  <td>{row.status_code}</td>
                  <td className={styles.num}>{formatCount(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryView>
  );
}
