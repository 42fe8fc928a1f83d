// The request explorer: every filter of the data route in the URL, newest first with stable
// paging, a live mode that refetches page 1 every 5 s while the tab is visible, and the detail
// drawer (`req=` in the URL, so an open record can be shared).
import { useQuery } from "@tanstack/react-query";
import { Page, PageHeader } from "../../components/ui/Surface";
import { Switch } from "../../components/ui/Switch";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { appsQuery } from "../../lib/queries";
import { useTimeZone } from "../../lib/use-time-zone";
import { FilterBar } from "./FilterBar";
import { DownloadLinks } from "./DownloadLinks";
import { formatMs, MethodBadge, Pager, StatusPill } from "./parts";
import { noItems, QueryCard, Quiet } from "./query-view";
import { RequestDrawer } from "./RequestDrawer";
import { TextFilter } from "./TextFilter";
import { trafficApi } from "./traffic-api";
import { HTTP_METHODS, type TrafficSearch } from "./traffic-search";
import styles from "./Traffic.module.css";
import { useDataPainted, useTrafficPage } from "./use-traffic";

const PAGE_SIZE = 50;
const LIVE_MS = 5000;

/** The data route's parameters for a search (shared with the endpoint and consumer pages). */
export function requestParams(search: TrafficSearch, window: { since: string; until: string }, live = false) {
  return {
    app_slugs: search.app,
    environment: search.env,
    since: window.since,
    // Live mode leaves the window open at the end so new records arrive.
    until: live ? undefined : window.until,
    methods: search.method,
    status_classes: search.status,
    status_codes: search.codes,
    route: search.route,
    path_filter: search.path,
    consumer: search.consumer,
    trace_id: search.trace,
    min_response_time: search.min_ms,
    max_response_time: search.max_ms,
  };
}

export function RequestsPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const zone = useTimeZone();
  const page = search.page ?? 1;
  const live = search.live === true && page === 1 && search.since === undefined;
  const filters = requestParams(search, window, live);
  const requests = useQuery({
    ...trafficApi.requests(project, { ...filters, page, page_size: PAGE_SIZE }),
    refetchInterval: live ? LIVE_MS : false,
  });
  useDataPainted(requests.isSuccess);
  const apps = useQuery(appsQuery(project));
  const appSlugOf = (id: string) => apps.data?.find((app) => app.id === id)?.slug;

  return (
    <Page>
      <PageHeader
        title="Requests"
        description="Every request your apps reported, newest first."
        actions={
          <>
            <DownloadLinks project={project} kind="requests" params={filters} />
            <span className={styles.liveToggle}>
              <span aria-hidden="true" className={live ? styles.live : undefined}>
                {live ? "Live · every 5 s" : "Live"}
              </span>
              <Switch
                label="Live mode: show new requests as they arrive"
                checked={search.live === true}
                onChange={(checked) =>
                  setSearch({ live: checked ? true : undefined, page: undefined }, { replace: true })
                }
              />
            </span>
          </>
        }
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <label className={styles.filter}>
          <span>Method</span>
          <select
            value={search.method ?? ""}
            onChange={(e) => setSearch({ method: e.target.value || undefined, page: undefined })}
          >
            <option value="">Any</option>
            {HTTP_METHODS.map((method) => (
              <option key={method} value={method}>
                {method}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.filter}>
          <span>Status</span>
          <select
            value={search.status ?? ""}
            onChange={(e) => setSearch({ status: e.target.value || undefined, page: undefined })}
          >
            <option value="">Any</option>
            <option value="2xx">2xx</option>
            <option value="3xx">3xx</option>
            <option value="4xx">4xx</option>
            <option value="5xx">5xx</option>
            <option value="4xx,5xx">4xx and 5xx</option>
            {search.status !== undefined &&
            !["2xx", "3xx", "4xx", "5xx", "4xx,5xx"].includes(search.status) ? (
              <option value={search.status}>{search.status}</option>
            ) : null}
          </select>
        </label>
        <TextFilter
          label="Status codes"
          value={search.codes}
          placeholder="404,500"
          width="8"
          onCommit={(codes) => setSearch({ codes, page: undefined })}
        />
        <TextFilter
          label="Route"
          value={search.route}
          placeholder="/orders/{id}"
          onCommit={(route) => setSearch({ route, page: undefined })}
        />
        <TextFilter
          label="Path pattern"
          value={search.path}
          placeholder="/orders/*"
          onCommit={(path) => setSearch({ path, page: undefined })}
        />
        <TextFilter
          label="Consumer id"
          value={search.consumer}
          width="12"
          onCommit={(consumer) => setSearch({ consumer, page: undefined })}
        />
        <TextFilter
          label="Min ms"
          type="number"
          width="6"
          value={search.min_ms?.toString()}
          onCommit={(v) => setSearch({ min_ms: v === undefined ? undefined : Number(v), page: undefined })}
        />
        <TextFilter
          label="Max ms"
          type="number"
          width="6"
          value={search.max_ms?.toString()}
          onCommit={(v) => setSearch({ max_ms: v === undefined ? undefined : Number(v), page: undefined })}
        />
        <TextFilter
          label="Trace id"
          value={search.trace}
          width="20"
          onCommit={(trace) => setSearch({ trace, page: undefined })}
        />
      </FilterBar>
      <QueryCard
        title="Requests"
        updating={requests.isPlaceholderData || requests.isRefetching}
        query={requests}
        what="the requests"
        rows={8}
        empty={{
          when: noItems,
          show: (
            <Quiet>
              No requests match between {formatDateTime(window.since, zone)} and{" "}
              {formatDateTime(window.until, zone)}.
            </Quiet>
          ),
        }}
      >
        {(data) => (
          <>
            <div className={table.wrap}>
              <table className={table.table} aria-label="Requests">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Request</th>
                    <th scope="col">Status</th>
                    <th scope="col" className={styles.num}>
                      Time taken
                    </th>
                    <th scope="col">Consumer</th>
                    <th scope="col">App · env</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((row) => (
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
                      <td>
                        {appSlugOf(row.app_id) ?? "—"} · {row.environment}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total_count} what="requests" />
          </>
        )}
      </QueryCard>
      <RequestDrawer
        project={project}
        id={search.req}
        onClose={() => setSearch({ req: undefined })}
        appSlugOf={appSlugOf}
      />
    </Page>
  );
}
