// One endpoint (app + method + route template): KPIs, requests by status class and latency over
// time, status codes (three calls for first paint), then on demand its top consumers, payload
// samples and most recent requests (one tab at a time, each loaded when opened).
import type { EndpointQuery, PayloadSample } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BarList } from "../../components/charts";
import styles from "../../components/data/Data.module.css";
import { DataTable } from "../../components/data/DataTable";
import { FilterBar } from "../../components/data/FilterBar";
import {
  formatBytes,
  formatCount,
  formatRate,
  Kpi,
  KpiGrid,
  MethodBadge,
  StatusPill,
  previousPeriodOf,
} from "../../components/data/parts";
import { QueryView, Quiet } from "../../components/data/QueryView";
import { CodeBlock } from "../../components/ui/Code";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { endpointQuery, previousPeriodQuery } from "../../lib/api-params";
import { prettyPayload } from "../../lib/curl";
import { previousWindow, sharedSearch } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { settled, useComparisonPainted, useDataPage, useDataPainted } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { SloCoverageCard } from "../slos";
import { RequestsLink } from "./columns";
import { RecentRequests } from "./RecentRequests";
import { TrafficCharts } from "./TrafficCharts";
import { ValidationErrorsCard } from "./ValidationErrorsCard";
import { TrafficKpis } from "./TrafficKpis";

const TABS = [
  { id: "consumers", label: "Top consumers" },
  { id: "payloads", label: "Payload samples" },
  { id: "requests", label: "Recent requests" },
] as const;

