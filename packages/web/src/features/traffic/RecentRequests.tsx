// A short list of the newest requests matching some filters (an endpoint's, a consumer's), each
// opening the request drawer, and a link to the explorer with the same filters.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { SkeletonRows } from "../../components/ui/Feedback";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { Failed, formatMs, MethodBadge, StatusPill } from "./parts";
import { RequestDrawer } from "./RequestDrawer";
import { requestParams } from "./RequestsPage";
import { trafficApi } from "./traffic-api";
import type { TimeWindow, TrafficSearch } from "./traffic-search";
import styles from "./Traffic.module.css";
import { useSetSearch } from "./use-traffic";

export function RecentRequests({
  project,
  filters,
  window,
  openId,
  label,
}: {
  project: string;
  /** The filters, in the explorer's URL terms. */
  filters: TrafficSearch;
  window: TimeWindow;
  openId: string | undefined;
  label: string;
}) {
  const setSearch = useSetSearch();
  const zone = useTimeZone();
  const requests = useQuery(
    trafficApi.requests(project, { ...requestParams(filters, window), page: 1, page_size: 20 }),
  );
  const apps = useQuery(appsQuery(project));
  const appSlugOf = (id: string) => apps.data?.find((app) => app.id === id)?.slug;
  const { range, since, until, app, env, method, status, codes, route, consumer } = filters;
  return (
    <>
      {requests.isError ? (
        <Failed error={requests.error} what="the recent requests" retry={() => void requests.refetch()} />
      ) : requests.data === undefined ? (
        <SkeletonRows rows={5} label="Loading the recent requests" />
      ) : requests.data.items.length === 0 ? (
        <p className={styles.updating}>No requests in this window.</p>
      ) : (
        <div className={table.wrap}>
          <table className={table.table} aria-label={label}>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col" className={styles.num}>
                  Time taken
                </th>
                <th scope="col">Consumer</th>
              </tr>
            </thead>
            <tbody>
              {requests.data.items.map((row) => (
                <tr
                  key={row.id}
                  className={styles.clickRow}
                  tabIndex={0}
                  data-request-id={row.id}
                  onClick={() => setSearch({ req: row.id })}
                  onKeyDown={(event) => {
                    if (event.key === "Enter") setSearch({ req: row.id });
                  }}
                >
                  <td className={styles.num}>{formatDateTime(row.timestamp, zone)}</td>
                  <td>
                    <MethodBadge method={row.method} /> <span className={styles.mono}>{row.path}</span>
                  </td>
                  <td>
                    <StatusPill code={row.status_code} />
                  </td>
                  <td className={styles.num}>{formatMs(row.response_time_ms)}</td>
                  <td>{row.consumer_name || row.consumer_id || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <Link
          className={styles.rowLink}
          to="/projects/$project/requests"
          params={{ project }}
          search={{ range, since, until, app, env, method, status, codes, route, consumer }}
        >
          Open in the request explorer ({requests.data?.total_count ?? "…"} requests)
        </Link>
      </p>
      <RequestDrawer
        project={project}
        id={openId}
        onClose={() => setSearch({ req: undefined })}
        appSlugOf={appSlugOf}
      />
    </>
  );
}
