// The errors page: 4xx and 5xx over time, and the (endpoint, status code) breakdown with counts,
// affected consumers, first seen (over the retained data; a "New" badge when inside the window)
// and last seen, each row linking to its sample requests; beside it the exceptions and error logs
// grouped into issues by fingerprint.
import { useQuery } from "@tanstack/react-query";
import { PeriodChart } from "../../components/data/PeriodChart";
import { OrderedListCard } from "../../components/data/ListCard";
import { FilterBar } from "../../components/data/FilterBar";
import { UrlChoiceFilter } from "../../components/data/UrlFilters";
import { errorSeries, formatCount, previousPeriodOf } from "../../components/data/parts";
import { QueryView } from "../../components/data/QueryView";
import { Card, Page, PageHeader } from "../../components/ui/Surface";
import { errorsOrder, errorsQuery, pageOf, previousPeriodQuery, windowQuery } from "../../lib/api-params";
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
    trafficApi.errors(project, { ...errorsQuery(search, window), ...pageOf(order, PAGE_SIZE) }),
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
            <PeriodChart
              label="Client and server errors over time"
              data={data}
              series={errorSeries(data)}
              previous={previous}
              overlay={{
                label: "Errors, previous period",
                value: (point) => point.client_errors + point.server_errors,
              }}
              formatValue={formatCount}
              onZoom={(range) => setSearch({ ...range, range: undefined, page: undefined })}
            />
          )}
        </QueryView>
      </Card>
      <ErrorIssues project={project} search={search} window={window} />
      <OrderedListCard
        title="By endpoint and status"
        label="Errors"
        what="the errors"
        counted="groups"
        empty="No failed requests in this window."
        query={errors}
        order={order}
        pageSize={PAGE_SIZE}
        columns={errorColumns(project, zone, search)}
        rowKey={errorKey}
      />
    </Page>
  );
}
