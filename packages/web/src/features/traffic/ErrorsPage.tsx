// The errors page: 4xx and 5xx over time, and the (endpoint, status code) breakdown with counts,
// affected consumers, first seen (over the retained data; a "New" badge when inside the window)
// and last seen, each row linking to its sample requests; beside it the exceptions and error logs
// grouped into issues by fingerprint.
import { useQuery } from "@tanstack/react-query";
import { TimeSeriesChart } from "../../components/charts";
import { ListCard } from "../../components/data/ListCard";
import { FilterBar } from "../../components/data/FilterBar";
import { UrlChoiceFilter } from "../../components/data/UrlFilters";
import { errorSeries, formatCount, previousOverlay, previousPeriodOf } from "../../components/data/parts";
import { QueryView, Quiet } from "../../components/data/QueryView";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { errorsOrder, errorsQuery, previousPeriodQuery, windowQuery } from "../../lib/api-params";
import { intervalMs } from "../../lib/filters";
import { settled, useComparisonPainted, useDataPage, useDataPainted } from "../../lib/page-state";
import { trafficApi } from "../../lib/traffic-api";
import { useTimeZone } from "../../lib/use-time-zone";
import { errorColumns, errorKey } from "./columns";
import { ErrorIssues } from "./ErrorIssues";

const PAGE_SIZE = 25;

export function ErrorsPage() {
  const { project, search, setSearch, window, refresh } = useDataPage();
  const zone = useTimeZone();
  const series = useQuery(trafficApi.timeseries(project, windowQuery(search, window)));
  const before = useQuery({
    ...trafficApi.timeseries(project, previousPeriodQuery(windowQuery(search, window), window, series.data)),
    enabled: search.compare === true && series.data !== undefined,
  });
  const previous = previousPeriodOf(before, window.ms, search.compare);
  const order = errorsOrder(search);
  const errors = useQuery(
    trafficApi.errors(project, { ...errorsQuery(search, window), page: order.page, page_size: PAGE_SIZE }),
  );
  const marked = useDataPainted(series.isSuccess && errors.isSuccess);
  // Only the chart compares here, and only when the switch is on.
  useComparisonPainted(search.compare === true && marked && settled(before, true));

  return (
    <Page>
      <PageHeader
        title="Errors"
        description="Failed requests over time, by endpoint and status code, and the exceptions behind them."
      />
      <FilterBar search={search} window={window} onRefresh={refresh} compare>
        <UrlChoiceFilter
          param="status"
          label="Class"
          anyLabel="4xx and 5xx"
          choices={[
            { value: "4xx", label: "4xx only" },
            { value: "5xx", label: "5xx only" },
          ]}
        />
      </FilterBar>
      <Card title="Errors over time">
        <QueryView query={series} what="the errors chart" rows={4}>
          {(data) => (
            <TimeSeriesChart
              label="Client and server errors over time"
              buckets={data.points.map((point) => point.bucket)}
              bucketMs={intervalMs(data.interval)}
              series={[
                ...errorSeries(data),
                ...(previous === undefined
                  ? []
                  : [
                      previousOverlay(
                        data,
                        previous,
                        "Errors, previous period",
                        (point) => point.client_errors + point.server_errors,
                      ),
                    ]),
              ]}
              formatValue={formatCount}
              timeZone={data.timezone}
              onZoom={(range) => setSearch({ ...range, range: undefined, page: undefined })}
            />
          )}
        </QueryView>
      </Card>
      <ErrorIssues project={project} search={search} window={window} />
      <ListCard
        title="By endpoint and status"
        query={errors}
        what="the errors"
        skeletonRows={5}
        empty={<Quiet>No failed requests in this window.</Quiet>}
        page={order.page}
        pageSize={PAGE_SIZE}
        counted="groups"
        label="Errors"
        columns={errorColumns(project, zone, search)}
        rowKey={errorKey}
        order={order}
        exportName={`${project}-errors`}
      />
    </Page>
  );
}
