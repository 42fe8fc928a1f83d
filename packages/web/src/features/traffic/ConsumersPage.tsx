// The consumers list: search, sort and paging on the server, each row opening the consumer page.
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Page, PageHeader } from "../../components/ui/Surface";
import { table } from "../../components/ui/Table";
import { formatDateTime } from "../../lib/format";
import { useTimeZone } from "../../lib/use-time-zone";
import { FilterBar } from "./FilterBar";
import { formatCount, formatMs, formatRate, Pager, SortHeader } from "./parts";
import { noItems, QueryCard, Quiet } from "./query-view";
import { TextFilter } from "./TextFilter";
import { trafficApi } from "./traffic-api";
import styles from "./Traffic.module.css";
import { tableOrder, useDataPainted, useTrafficPage, windowParams } from "./use-traffic";

const PAGE_SIZE = 50;

export function ConsumersPage() {
  const { project, search, setSearch, window, refresh } = useTrafficPage();
  const zone = useTimeZone();
  const { sort, dir, page } = tableOrder(search, "total_requests", "consumer");
  const consumers = useQuery(
    trafficApi.consumers(project, {
      ...windowParams(search, window),
      q: search.q,
      sort_by: sort,
      sort_dir: dir,
      page,
      page_size: PAGE_SIZE,
    }),
  );
  useDataPainted(consumers.isSuccess);

  return (
    <Page>
      <PageHeader
        title="Consumers"
        description="Who calls your API, how much, and how often it fails them."
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <TextFilter
          label="Search consumers"
          type="search"
          value={search.q}
          placeholder="Id, name or group"
          onCommit={(q) => setSearch({ q, page: undefined })}
        />
      </FilterBar>
      <QueryCard
        title="Consumers"
        query={consumers}
        what="the consumers"
        rows={6}
        empty={{ when: noItems, show: <Quiet>No consumer matches in this window.</Quiet> }}
      >
        {(data) => (
          <>
            <div className={table.wrap}>
              <table className={table.table} aria-label="Consumers">
                <thead>
                  <tr>
                    <SortHeader
                      label="Consumer"
                      sortKey="consumer"
                      current={sort}
                      dir={dir}
                      defaultDir="asc"
                    />
                    <th scope="col">Group</th>
                    <SortHeader
                      label="Requests"
                      sortKey="total_requests"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader
                      label="Error rate"
                      sortKey="error_rate"
                      current={sort}
                      dir={dir}
                      align="end"
                    />
                    <SortHeader
                      label="p95"
                      sortKey="p95_response_time_ms"
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
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((row) => (
                    <tr key={row.consumer_id || "(unknown)"}>
                      <td>
                        {row.consumer_id === "" ? (
                          <span>unknown (no consumer id)</span>
                        ) : (
                          <Link
                            className={styles.rowLink}
                            to="/projects/$project/consumers/$consumer"
                            params={{ project, consumer: row.consumer_id }}
                            search={{
                              range: search.range,
                              since: search.since,
                              until: search.until,
                              app: search.app,
                              env: search.env,
                            }}
                          >
                            {row.consumer}
                          </Link>
                        )}
                        {row.consumer_name && row.consumer_id ? (
                          <span className={styles.updating}> · {row.consumer_id}</span>
                        ) : null}
                      </td>
                      <td>{row.consumer_group || "—"}</td>
                      <td className={styles.num}>{formatCount(row.total_requests)}</td>
                      <td className={styles.num}>{formatRate(row.error_rate)}</td>
                      <td className={styles.num}>{formatMs(row.p95_response_time_ms)}</td>
                      <td className={styles.num}>{formatDateTime(row.last_seen_at, zone)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} pageSize={PAGE_SIZE} total={data.total_count} what="consumers" />
          </>
        )}
      </QueryCard>
    </Page>
  );
}
