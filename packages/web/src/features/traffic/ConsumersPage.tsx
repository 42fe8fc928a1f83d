// The consumers list: search (as you type), sort and paging on the server, each row opening the
// consumer page; the rows on screen can be downloaded.
import type { ProjectConsumerStats } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import styles from "../../components/data/Data.module.css";
import { OrderedListCard } from "../../components/data/ListCard";
import type { Column } from "../../components/data/DataTable";
import { FilterBar } from "../../components/data/FilterBar";
import { formatCount, formatMs, formatRate } from "../../components/data/parts";
import { UrlTextFilter } from "../../components/data/UrlFilters";
import { Page, PageHeader } from "../../components/ui/Surface";
import { consumersOrder, consumersQuery, pageOf } from "../../lib/api-params";
import { sharedSearch } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";
import { useDataPage, useDataPainted } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";

const PAGE_SIZE = 50;

export function ConsumersPage() {
  const { project, search, window, refresh } = useDataPage();
  const navigate = useNavigate();
  const zone = useTimeZone();
  const order = consumersOrder(search);
  const consumers = useQuery(
    trafficApi.consumers(project, { ...consumersQuery(search, window), ...pageOf(order, PAGE_SIZE) }),
  );
  useDataPainted(consumers.isSuccess);
  const carried = sharedSearch(search);

  const columns: Column<ProjectConsumerStats>[] = [
    {
      header: "Consumer",
      sortKey: "consumer",
      defaultDir: "asc",
      cell: (row) => (
        <>
          {row.consumer_id === "" ? (
            <span>unknown (no consumer id)</span>
          ) : (
            <Link
              className={styles.rowLink}
              to="/projects/$project/consumers/$consumer"
              params={{ project, consumer: row.consumer_id }}
              search={carried}
            >
              {row.consumer}
            </Link>
          )}
          {row.consumer_name && row.consumer_id ? (
            <span className={styles.updating}> · {row.consumer_id}</span>
          ) : null}
        </>
      ),
    },
    { header: "Group", cell: (row) => row.consumer_group || "—" },
    {
      header: "Requests",
      sortKey: "total_requests",
      numeric: true,
      cell: (row) => formatCount(row.total_requests),
    },
    { header: "Error rate", sortKey: "error_rate", numeric: true, cell: (row) => formatRate(row.error_rate) },
    {
      header: "p95",
      sortKey: "p95_response_time_ms",
      numeric: true,
      cell: (row) => formatMs(row.p95_response_time_ms),
    },
    {
      header: "Last seen",
      sortKey: "last_seen_at",
      numeric: true,
      cell: (row) => formatDateTime(row.last_seen_at, zone),
    },
  ];

  return (
    <Page>
      <PageHeader
        title="Consumers"
        description="Who calls your API, how much, and how often it fails them."
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <UrlTextFilter param="q" label="Search consumers" type="search" placeholder="Id, name or group" />
      </FilterBar>
      <OrderedListCard
        title="Consumers"
        counted="consumers"
        query={consumers}
        order={order}
        pageSize={PAGE_SIZE}
        skeletonRows={6}
        empty="No consumer matches in this window."
        columns={columns}
        rowKey={(row) => row.consumer_id || "(unknown)"}
        onOpen={(row) => {
          if (row.consumer_id === "") return;
          void navigate({
            to: "/projects/$project/consumers/$consumer",
            params: { project, consumer: row.consumer_id },
            search: carried,
          });
        }}
      />
    </Page>
  );
}
