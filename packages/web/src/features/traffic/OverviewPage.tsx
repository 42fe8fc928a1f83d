// The project overview: KPIs with the change against the previous period, requests and latency
// over time (drag to zoom), and the endpoint table. First paint makes three calls (summary,
// timeseries, endpoints); the previous period's summary follows once those are on screen.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Rocket } from "lucide-react";
import { DataTable } from "../../components/data/DataTable";
import { FilterBar } from "../../components/data/FilterBar";
import {
  against,
  formatBytes,
  formatCount,
  formatMs,
  formatRate,
  Kpi,
  KpiGrid,
  previousPeriodOf,
} from "../../components/data/parts";
import { noItems, QueryCard, QueryView, Quiet } from "../../components/data/QueryView";
import { UrlTextFilter } from "../../components/data/UrlFilters";
import { buttonClass } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { endpointsOrder, endpointsQuery, previousPeriodQuery, windowQuery } from "../../lib/api-params";
import { previousWindow } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { useDataPage, useDataPainted } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { endpointColumns, endpointKey } from "./columns";
import { TrafficCharts } from "./TrafficCharts";

const PAGE_SIZE = 25;

export function OverviewPage() {
  const { project, search, setSearch, window, refresh } = useDataPage();
  const zone = useTimeZone();
  const base = windowQuery(search, window);
  const summary = useQuery(trafficApi.summary(project, base));
  const series = useQuery(trafficApi.timeseries(project, base));
  const before = useQuery({
    ...trafficApi.timeseries(project, previousPeriodQuery(base, window, series.data)),
    enabled: search.compare === true && series.data !== undefined,
  });
  const order = endpointsOrder(search);
  const endpoints = useQuery(
    trafficApi.endpoints(project, {
      ...endpointsQuery(search, window),
      page: order.page,
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
      <FilterBar search={search} window={window} onRefresh={refresh} compare>
        <UrlTextFilter param="q" label="Search endpoints" type="search" placeholder="Route or method" />
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
            <Kpi
              label="Error rate"
              value={formatRate(s.error_rate)}
              {...against(s, prev, "error_rate")}
              unit="points"
            />
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
        previous={previousPeriodOf(before, window.ms, search.compare)}
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
          <DataTable
            label="Endpoints"
            rows={data.items}
            columns={endpointColumns(project, zone, true)}
            rowKey={endpointKey}
            order={order}
            pager={{ page: order.page, pageSize: PAGE_SIZE, total: data.total_count, what: "endpoints" }}
            exportName={`${project}-endpoints`}
          />
        )}
      </QueryCard>
    </Page>
  );
}
