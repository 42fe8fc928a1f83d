// Everything stored for one request: timing, sizes, consumer, client, headers, pretty-printed
// payloads with copy, "copy as cURL", and links to its endpoint, its consumer, its trace and the
// logs of its trace. Captured data is untrusted: it is rendered as text only.
import type { RequestDetail } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { buttonClass } from "../ui/Button";
import { CodeBlock } from "../ui/Code";
import { SkeletonRows } from "../ui/Feedback";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { curlFor, prettyPayload } from "../../lib/curl";
import { Drawer } from "./Drawer";
import { Failed, formatBytes, formatMs, MethodBadge, StatusPill } from "./parts";
import { trafficApi } from "../../lib/traffic-api";
import styles from "./Data.module.css";

export function RequestDrawer({
  project,
  id,
  onClose,
  appSlugOf,
}: {
  project: string;
  id: string | undefined;
  onClose: () => void;
  /** The app slug of an app id (the records carry ids). */
  appSlugOf: (appId: string) => string | undefined;
}) {
  const detail = useQuery({ ...trafficApi.request(project, id ?? ""), enabled: id !== undefined });
  const record = detail.data;
  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
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

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  return (
    <section className={styles.drawerSection} aria-label={title}>
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p className={styles.updating}>None captured.</p>
      ) : (
        <dl className={styles.facts}>
          {entries.map(([name, value]) => (
            <div key={name} className={styles.inlineFilters}>
              <dt className={styles.mono}>{name}</dt>
              <dd className={styles.mono}>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
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
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/traces/$traceId"
            params={{ project, traceId: record.trace_id }}
          >
            View trace
          </Link>
        ) : null}
        {record.trace_id !== "" ? (
          <Link
            className={buttonClass({ size: "sm" })}
            to="/projects/$project/logs"
            params={{ project }}
            search={{ trace: record.trace_id, range: "30d" }}
          >
            Logs of this trace
          </Link>
        ) : null}
      </div>
      <CodeBlock code={curlFor(record)} label="cURL command" title="Copy as cURL" />
      <Headers title="Request headers" headers={record.request_headers} />
      {record.request_payload !== "" ? (
        <CodeBlock code={prettyPayload(record.request_payload)} label="Request payload" />
      ) : null}
      <Headers title="Response headers" headers={record.response_headers} />
      {record.response_payload !== "" ? (
        <CodeBlock code={prettyPayload(record.response_payload)} label="Response payload" />
      ) : null}
    </>
  );
}
