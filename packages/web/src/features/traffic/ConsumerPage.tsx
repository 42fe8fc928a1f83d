// One consumer: KPIs, traffic over time, the endpoints it calls (three calls, all with the
// consumer filter), then its recent requests and errors once those are on screen.
import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { ItemsTable } from "../../components/data/ListCard";
import { FilterBar } from "../../components/data/FilterBar";
import {
  formatBytes,
  formatCount,
  formatMs,
  formatRate,
  Kpi,
  KpiGrid,
  previousPeriodOf,
} from "../../components/data/parts";
import { QueryView, Quiet } from "../../components/data/QueryView";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { previousPeriodQuery, windowQuery } from "../../lib/api-params";
import type { TimeWindow } from "../../lib/filters";
import {
  settled,
  useComparisonPainted,
  useDataPage,
  useDataPainted,
  useTrafficSearch,
} from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { endpointColumns, endpointKey, errorColumns, errorKey } from "./columns";
import { RecentRequests } from "./RecentRequests";
import { TrafficCharts } from "./TrafficCharts";
import { SloCoverageCard } from "../slos";

export function ConsumerPage() {
  const { project, search, setSearch, window, refresh } = useDataPage();
  const consumer = useParams({ strict: false }).consumer ?? "";
  const base = { ...windowQuery(search, window), consumer };
  const summary = useQuery(trafficApi.summary(project, base));
  const series = useQuery(trafficApi.timeseries(project, base));
  const before = useQuery({
    ...trafficApi.timeseries(project, previousPeriodQuery(base, window, series.data)),
    enabled: search.compare === true && series.data !== undefined,
  });
  const endpoints = useQuery(
    trafficApi.endpoints(project, { ...base, sort_by: "total_requests", page_size: 25 }),
  );
  const painted = summary.isSuccess && series.isSuccess && endpoints.isSuccess;
  const marked = useDataPainted(painted);
  // Only the chart compares here, and only when the switch is on.
  useComparisonPainted(search.compare === true && marked && settled(before, true));

  return (
    <Page>
      <PageHeader title={`Consumer ${consumer}`} description="Everything this consumer did in the window." />
      <FilterBar search={search} window={window} onRefresh={refresh} compare />
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
      <SloCoverageCard project={project} covering={{ consumer }} />
      <TrafficCharts
        query={series}
        previous={previousPeriodOf(before, window.ms, search.compare)}
        onZoom={(range) => setSearch({ ...range, range: undefined })}
      />
      <Card title="Endpoints it calls">
        <ItemsTable
          query={endpoints}
          what="the endpoints"
          skeletonRows={4}
          label="Endpoints of this consumer"
          columns={endpointColumns(project, undefined, false)}
          rowKey={endpointKey}
        />
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
    trafficApi.errors(project, { ...windowQuery(search, window), consumer, page_size: 10 }),
  );
  return (
    <ItemsTable
      query={errors}
      what="the errors"
      skeletonRows={3}
      empty={<Quiet>No failed requests for this consumer.</Quiet>}
      label="Errors of this consumer"
      columns={errorColumns(project, undefined, undefined)}
      rowKey={errorKey}
    />
  );
}
