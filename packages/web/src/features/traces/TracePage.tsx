// One trace: its span tree as a waterfall (rows in depth-first order, indented by depth, each bar
// placed on the trace's time axis), the selected span's attributes, and the request and log
// records carrying the trace id (a request opens the usual drawer). Selection lives in the URL.
import { TraceLink } from "../../components/data/TraceLink";
import type { LogRecord, RequestRecord, TraceDetail, TraceSpan } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { AlertOctagon, SearchX } from "lucide-react";
import { buttonClass } from "../../components/ui/Button";
import { EmptyState, SkeletonRows } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { isApiError } from "../../lib/api-client";
import { formatDateTime } from "../../lib/format";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { RequestDrawer } from "../../components/data/RequestDrawer";
import { NamedValuesSection } from "../../components/data/NamedValues";
import { DataTable } from "../../components/data/DataTable";
import { table } from "../../components/ui/Table";
import { logColumns, logRowData } from "../../components/data/log-columns";
import { Failed, formatMs } from "../../components/data/parts";
import { requestColumns, requestRowData } from "../../components/data/request-columns";
import trafficStyles from "../../components/data/Data.module.css";
import { useDataPainted, useProjectSlug, useSetSearch, useUrlSearch } from "../../lib/page-state";
import { traceApi } from "./trace-api";
import styles from "./Traces.module.css";

const TRACE_ID = /^[0-9a-fA-F]{32}$/;

export function TracePage() {
  const project = useProjectSlug();
  const traceId = (useParams({ strict: false }).traceId ?? "").toLowerCase();
  const search = useUrlSearch();
  const setSearch = useSetSearch();
  const valid = TRACE_ID.test(traceId);
  const trace = useQuery({ ...traceApi.trace(project, traceId), enabled: valid });
  useDataPainted(trace.isSuccess);
  const apps = useQuery(appsQuery(project));
  const appSlugOf = (id: string) => apps.data?.find((app) => app.id === id)?.slug;
  const notFound = !valid || (isApiError(trace.error) && trace.error.status === 404);

  return (
    <Page>
      <PageHeader
        title={trace.data?.spans[0] ? `Trace · ${trace.data.spans[0].name}` : "Trace"}
        description={<span className={trafficStyles.mono}>{traceId}</span>}
        actions={
          <Link className={buttonClass({ size: "sm" })} to="/projects/$project/requests" params={{ project }}>
            All requests
          </Link>
        }
      />
      {notFound ? (
        <Card>
          <EmptyState icon={SearchX} title="Trace not found">
            No span, request or log of this project carries trace id {traceId || "—"} (it may be older than
            the retention window).
          </EmptyState>
        </Card>
      ) : trace.isError ? (
        <Failed error={trace.error} what="the trace" retry={() => void trace.refetch()} />
      ) : trace.data === undefined ? (
        <Card title="Spans">
          <SkeletonRows rows={6} label="Loading the trace" />
        </Card>
      ) : (
        <TraceBody
          project={project}
          trace={trace.data}
          selected={search.span}
          onSelect={(span) => setSearch({ span: span === search.span ? undefined : span })}
          onOpenRequest={(req) => setSearch({ req })}
          appSlugOf={appSlugOf}
        />
      )}
      <RequestDrawer
        project={project}
        id={search.req}
        onClose={() => setSearch({ req: undefined })}
        appSlugOf={appSlugOf}
      />
    </Page>
  );
}

