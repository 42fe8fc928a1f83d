// One endpoint (app + method + route template): KPIs, requests by status class and latency over
// time, status codes (three calls for first paint), then on demand its top consumers, payload
// samples and most recent requests (one tab at a time, each loaded when opened).
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BarList } from "../../components/charts";
import { CodeBlock } from "../../components/ui/Code";
import { SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { prettyPayload } from "./curl";
import { FilterBar } from "./FilterBar";
import { TrafficCharts } from "./OverviewPage";
import {
  Failed,
  formatBytes,
  formatCount,
  formatMs,
  formatRate,
  Kpi,
  KpiGrid,
  MethodBadge,
  StatusPill,
} from "./parts";
import { QueryView } from "./query-view";
import { RecentRequests } from "./RecentRequests";
import { trafficApi } from "./traffic-api";
import type { TimeWindow } from "./traffic-search";
import styles from "./Traffic.module.css";
import { useDataPainted, useTrafficPage } from "./use-traffic";

const TABS = [
  { id: "consumers", label: "Top consumers" },
  { id: "payloads", label: "Payload samples" },
  { id: "requests", label: "Recent requests" },
] as const;

export function EndpointPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const app = search.app ?? "";
  const method = search.method ?? "";
  const path = search.path ?? "";
  const params = { since: window.since, until: window.until, environment: search.env, method, path };
  const ready = app !== "" && method !== "" && path !== "";
  const detail = useQuery({ ...trafficApi.endpointDetail(project, app, params), enabled: ready });
  const series = useQuery({ ...trafficApi.endpointTimeseries(project, app, params), enabled: ready });
  const codes = useQuery({ ...trafficApi.endpointStatusCodes(project, app, params), enabled: ready });
  const painted = detail.isSuccess && series.isSuccess && codes.isSuccess;
  const marked = useDataPainted(painted);
  const d = detail.data;
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
      <PageHeader
        title={
          <>
            <MethodBadge method={method} /> <span className={styles.mono}>{path}</span>
          </>
        }
        description={`App ${app}${d?.last_seen_at ? ` · last request ${formatDateTime(d.last_seen_at)}` : ""}`}
      />
      <FilterBar search={search} window={window} onRefresh={refresh} />
      <QueryView query={detail} what="the endpoint's figures" rows={2}>
        {(d) => (
          <KpiGrid label="Key figures">
            <Kpi label="Requests" value={formatCount(d.total_requests)} />
            <Kpi label="Requests / min" value={(d.total_requests / (window.ms / 60_000)).toFixed(2)} />
            <Kpi label="Error rate" value={formatRate(d.error_rate)} />
            <Kpi label="4xx" value={formatCount(d.client_errors)} />
            <Kpi label="5xx" value={formatCount(d.server_errors)} />
            <Kpi label="p50" value={formatMs(d.p50_response_time_ms)} />
            <Kpi label="p95" value={formatMs(d.p95_response_time_ms)} />
            <Kpi label="p99" value={formatMs(d.p99_response_time_ms)} />
            <Kpi
              label="Data transferred"
              value={formatBytes(d.total_request_bytes + d.total_response_bytes)}
            />
          </KpiGrid>
        )}
      </QueryView>
      <TrafficCharts query={series} onZoom={(range) => setSearch({ ...range, range: undefined })} />
      <Card title="Status codes">
        <QueryView query={codes} what="the status codes" rows={3}>
          {(data) => (
            <BarList
              label="Requests by status code"
              items={data.map((row) => ({
                key: String(row.status_code),
                label: (
                  <Link
                    className={styles.rowLink}
                    to="/projects/$project/requests"
                    params={{ project }}
                    search={{
                      range: search.range,
                      since: search.since,
                      until: search.until,
                      env: search.env,
                      app,
                      method,
                      route: path,
                      codes: String(row.status_code),
                    }}
                  >
                    <StatusPill code={row.status_code} /> requests
                  </Link>
                ),
                value: row.total_requests,
                color:
                  row.status_code >= 500 ? "--danger" : row.status_code >= 400 ? "--warning" : "--success",
              }))}
            />
          )}
        </QueryView>
      </Card>
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
              filters={{
                range: search.range,
                since: search.since,
                until: search.until,
                env: search.env,
                app,
                method,
                route: path,
              }}
              window={window as TimeWindow}
              openId={search.req}
              label="Recent requests of this endpoint"
            />
          )}
        </div>
      </Card>
    </Page>
  );
}

type EndpointParams = Record<string, string | undefined>;

function TopConsumers({ project, app, params }: { project: string; app: string; params: EndpointParams }) {
  const consumers = useQuery(trafficApi.endpointConsumers(project, app, params));
  if (consumers.isError)
    return <Failed error={consumers.error} what="the consumers" retry={() => void consumers.refetch()} />;
  if (consumers.data === undefined) return <SkeletonRows rows={3} label="Loading the consumers" />;
  return (
    <div className={table.wrap}>
      <table className={table.table} aria-label="Top consumers of this endpoint">
        <thead>
          <tr>
            <th scope="col">Consumer</th>
            <th scope="col" className={styles.num}>
              Requests
            </th>
            <th scope="col" className={styles.num}>
              Error rate
            </th>
          </tr>
        </thead>
        <tbody>
          {consumers.data.map((row) => (
            <tr key={row.consumer_id || "(unknown)"}>
              <td>
                {row.consumer_id ? (
                  <Link
                    className={styles.rowLink}
                    to="/projects/$project/consumers/$consumer"
                    params={{ project, consumer: row.consumer_id }}
                  >
                    {row.consumer}
                  </Link>
                ) : (
                  row.consumer
                )}
              </td>
              <td className={styles.num}>{formatCount(row.total_requests)}</td>
              <td className={styles.num}>{formatRate(row.error_rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Payloads({ project, app, params }: { project: string; app: string; params: EndpointParams }) {
  const zone = useTimeZone();
  const samples = useQuery(trafficApi.endpointPayloads(project, app, { ...params, limit: "5" }));
  if (samples.isError)
    return <Failed error={samples.error} what="the payload samples" retry={() => void samples.refetch()} />;
  if (samples.data === undefined) return <SkeletonRows rows={3} label="Loading the payload samples" />;
  if (samples.data.length === 0)
    return <p className={styles.updating}>No request in this window carried a payload.</p>;
  return (
    <div className={styles.drawerSection}>
      {samples.data.map((sample) => (
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
