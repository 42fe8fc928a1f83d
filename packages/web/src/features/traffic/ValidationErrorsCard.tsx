// The endpoint page's "top validation errors by field": each field path and rule the SDK captured
// on refused (400/422) answers in the window, how often, and its share of the refused requests —
// never the offending values (the SDK does not send them), with a link to those requests.
import type { EndpointQuery } from "@sightline/contracts";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import styles from "../../components/data/Data.module.css";
import { DataTable } from "../../components/data/DataTable";
import { formatCount, formatRate } from "../../components/data/parts";
import { QueryCard, Quiet } from "../../components/data/QueryView";
import { table } from "../../components/ui/Table";
import { sharedSearch, type TrafficSearch } from "../../lib/filters";
import { trafficApi } from "../../lib/traffic-api";

/** The rows the card shows: the server's order (most frequent first). */
const TOP = 10;

export function ValidationErrorsCard({
  project,
  app,
  params,
  search,
  painted,
}: {
  project: string;
  app: string;
  params: EndpointQuery;
  search: TrafficSearch;
  /** The page's own figures have painted: this card's read waits for them (first-paint budget). */
  painted: boolean;
}) {
  const errors = useQuery({
    ...trafficApi.endpointValidationErrors(project, app, { ...params, limit: TOP }),
    enabled: painted,
  });
  return (
    <QueryCard
      title="Top validation errors by field"
      query={errors}
      what="the validation errors"
      rows={3}
      empty={{
        when: (data) => data.length === 0,
        show: <Quiet>No request to this endpoint was refused with validation errors in this window.</Quiet>,
      }}
    >
      {(data) => (
        <>
          <DataTable
            label="Validation errors by field and rule"
            rows={data}
            rowKey={(row) => `${row.path}\u0000${row.rule}`}
            columns={[
              {
                header: "Field",
                cell: (row) => (
                  <span className={styles.mono}>{row.path === "" ? "(whole input)" : row.path}</span>
                ),
              },
              { header: "Rule", cell: (row) => <span className={styles.mono}>{row.rule}</span> },
              { header: "Count", numeric: true, cell: (row) => formatCount(row.occurrences) },
              {
                header: "Share of refused requests",
                numeric: true,
                cell: (row) => formatRate(row.share),
              },
              { header: "Latest message", className: table.muted, cell: (row) => row.message },
            ]}
          />
          <Link
            to="/projects/$project/requests"
            params={{ project }}
            search={{
              ...sharedSearch(search),
              app,
              method: params.method,
              route: params.path,
              codes: "400,422",
            }}
          >
            Refused requests of this endpoint
          </Link>
        </>
      )}
    </QueryCard>
  );
}