function TraceBody({
  project,
  trace,
  selected,
  onSelect,
  onOpenRequest,
  appSlugOf,
}: {
  project: string;
  trace: TraceDetail;
  selected: string | undefined;
  onSelect: (spanId: string) => void;
  onOpenRequest: (id: string) => void;
  appSlugOf: (id: string) => string | undefined;
}) {
  const zone = useTimeZone();
  const span = trace.spans.find((one) => one.span_id === selected);
  const services = new Set(trace.spans.map((one) => one.service_name)).size;
  return (
    <>
      <dl className={styles.summary} aria-label="Trace facts">
        <div>
          <dt>Started</dt>
          <dd>{trace.started_at === null ? "—" : formatDateTime(trace.started_at, zone)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatMs(trace.duration_ms)}</dd>
        </div>
        <div>
          <dt>Spans</dt>
          <dd>{trace.span_count === 0 ? "None received" : trace.span_count.toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt>Services</dt>
          <dd>{services}</dd>
        </div>
        <div>
          <dt>Outcome</dt>
          <dd>{trace.error ? "Has errors" : "No errors"}</dd>
        </div>
      </dl>
      <Card
        title="Spans"
        description={
          trace.spans.length === 0
            ? undefined
            : trace.truncated
              ? `Showing ${trace.spans.length.toLocaleString("en-US")} of ${trace.span_count.toLocaleString("en-US")} spans (the earliest to start); select one to see its attributes.`
              : "Select a span to see its attributes."
        }
      >
        {trace.spans.length === 0 ? (
          <p className={trafficStyles.updating}>
            No spans received for this trace: its duration and outcome come from the requests and logs below.
          </p>
        ) : (
          <Waterfall trace={trace} selected={selected} onSelect={onSelect} />
        )}
      </Card>
      {span ? <SpanDetail span={span} appSlug={appSlugOf(span.app_id)} zone={zone} /> : null}
      <Card title={`Requests (${trace.requests.length})`}>
        {trace.requests.length === 0 ? (
          <p className={trafficStyles.updating}>No request record carries this trace id.</p>
        ) : (
          <TraceRequests rows={trace.requests} zone={zone} appSlugOf={appSlugOf} onOpen={onOpenRequest} />
        )}
      </Card>
      <Card
        title={`Logs (${trace.logs.length})`}
        actions={
          trace.logs.length > 0 ? (
            <TraceLink project={project} traceId={trace.trace_id} to="logs">
              Open in Logs
            </TraceLink>
          ) : undefined
        }
      >
        {trace.logs.length === 0 ? (
          <p className={trafficStyles.updating}>No log record carries this trace id.</p>
        ) : (
          <TraceLogs rows={trace.logs} zone={zone} />
        )}
      </Card>
    </>
  );
}

function Waterfall({
  trace,
  selected,
  onSelect,
}: {
  trace: TraceDetail;
  selected: string | undefined;
  onSelect: (spanId: string) => void;
}) {
  // A trace of zero length (one instant span) still gets full-width bars.
  const total = trace.duration_ms > 0 ? trace.duration_ms : 1;
  return (
    <div className={table.wrap}>
      <table className={styles.waterfall} aria-label="Span waterfall">
        <thead>
          <tr>
            <th scope="col" className={styles.colName}>
              Span
            </th>
            <th scope="col" className={styles.colService}>
              Service
            </th>
            <th scope="col">Timeline (0 – {formatMs(trace.duration_ms)})</th>
            <th scope="col" className={styles.colDuration}>
              Duration
            </th>
          </tr>
        </thead>
        <tbody>
          {trace.spans.map((span) => {
            const isError = spanFailed(span);
            const left = Math.min(100, (span.offset_ms / total) * 100);
            const width =
              trace.duration_ms > 0 ? Math.min(100 - left, (span.duration_ms / total) * 100) : 100;
            const isSelected = span.span_id === selected;
            return (
              <tr
                key={span.span_id}
                data-span-id={span.span_id}
                data-depth={span.depth}
                className={isSelected ? styles.selected : undefined}
              >
                <td className={styles.colName}>
                  <button
                    type="button"
                    className={styles.spanButton}
                    style={{ paddingLeft: `${span.depth * 16}px` }}
                    aria-pressed={isSelected}
                    onClick={() => onSelect(span.span_id)}
                  >
                    {/* The spaces keep the spoken name "GET /x server error, depth 0". */}
                    <span className={styles.spanName}>{span.name}</span>{" "}
                    <span className={styles.kind}>{span.kind}</span>
                    {isError ? (
                      <>
                        {" "}
                        <span className={styles.errorMark}>
                          <AlertOctagon size={12} aria-hidden="true" />
                          error
                        </span>
                      </>
                    ) : null}
                    <span className="visually-hidden">, depth {span.depth}</span>
                  </button>
                </td>
                <td className={trafficStyles.mono}>{span.service_name || "—"}</td>
                <td>
                  <div className={styles.track}>
                    <span
                      className={[styles.bar, isError ? styles.barError : ""].filter(Boolean).join(" ")}
                      style={{ left: `${left}%`, width: `${width}%` }}
                    />
                    <span className="visually-hidden">starts {formatMs(span.offset_ms)} in</span>
                  </div>
                </td>
                <td className={styles.colDuration} data-duration="">
                  {formatMs(span.duration_ms)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function spanFailed(span: TraceSpan): boolean {
  return span.status === "error" || span.status_code >= 500;
}

function SpanDetail({
  span,
  appSlug,
  zone,
}: {
  span: TraceSpan;
  appSlug: string | undefined;
  zone: string | undefined;
}) {
  const attributes = Object.entries(span.attributes);
  return (
    <Card title={`Span · ${span.name}`}>
      <dl className={trafficStyles.facts} aria-label="Span facts">
        <dt>Status</dt>
        <dd>
          {span.status}
          {span.status_code > 0 ? ` · HTTP ${span.status_code}` : ""}
        </dd>
        <dt>Started</dt>
        <dd>
          {formatDateTime(span.timestamp, zone)} (+{formatMs(span.offset_ms)})
        </dd>
        <dt>Duration</dt>
        <dd>{formatMs(span.duration_ms)}</dd>
        <dt>Kind</dt>
        <dd>{span.kind}</dd>
        <dt>Service</dt>
        <dd>{span.service_name || "—"}</dd>
        <dt>App</dt>
        <dd>
          {appSlug ?? span.app_id} · {span.environment}
        </dd>
        <dt>Span id</dt>
        <dd className={trafficStyles.mono}>{span.span_id}</dd>
        <dt>Parent</dt>
        <dd className={trafficStyles.mono}>{span.parent_span_id || "—"}</dd>
      </dl>
      <NamedValuesSection
        title="Attributes"
        label="Span attributes"
        entries={attributes}
        none="None recorded."
      />
    </Card>
  );
}

function TraceRequests({
  rows,
  zone,
  appSlugOf,
  onOpen,
}: {
  rows: readonly RequestRecord[];
  zone: string | undefined;
  appSlugOf: (id: string) => string | undefined;
  onOpen: (id: string) => void;
}) {
  // A trace's requests are its own: the consumer column gives way to app and environment.
  const columns = requestColumns({ zone, appSlugOf }).filter((column) => column.header !== "Consumer");
  return (
    <DataTable
      label="Requests of this trace"
      rows={rows}
      columns={columns}
      rowKey={(row) => row.id}
      rowData={requestRowData}
      rowLabel={(row) => `Open request ${row.method} ${row.path}`}
      onOpen={(row) => onOpen(row.id)}
    />
  );
}

function TraceLogs({ rows, zone }: { rows: readonly LogRecord[]; zone: string | undefined }) {
  return (
    <DataTable
      label="Logs of this trace"
      rows={rows}
      columns={logColumns(zone, true)}
      rowKey={(row) => row.id}
      rowData={logRowData}
    />
  );
}