export function EndpointPage() {
  const { project, search, setSearch, window, refresh } = useDataPage();
  const app = search.app ?? "";
  const method = search.method ?? "";
  const path = search.path ?? "";
  const endpoint = endpointQuery(search, window);
  const ready = endpoint !== undefined;
  // Disabled until the URL names an endpoint; the key then carries the real parameters.
  const params: EndpointQuery = endpoint ?? { method, path };
  const detail = useQuery({ ...trafficApi.endpointDetail(project, app, params), enabled: ready });
  const series = useQuery({ ...trafficApi.endpointTimeseries(project, app, params), enabled: ready });
  const before = useQuery({
    ...trafficApi.endpointTimeseries(project, app, previousPeriodQuery(params, window, series.data)),
    enabled: ready && search.compare === true && series.data !== undefined,
  });
  const codes = useQuery({ ...trafficApi.endpointStatusCodes(project, app, params), enabled: ready });
  const painted = detail.isSuccess && series.isSuccess && codes.isSuccess;
  const marked = useDataPainted(painted);
  const d = detail.data;
  // The previous period of the same length, for the KPIs' changes, once the page has painted.
  const comparing = (d?.total_requests ?? 0) > 0;
  const previous = useQuery({
    ...trafficApi.endpointDetail(project, app, { ...params, ...previousWindow(window) }),
    enabled: ready && marked && comparing,
  });
  useComparisonPainted(marked && settled(previous, comparing) && settled(before, search.compare === true));
  const prev = previous.data;
  const tab = TABS.find((one) => one.id === search.tab)?.id ?? "consumers";

  if (!ready) {
    return (
      <Page>
        <PageHeader title="Endpoint" description="Open an endpoint from the overview's table." />
        <Link to="/projects/$project" params={{ project }}>
          Back to the overview
        </Link>
      </Page>
    );
  }
  return (
    <Page>
      <nav aria-label="Back">
        <Link
          className={styles.rowLink}
          to="/projects/$project"
          params={{ project }}
          search={(previous) => sharedSearch(previous)}
        >
          ← Overview
        </Link>
      </nav>
      <PageHeader
        title={
          <>
            <MethodBadge method={method} /> <span className={styles.mono}>{path}</span>
          </>
        }
        description={`App ${app}${d?.last_seen_at ? ` · last request ${formatDateTime(d.last_seen_at)}` : ""}`}
      />
      <FilterBar search={search} window={window} onRefresh={refresh} compare />
      <QueryView query={detail} what="the endpoint's figures" rows={2}>
        {(d) => (
          <KpiGrid label="Key figures">
            <TrafficKpis now={d} before={prev} minutes={window.ms / 60_000} />
            <Kpi
              label="Data transferred"
              value={formatBytes(d.total_request_bytes + d.total_response_bytes)}
            />
          </KpiGrid>
        )}
      </QueryView>
      <SloCoverageCard project={project} covering={{ app, method, route: path }} />
      <TrafficCharts
        query={series}
        previous={previousPeriodOf(before, window.ms, search.compare)}
        onZoom={(range) => setSearch({ ...range, range: undefined })}
      />
      <Card title="Status codes">
        <QueryView query={codes} what="the status codes" rows={3}>
          {(data) => (
            <BarList
              label="Requests by status code"
              items={data.map((row) => ({
                key: String(row.status_code),
                label: (
                  <RequestsLink
                    project={project}
                    search={search}
                    narrow={{ app, method, route: path, codes: String(row.status_code) }}
                  >
                    <StatusPill code={row.status_code} /> requests
                  </RequestsLink>
                ),
                value: row.total_requests,
                color:
                  row.status_code >= 500 ? "--danger" : row.status_code >= 400 ? "--warning" : "--success",
              }))}
            />
          )}
        </QueryView>
      </Card>
      <ValidationErrorsCard project={project} app={app} params={params} search={search} painted={marked} />
      <Card>
        <div role="tablist" aria-label="More about this endpoint" className={styles.links}>
          {TABS.map((one) => (
            <button
              key={one.id}
              type="button"
              role="tab"
              aria-selected={tab === one.id}
              className={styles.tab}
              onClick={() =>
                setSearch({ tab: one.id === "consumers" ? undefined : one.id }, { replace: true })
              }
            >
              {one.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" aria-label={TABS.find((one) => one.id === tab)?.label}>
          {!marked ? (
            <SkeletonRows rows={3} label="Waiting for the figures" />
          ) : tab === "consumers" ? (
            <TopConsumers project={project} app={app} params={params} />
          ) : tab === "payloads" ? (
            <Payloads project={project} app={app} params={params} />
          ) : (
            <RecentRequests
              project={project}
              filters={{ ...sharedSearch(search), app, method, route: path }}
              window={window}
              openId={search.req}
              label="Recent requests of this endpoint"
            />
          )}
        </div>
      </Card>
    </Page>
  );
}

function TopConsumers({ project, app, params }: { project: string; app: string; params: EndpointQuery }) {
  const consumers = useQuery(trafficApi.endpointConsumers(project, app, params));
  return (
    <QueryView query={consumers} what="the consumers" rows={3}>
      {(data) => (
        <DataTable
          label="Top consumers of this endpoint"
          rows={data}
          rowKey={(row) => row.consumer_id || "(unknown)"}
          columns={[
            {
              header: "Consumer",
              cell: (row) =>
                row.consumer_id ? (
                  <Link
                    className={styles.rowLink}
                    to="/projects/$project/consumers/$consumer"
                    params={{ project, consumer: row.consumer_id }}
                  >
                    {row.consumer}
                  </Link>
                ) : (
                  row.consumer
                ),
            },
            { header: "Requests", numeric: true, cell: (row) => formatCount(row.total_requests) },
            { header: "Error rate", numeric: true, cell: (row) => formatRate(row.error_rate) },
          ]}
        />
      )}
    </QueryView>
  );
}

function Payloads({ project, app, params }: { project: string; app: string; params: EndpointQuery }) {
  const zone = useTimeZone();
  const samples = useQuery(trafficApi.endpointPayloads(project, app, { ...params, limit: 5 }));
  return (
    <QueryView
      query={samples}
      what="the payload samples"
      rows={3}
      empty={{
        when: (data) => data.length === 0,
        show: <Quiet>No request in this window carried a payload.</Quiet>,
      }}
    >
      {(data) => <PayloadSamples samples={data} zone={zone} />}
    </QueryView>
  );
}

function PayloadSamples({ samples, zone }: { samples: PayloadSample[]; zone: string | undefined }) {
  return (
    <div className={styles.drawerSection}>
      {samples.map((sample) => (
        <section
          key={sample.id}
          className={styles.drawerSection}
          aria-label={`Sample of ${formatDateTime(sample.timestamp, zone)}`}
        >
          <h3>
            <StatusPill code={sample.status_code} /> {sample.path} · {formatDateTime(sample.timestamp, zone)}
          </h3>
          {sample.request_payload ? (
            <CodeBlock code={prettyPayload(sample.request_payload)} label="Request payload" />
          ) : null}
          {sample.response_payload ? (
            <CodeBlock code={prettyPayload(sample.response_payload)} label="Response payload" />
          ) : null}
        </section>
      ))}
    </div>
  );
}
