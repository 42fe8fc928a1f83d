// The request explorer: every filter of the data route in the URL (text filters apply as you
// type), newest first (or slowest, largest) with stable paging, a latency histogram whose brush
// sets the duration filters, a live mode that refetches page 1 every 5 s while the tab is
// visible, and the detail drawer (`req=` in the URL, so an open record can be shared).
import { useQuery } from "@tanstack/react-query";
import { ConsumerPicker } from "../../components/data/ConsumerPicker";
import { EXPLORER_PAGE_SIZE, ExplorerCard } from "../../components/data/ListCard";
import { StreamHeader } from "../../components/data/StreamHeader";
import { FilterBar } from "../../components/data/FilterBar";
import { QueryView } from "../../components/data/QueryView";
import { RequestDrawer } from "../../components/data/RequestDrawer";
import { requestColumns, requestRowData } from "../../components/data/request-columns";
import { UrlChoiceFilter, UrlNumberFilter, UrlTextFilter } from "../../components/data/UrlFilters";
import { Card, Page } from "../../components/ui/Surface";
import { requestsHistogramQuery, requestsOrder, requestsQuery, windowQuery } from "../../lib/api-params";
import { HTTP_METHODS, STATUS_CLASSES } from "../../lib/filters";
import { useDataPage, useDataPainted } from "../../lib/page-state";
import { appsQuery } from "../../lib/queries";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { LatencyHistogram } from "./LatencyHistogram";
import { RetentionNotice } from "./RetentionNotice";

const LIVE_MS = 5000;
const STATUS_CHOICES = [...STATUS_CLASSES, { value: "4xx,5xx", label: "4xx and 5xx" }];

export function RequestsPage() {
  const { project, search, setSearch, window, refresh } = useDataPage();
  const zone = useTimeZone();
  const order = requestsOrder(search);
  const page = order.page;
  const live = search.live === true && page === 1 && search.since === undefined;
  const filters = requestsQuery(search, window, live);
  const requests = useQuery({
    ...trafficApi.requests(project, {
      ...filters,
      sort_by: order.sort,
      sort_dir: order.dir,
      page,
      page_size: EXPLORER_PAGE_SIZE,
    }),
    refetchInterval: live ? LIVE_MS : false,
  });
  const histogram = useQuery({
    ...trafficApi.requestsHistogram(project, requestsHistogramQuery(search, window, live)),
    refetchInterval: live ? LIVE_MS : false,
  });
  useDataPainted(requests.isSuccess);
  const apps = useQuery(appsQuery(project));
  const appSlugOf = (id: string) => apps.data?.find((app) => app.id === id)?.slug;

  return (
    <Page>
      <StreamHeader
        description="Every request your apps reported: newest, slowest or largest first."
        download={{ project, kind: "requests", params: filters }}
        live={{
          label: "Live mode: show new requests as they arrive",
          state: live ? "Live · every 5 s" : "Live",
          beating: live,
        }}
      />
      <FilterBar search={search} window={window} onRefresh={refresh}>
        <UrlChoiceFilter param="method" label="Method" choices={HTTP_METHODS} />
        <UrlChoiceFilter param="status" label="Status" choices={STATUS_CHOICES} />
        <UrlTextFilter param="codes" label="Status codes" placeholder="404,500" width="8" />
        <UrlTextFilter param="route" label="Route" placeholder="/orders/{id}" />
        <UrlTextFilter param="path" label="Path pattern" placeholder="/orders/*" />
        <ConsumerPicker
          value={search.consumer}
          window={windowQuery(search, window)}
          onPick={(consumer) => setSearch({ consumer, page: undefined })}
        />
        <UrlNumberFilter param="min_ms" label="Min ms" />
        <UrlNumberFilter param="max_ms" label="Max ms" />
        <UrlTextFilter param="trace" label="Trace id" width="20" />
      </FilterBar>
      <Card title="Response times">
        <QueryView query={histogram} what="the response time histogram" rows={3}>
          {(data) => (
            <LatencyHistogram
              data={data}
              minMs={search.min_ms}
              maxMs={search.max_ms}
              onSelect={(range) => setSearch({ min_ms: range.min_ms, max_ms: range.max_ms, page: undefined })}
            />
          )}
        </QueryView>
      </Card>
      <RetentionNotice project={project} retention={requests.data?.retention} what="requests" />
      <ExplorerCard
        kind="requests"
        window={window}
        zone={zone}
        query={requests}
        page={page}
        columns={requestColumns({ zone, appSlugOf, sortable: true })}
        order={order}
        rowKey={(row) => row.id}
        rowData={requestRowData}
        onOpen={(row) => setSearch({ req: row.id })}
      />
      <RequestDrawer
        project={project}
        id={search.req}
        onClose={() => setSearch({ req: undefined })}
        appSlugOf={appSlugOf}
        onStep={(delta) => {
          const rows = requests.data?.items ?? [];
          const next = rows[rows.findIndex((row) => row.id === search.req) + delta];
          if (next !== undefined) setSearch({ req: next.id }, { replace: true });
        }}
      />
    </Page>
  );
}
