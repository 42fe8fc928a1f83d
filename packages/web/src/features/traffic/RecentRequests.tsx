// A short list of the newest requests matching some filters (an endpoint's, a consumer's), each
// opening the request drawer, the server export of every match, and a link to the explorer with
// the same filters.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import styles from "../../components/data/Data.module.css";
import { DataTable } from "../../components/data/DataTable";
import { DownloadLinks } from "../../components/data/DownloadLinks";
import { QueryView, Quiet, noItems } from "../../components/data/QueryView";
import { RequestDrawer } from "../../components/data/RequestDrawer";
import { requestColumns, requestRowData } from "../../components/data/request-columns";
import { requestsQuery } from "../../lib/api-params";
import type { TimeWindow, TrafficSearch } from "../../lib/filters";
import { useSetSearch } from "../../lib/page-state";
import { appsQuery } from "../../lib/queries";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";

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
    trafficApi.requests(project, { ...requestsQuery(filters, window), page: 1, page_size: 20 }),
  );
  const apps = useQuery(appsQuery(project));
  const appSlugOf = (id: string) => apps.data?.find((app) => app.id === id)?.slug;
  const { range, since, until, app, env, method, status, codes, route, consumer } = filters;
  return (
    <>
      <QueryView
        query={requests}
        what="the recent requests"
        rows={5}
        empty={{ when: noItems, show: <Quiet>No requests in this window.</Quiet> }}
      >
        {(data) => (
          <DataTable
            label={label}
            rows={data.items}
            columns={requestColumns({ zone })}
            rowKey={(row) => row.id}
            rowData={requestRowData}
            onOpen={(row) => setSearch({ req: row.id })}
            exportName={false}
          />
        )}
      </QueryView>
      <p className={styles.recentFoot}>
        <DownloadLinks project={project} kind="requests" params={requestsQuery(filters, window)} />
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
