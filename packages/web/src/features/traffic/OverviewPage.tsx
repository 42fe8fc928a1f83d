// The project overview: KPIs with the change against the previous period, requests and latency
// over time (drag to zoom), and the endpoint table. First paint makes three calls (summary,
// timeseries, endpoints); the previous period's summary follows once those are on screen.
import type { Timeseries } from "@sightline/contracts";
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Rocket } from "lucide-react";
import { TimeSeriesChart } from "../../components/charts";
import { buttonClass } from "../../components/ui/Button";
import { EmptyState, SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { FilterBar } from "./FilterBar";
import {
  Failed,
  formatBytes,
  formatCount,
  formatMs,
  formatRate,
  Kpi,
  KpiGrid,
  latencySeries,
  MethodBadge,
  Pager,
  requestSeries,
  SortHeader,
} from "./parts";
import { noItems, QueryCard, QueryView, Quiet } from "./query-view";
import { trafficApi } from "./traffic-api";
import { intervalMs, previousWindow } from "./traffic-search";
import styles from "./Traffic.module.css";
import { tableOrder, useDataPainted, useTrafficPage, windowParams } from "./use-traffic";

const PAGE_SIZE = 25;

export function OverviewPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const zone = useTimeZone();
  const base = windowParams(search, window);
  const summary = useQuery(trafficApi.summary(project, base));
  const series = useQuery(trafficApi.timeseries(project, base));
  const { sort, dir, page } = tableOrder(search, "total_requests", "endpoint");
  const endpoints = useQuery(
    trafficApi.endpoints(project, {
      ...base,
      q: search.q,
      sort_by: sort,
      sort_dir: dir,
      page,
      page_size: PAGE_SIZE,
    }),
  );
  const painted = summary.isSuccess && series.isSuccess && endpoints.isSuccess;
  const marked = useDataPainted(painted);
  const previous = useQuery({
    ...trafficApi.summary(project, { ...base, ...previousWindow(window) }),
    enabled: marked && summary.data !== undefined && summary.data.total_requests > 0,
  });
  const prev = previous.data;
  const minutes = window.ms / 60_000;

  return (
    <Page>
      <PageHeader title="Overview" description="What your API did in this window, and what failed." />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <label className={styles.filter}>
          <span>Search endpoints</span>
          <input
            type="search"
            className={styles.searchInput}
            defaultValue={search.q ?? ""}
            placeholder="Route or method"
            onChange={(event) =>
              setSearch({ q: event.target.value || undefined, page: undefined }, { replace: true })
            }
          />
        </label>
      </FilterBar>
      <QueryView
        query={summary}
        what="the summary"
        rows={2}
        empty={{
          when: (s) => s.total_requests === 0 && series.isSuccess && !summary.isPlaceholderData,
          show: (
            <Card>
              <EmptyState
                icon={Rocket}
                title={`No requests between ${formatDateTime(window.since, zone)} and ${formatDateTime(window.until, zone)}`}
                action={
                  <Link
                    to="/projects/$project/setup"
                    params={{ project }}
                    className={buttonClass({ variant: "primary" })}
                  >
                    Open the setup guide
                  </Link>
                }
              >
                Widen the time range, or send your first request with the snippets of the setup guide.
              </EmptyState>
            </Card>
          ),
        }}
      >
        {(s) => (
          <KpiGrid label="Key figures">
            <Kpi
              label="Requests"
              value={formatCount(s.total_requests)}
              {...against(s, prev, "total_requests")}
              betterWhen="neither"
            />
            <Kpi label="Requests / min" value={(s.total_requests / minutes).toFixed(2)} />
            <Kpi label="Error rate" value={formatRate(s.error_rate)} {...against(s, prev, "error_rate")} />
            <Kpi label="4xx" value={formatCount(s.client_errors)} {...against(s, prev, "client_errors")} />
            <Kpi label="5xx" value={formatCount(s.server_errors)} {...against(s, prev, "server_errors")} />
            <Kpi
              label="p50"
              value={formatMs(s.p50_response_time_ms)}
              {...against(s, prev, "p50_response_time_ms")}
            />
            <Kpi
              label="p95"
              value={formatMs(s.p95_response_time_ms)}
              {...against(s, prev, "p95_response_time_ms")}
            />
            <Kpi
              label="p99"
              value={formatMs(s.p99_response_time_ms)}
              {...against(s, prev, "p99_response_time_ms")}
            />
            <Kpi
              label="Unique consumers"
              value={formatCount(s.unique_consumers)}
              {...against(s, prev, "unique_consumers")}
              betterWhen="higher"
            />
            <Kpi label="Unique endpoints" value={formatCount(s.unique_endpoints)} />
            <Kpi
              label="Data transferred"
              value={formatBytes(s.total_request_bytes + s.total_response_bytes)}
              hint={`${formatBytes(s.total_request_bytes)} in, ${formatBytes(s.total_response_bytes)} out`}
            />
          </KpiGrid>
        )}
      </QueryView>
      <TrafficCharts
        query={series}
        onZoom={(range) => setSearch({ ...range, range: undefined, page: undefined })}
      />
      <QueryCard
        title="Endpoints"
        query={endpoints}
        what="the endpoints"
        rows={5}
        empty={{ when: noItems, show: <Quiet>No endpoint matches in this window.</Quiet> }}
      >
        {(data) => (
          <>
            <div className={table.wrap}>
              <table className={table.table} aria-label="Endpoints">
                <thead>
                  <tr>
                    <SortHeader
                      label="Endpoint"
                      sortKey="endpoint"
                      current={sort}
                      dir={dir}
                      defaultDir="asc"
                    />
                    <th scope="col">App</th>
                    <SortHeader
                      label="Requests"
                      sortKey="total_requests"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader
                      label="Error rate"
                      sortKey="error_rate"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader
                      label="p95"
                      sortKey="p95_response_time_ms"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader label="Data" sortKey="data_transfer" current={sort} dir={dir} align="end" />
                    <SortHeader
                      label="Last seen"
                      sortKey="last_seen_at"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((row) => (
                    <tr key={`${row.app_id} ${row.method} ${row.path}`}>
                      <td>
                        <MethodBadge method={row.method} />{" "}
                        {row.app_slug !== null ? (
                          <Link
                            className={[styles.rowLink, styles.mono].join(" ")}
                            to="/projects/$project/endpoints/detail"
                            params={{ project }}
                            search={(prevSearch: Record<string, unknown>) => ({
                              ...pickShared(prevSearch),
                              app: row.app_slug ?? undefined,
                              method: row.method,
                              path: row.path,
                            })}
                          >
                            {row.path}
                          </Link>
                        ) : (
                          <span className={styles.mono}>{row.path}</span>
                        )}
                      </td>
                      <td>{row.app_slug ?? "deleted app"}</td>
                      <td className={styles.num}>{formatCount(row.total_requests)}</td>
                      <td className={styles.num}>
                        {formatRate(row.error_rate)}
                        {row.server_errors > 0 ? (
                          <span className={styles.bad} title={`${row.server_errors} server errors`}>
                            {" "}
                            ▲ {row.server_errors} × 5xx
                          </span>
                        ) : null}
                      </td>
                      <td className={styles.num}>{formatMs(row.p95_response_time_ms)}</td>
                      <td className={styles.num}>
                        {formatBytes(row.total_request_bytes + row.total_response_bytes)}
                      </td>
                      <td className={styles.num}>{formatDateTime(row.last_seen_at, zone)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total_count} what="endpoints" />
          </>
        )}
      </QueryCard>
    </Page>
  );
}

/** One figure now and in the previous period, for a KPI's change badge. */
function against<K extends string>(now: Record<K, number>, before: Record<K, number> | undefined, key: K) {
  return { current: now[key], previous: before?.[key] };
}

/** The time range, app and environment of a search (what links to other traffic pages keep). */
export function pickShared(search: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["range", "since", "until", "app", "env", "refresh"])
    if (search[key] !== undefined) out[key] = search[key];
  return out;
}

/** Requests by status class and latency percentiles, side by side, from one timeseries answer. */
export function TrafficCharts({
  query,
  onZoom,
}: {
  query: UseQueryResult<Timeseries>;
  onZoom: (range: { since: string; until: string }) => void;
}) {
  if (query.isError)
    return <Failed error={query.error} what="the charts" retry={() => void query.refetch()} />;
  const data = query.data;
  return (
    <div className={styles.charts}>
      <Card title="Requests">
        {data === undefined ? (
          <SkeletonRows rows={4} label="Loading the requests chart" />
        ) : (
          <TimeSeriesChart
            label="Requests over time by status class"
            buckets={data.points.map((point) => point.bucket)}
            bucketMs={intervalMs(data.interval)}
            series={requestSeries(data)}
            formatValue={formatCount}
            timeZone={data.timezone}
            onZoom={onZoom}
          />
        )}
      </Card>
      <Card title="Latency">
        {data === undefined ? (
          <SkeletonRows rows={4} label="Loading the latency chart" />
        ) : (
          <TimeSeriesChart
            label="Latency percentiles over time"
            buckets={data.points.map((point) => point.bucket)}
            bucketMs={intervalMs(data.interval)}
            series={latencySeries(data)}
            mode="lines"
            formatValue={formatMs}
            timeZone={data.timezone}
            onZoom={onZoom}
          />
        )}
      </Card>
    </div>
  );
}
