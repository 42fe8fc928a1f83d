// The project overview: KPIs with the change against the previous period, requests and latency
// over time (drag to zoom), and the endpoint table. First paint makes three calls (summary,
// timeseries, endpoints); the previous period's summary follows once those are on screen, and
// the comparison mark once its changes are.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Rocket } from "lucide-react";
import { OrderedListCard } from "../../components/data/ListCard";
import { FilterBar } from "../../components/data/FilterBar";
import {
  against,
  formatBytes,
  formatCount,
  Kpi,
  KpiGrid,
  previousPeriodOf,
} from "../../components/data/parts";
import { QueryView } from "../../components/data/QueryView";
import { UrlTextFilter } from "../../components/data/UrlFilters";
import { buttonClass } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import {
  endpointsOrder,
  endpointsQuery,
  pageOf,
  previousPeriodQuery,
  windowQuery,
} from "../../lib/api-params";
import { previousWindow } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { settled, useComparisonPainted, useDataPage, useDataPainted } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { endpointColumns, endpointKey } from "./columns";
import { TrafficCharts } from "./TrafficCharts";
import { TrafficKpis } from "./TrafficKpis";

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
    trafficApi.endpoints(project, { ...endpointsQuery(search, window), ...pageOf(order, PAGE_SIZE) }),
  );
  const painted = summary.isSuccess && series.isSuccess && endpoints.isSuccess;
  const marked = useDataPainted(painted);
  const comparing = summary.data !== undefined && summary.data.total_requests > 0;
  const previous = useQuery({
    ...trafficApi.summary(project, { ...base, ...previousWindow(window) }),
    enabled: marked && comparing,
  });
  useComparisonPainted(marked && settled(previous, comparing) && settled(before, search.compare === true));
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
            <TrafficKpis now={s} before={prev} minutes={minutes} />
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
      <OrderedListCard
        title="Endpoints"
        query={endpoints}
        order={order}
        pageSize={PAGE_SIZE}
        counted="endpoints"
        empty="No endpoint matches in this window."
        columns={endpointColumns(project, zone, true)}
        rowKey={endpointKey}
      />
    </Page>
  );
}
