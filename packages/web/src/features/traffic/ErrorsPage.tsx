// The errors page: 4xx and 5xx over time, and the (endpoint, status code) breakdown with counts,
// affected consumers, first seen (over the retained data; a "New" badge when inside the window)
// and last seen, each row linking to its sample requests.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { TimeSeriesChart } from "../../components/charts";
import { Badge } from "../../components/ui/Feedback";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { FilterBar } from "./FilterBar";
import { errorSeries, formatCount, MethodBadge, Pager, SortHeader, StatusPill } from "./parts";
import { noItems, QueryCard, QueryView, Quiet } from "./query-view";
import { trafficApi } from "./traffic-api";
import { intervalMs } from "./traffic-search";
import styles from "./Traffic.module.css";
import { tableOrder, useDataPainted, useTrafficPage, windowParams } from "./use-traffic";

const PAGE_SIZE = 25;

export function ErrorsPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const zone = useTimeZone();
  const base = windowParams(search, window);
  const series = useQuery(trafficApi.timeseries(project, base));
  const { sort, dir, page } = tableOrder(search, "count");
  const classes = search.status === "4xx" || search.status === "5xx" ? search.status : undefined;
  const errors = useQuery(
    trafficApi.errors(project, {
      ...base,
      status_classes: classes,
      sort_by: sort,
      sort_dir: dir,
      page,
      page_size: PAGE_SIZE,
    }),
  );
  useDataPainted(series.isSuccess && errors.isSuccess);

  return (
    <Page>
      <PageHeader title="Errors" description="Failed requests over time, by endpoint and status code." />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <label className={styles.filter}>
          <span>Class</span>
          <select
            value={classes ?? ""}
            onChange={(e) => setSearch({ status: e.target.value || undefined, page: undefined })}
          >
            <option value="">4xx and 5xx</option>
            <option value="4xx">4xx only</option>
            <option value="5xx">5xx only</option>
          </select>
        </label>
      </FilterBar>
      <Card title="Errors over time">
        <QueryView query={series} what="the errors chart" rows={4}>
          {(data) => (
            <TimeSeriesChart
              label="Client and server errors over time"
              buckets={data.points.map((point) => point.bucket)}
              bucketMs={intervalMs(data.interval)}
              series={errorSeries(data)}
              formatValue={formatCount}
              timeZone={data.timezone}
              onZoom={(range) => setSearch({ ...range, range: undefined, page: undefined })}
            />
          )}
        </QueryView>
      </Card>
      <QueryCard
        title="By endpoint and status"
        query={errors}
        what="the errors"
        rows={5}
        empty={{ when: noItems, show: <Quiet>No failed requests in this window.</Quiet> }}
      >
        {(data) => (
          <>
            <div className={table.wrap}>
              <table className={table.table} aria-label="Errors">
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Status</th>
                    <SortHeader label="Count" sortKey="count" current={sort} dir={dir} align="end" />
                    <SortHeader
                      label="Consumers"
                      sortKey="affected_consumers"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader
                      label="First seen"
                      sortKey="first_seen_at"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader
                      label="Last seen"
                      sortKey="last_seen_at"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <th scope="col">Samples</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((row) => (
                    <tr key={`${row.app_id} ${row.method} ${row.path} ${row.status_code}`}>
                      <td>
                        <MethodBadge method={row.method} /> <span className={styles.mono}>{row.path}</span>
                        {row.app_slug ? <span className={styles.updating}> · {row.app_slug}</span> : null}
                        {row.is_new ? (
                          <>
                            {" "}
                            <Badge tone="warning">New</Badge>
                          </>
                        ) : null}
                      </td>
                      <td>
                        <StatusPill code={row.status_code} />
                      </td>
                      <td className={styles.num}>{formatCount(row.count)}</td>
                      <td className={styles.num}>{formatCount(row.affected_consumers)}</td>
                      <td className={styles.num}>{formatDateTime(row.first_seen_at, zone)}</td>
                      <td className={styles.num}>{formatDateTime(row.last_seen_at, zone)}</td>
                      <td>
                        <Link
                          className={styles.rowLink}
                          to="/projects/$project/requests"
                          params={{ project }}
                          search={{
                            range: search.range,
                            since: search.since,
                            until: search.until,
                            env: search.env,
                            app: row.app_slug ?? undefined,
                            method: row.method,
                            route: row.path,
                            codes: String(row.status_code),
                          }}
                          aria-label={`Requests of ${row.method} ${row.path} answered ${row.status_code}`}
                        >
                          Requests
                        </Link>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total_count} what="groups" />
          </>
        )}
      </QueryCard>
    </Page>
  );
}
