// Everything stored for one request: timing, sizes, consumer, client, headers, pretty-printed
// payloads with copy, "copy as cURL", why a 400/422 was refused, the exception a 5xx logged, and
// links to its endpoint, its consumer, its trace and the logs of its trace. Captured data is
// untrusted: it is rendered as text only.
import { TraceLink } from "./TraceLink";
import type { RequestDetail } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { buttonClass } from "../ui/Button";
import { CodeBlock } from "../ui/Code";
import { SkeletonRows } from "../ui/Feedback";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { curlFor, prettyPayload } from "../../lib/curl";
import { Drawer } from "./Drawer";
import { NamedValuesSection } from "./NamedValues";
import { Failed, formatBytes, formatMs, MethodBadge, StatusPill } from "./parts";
import { trafficApi } from "../../lib/traffic-api";
import styles from "./Data.module.css";

export function RequestDrawer({
  project,
  id,
  onClose,
  appSlugOf,
  onStep,
}: {
  project: string;
  id: string | undefined;
  onClose: () => void;
  /** The app slug of an app id (the records carry ids). */
  appSlugOf: (appId: string) => string | undefined;
  /** j/k in the drawer: open the next (1) or previous (-1) row of the list. */
  onStep?: (delta: 1 | -1) => void;
}) {
  const detail = useQuery({ ...trafficApi.request(project, id ?? ""), enabled: id !== undefined });
  const record = detail.data;
  // The id shown last: on close the URL has already forgotten it, the row has not.
  const [shown, setShown] = useState(id);
  if (id !== undefined && id !== shown) setShown(id);
  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      onStep={onStep}
      returnFocus={() =>
        shown === undefined
          ? null
          : document.querySelector<HTMLElement>(`tr[data-request-id="${CSS.escape(shown)}"]`)
      }
      title={
        record ? (
          <>
            <MethodBadge method={record.method} /> {record.path}
          </>
        ) : (
          "Request"
        )
      }
    >
      {detail.isError ? (
        <Failed error={detail.error} what="the request" retry={() => void detail.refetch()} />
      ) : record === undefined ? (
        <SkeletonRows rows={6} label="Loading the request" />
      ) : (
        <RequestBody project={project} record={record} appSlug={appSlugOf(record.app_id)} />
      )}
    </Drawer>
  );
}

/** One side of the exchange: its headers, and its payload when one was captured. */
function Message({
  name,
  headers,
  payload,
}: {
  name: "Request" | "Response";
  headers: Record<string, string>;
  payload: string;
}) {
  return (
    <>
      <NamedValuesSection title={`${name} headers`} entries={Object.entries(headers)} none="None captured." />
      {payload !== "" ? <CodeBlock code={prettyPayload(payload)} label={`${name} payload`} /> : null}
    </>
  );
}

function RequestBody({
  project,
  record,
  appSlug,
}: {
  project: string;
  record: RequestDetail;
  appSlug: string | undefined;
}) {
  const zone = useTimeZone();
  return (
    <>
      <dl className={styles.facts} aria-label="Request facts">
        <dt>Status</dt>
        <dd>
          <StatusPill code={record.status_code} />
        </dd>
        <dt>Time</dt>
        <dd>{formatDateTime(record.timestamp, zone)}</dd>
        <dt>Response time</dt>
        <dd>{formatMs(record.response_time_ms)}</dd>
        <dt>Sizes</dt>
        <dd>
          {formatBytes(record.request_size)} in, {formatBytes(record.response_size)} out
        </dd>
        <dt>Route</dt>
        <dd className={styles.mono}>{record.route}</dd>
        {record.base_url !== "" ? (
          <>
            <dt>Base URL</dt>
            <dd className={styles.mono}>{record.base_url}</dd>
          </>
        ) : null}
        {record.query !== "" ? (
          <>
            <dt>Query</dt>
            <dd className={styles.mono}>?{record.query}</dd>
          </>
        ) : null}
        <dt>App</dt>
        <dd>
          {appSlug ?? record.app_id} · {record.environment}
        </dd>
        <dt>Consumer</dt>
        <dd>
          {record.consumer_id === ""
            ? "unknown"
            : `${record.consumer_name || record.consumer_id} (${record.consumer_id})`}
          {record.consumer_group ? ` · ${record.consumer_group}` : ""}
        </dd>
        <dt>Client</dt>
        <dd>
          {record.ip_address || "—"} · {record.user_agent || "—"}
        </dd>
        <dt>Trace</dt>
        <dd className={styles.mono}>{record.trace_id || "—"}</dd>
        <dt>Record id</dt>
        <dd className={styles.mono}>{record.id}</dd>
      </dl>
      <div className={styles.links}>
        {appSlug !== undefined ? (
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/endpoints/detail"
            params={{ project }}
            search={{ app: appSlug, method: record.method, path: record.route }}
          >
            Endpoint {record.method} {record.route}
          </Link>
        ) : null}
        {record.consumer_id !== "" ? (
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/consumers/$consumer"
            params={{ project, consumer: record.consumer_id }}
          >
            Consumer {record.consumer_id}
          </Link>
        ) : null}
        {record.trace_id !== "" ? (
          <TraceLink project={project} traceId={record.trace_id} to="trace">
            View trace
          </TraceLink>
        ) : null}
        {record.trace_id !== "" ? (
          <TraceLink project={project} traceId={record.trace_id} to="logs">
            Logs of this trace
          </TraceLink>
        ) : null}
      </div>
      {record.validation_errors.length > 0 ? <ValidationErrors record={record} /> : null}
      {record.status_code >= 500 && record.trace_id !== "" ? (
        <LoggedExceptions project={project} record={record} />
      ) : null}
      <CodeBlock code={curlFor(record)} label="cURL command" title="Copy as cURL" />
      <Message name="Request" headers={record.request_headers} payload={record.request_payload} />
      <Message name="Response" headers={record.response_headers} payload={record.response_payload} />
    </>
  );
}

function ValidationErrors({ record }: { record: RequestDetail }) {
  return (
    <section className={styles.drawerSection} aria-label="Validation errors">
      <h3>Validation errors</h3>
      <ul className={styles.facts}>
        {record.validation_errors.map((error, index) => (
          <li key={index}>
            <span className={styles.mono}>{error.path || "(input)"}</span> · {error.rule}: {error.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Margin around the request's time for its logs: the handler logged while it ran. */
const LOG_WINDOW_MS = 10 * 60_000;

/** The ERROR/CRITICAL logs of the request's trace, with their stack, for a 5xx. */
function LoggedExceptions({ project, record }: { project: string; record: RequestDetail }) {
  const at = Date.parse(record.timestamp);
  const logs = useQuery(
    trafficApi.logs(project, {
      trace_id: record.trace_id,
      levels: "ERROR,CRITICAL",
      since: new Date(at - LOG_WINDOW_MS).toISOString(),
      until: new Date(at + LOG_WINDOW_MS).toISOString(),
    }),
  );
  if (logs.isError || logs.data === undefined || logs.data.items.length === 0) return null;
  return (
    <section className={styles.drawerSection} aria-label="Logged exception">
      <h3>Logged exception</h3>
      {logs.data.items.map((log) => (
        <div key={log.id}>
          <p>
            <strong>{log.level}</strong> {log.message}
            {log.logger_name !== "" ? <span className={styles.mono}> · {log.logger_name}</span> : null}
          </p>
          {log.payload !== "" ? <CodeBlock code={log.payload} label="Stack" /> : null}
        </div>
      ))}
    </section>
  );
}
