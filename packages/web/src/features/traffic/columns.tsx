// The columns of the traffic feature's tables: endpoints (the overview's and a consumer's) and
// error groups (the errors page's and a consumer's), so one row reads the same on every page.
import type { ErrorGroup, ProjectEndpointStats } from "@sightline/contracts";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import styles from "../../components/data/Data.module.css";
import type { Column } from "../../components/data/DataTable";
import {
  formatBytes,
  formatCount,
  formatMs,
  formatRate,
  MethodBadge,
  PathText,
  StatusPill,
} from "../../components/data/parts";
import { Badge } from "../../components/ui/Feedback";
import { sharedSearch, type TrafficSearch } from "../../lib/filters";
import { formatDateTime } from "../../lib/format";

/** The endpoint, linking to its page with the current range, app and environment. */
function EndpointCell({ project, row }: { project: string; row: ProjectEndpointStats }) {
  return (
    <>
      <MethodBadge method={row.method} />{" "}
      {row.app_slug !== null ? (
        <Link
          className={styles.rowLink}
          to="/projects/$project/endpoints/detail"
          params={{ project }}
          search={(previous) => ({
            ...sharedSearch(previous),
            app: row.app_slug ?? undefined,
            method: row.method,
            path: row.path,
          })}
        >
          <PathText path={row.path} />
        </Link>
      ) : (
        <PathText path={row.path} />
      )}
    </>
  );
}

export const endpointKey = (row: { app_id: string; method: string; path: string }) =>
  `${row.app_id} ${row.method} ${row.path}`;

/** The overview's full set (`full`), or the short one of a consumer's page. */
export function endpointColumns(
  project: string,
  zone: string | undefined,
  full: boolean,
): Column<ProjectEndpointStats>[] {
  const endpoint: Column<ProjectEndpointStats> = {
    header: "Endpoint",
    sortKey: "endpoint",
    defaultDir: "asc",
    cell: (row) => <EndpointCell project={project} row={row} />,
  };
  const requests: Column<ProjectEndpointStats> = {
    header: "Requests",
    sortKey: "total_requests",
    numeric: true,
    cell: (row) => formatCount(row.total_requests),
  };
  const p95: Column<ProjectEndpointStats> = {
    header: "p95",
    sortKey: "p95_response_time_ms",
    numeric: true,
    cell: (row) => formatMs(row.p95_response_time_ms),
  };
  if (!full) {
    return [
      endpoint,
      requests,
      { header: "Error rate", numeric: true, cell: (row) => formatRate(row.error_rate) },
      p95,
    ];
  }
  return [
    endpoint,
    { header: "App", className: styles.nowrap, cell: (row) => row.app_slug ?? "deleted app" },
    requests,
    {
      header: "Error rate",
      sortKey: "error_rate",
      numeric: true,
      cell: (row) => (
        <>
          {formatRate(row.error_rate)}
          {row.server_errors > 0 ? (
            <span className={styles.bad} title={`${row.server_errors} server errors`}>
              {" "}
              ▲ {row.server_errors} × 5xx
            </span>
          ) : null}
        </>
      ),
    },
    p95,
    {
      header: "Data",
      sortKey: "data_transfer",
      numeric: true,
      cell: (row) => formatBytes(row.total_request_bytes + row.total_response_bytes),
    },
    {
      header: "Last seen",
      sortKey: "last_seen_at",
      numeric: true,
      cell: (row) => formatDateTime(row.last_seen_at, zone),
    },
  ];
}

export const errorKey = (row: ErrorGroup) => `${row.app_id} ${row.method} ${row.path} ${row.status_code}`;

/**
 * What follows an error's name in a row: its app, and "New" when first seen in the window
 * ("Regressed" when it came back after it was resolved, where the API knows).
 */
export function ErrorTail({
  app,
  isNew,
  regressed = false,
}: {
  app: string | null | undefined;
  isNew: boolean;
  regressed?: boolean;
}) {
  return (
    <>
      {app ? <span className={styles.updating}> · {app}</span> : null}
      {isNew ? (
        <>
          {" "}
          <Badge tone="warning">New</Badge>
        </>
      ) : null}
      {regressed ? (
        <>
          {" "}
          <Badge tone="danger">Regressed</Badge>
        </>
      ) : null}
    </>
  );
}

/** The endpoint of an error group, its app, and a "New" badge when first seen in the window. */
function ErrorEndpoint({ row }: { row: ErrorGroup }) {
  return (
    <>
      <MethodBadge method={row.method} /> <PathText path={row.path} />
      <ErrorTail app={row.app_slug} isNew={row.is_new} />
    </>
  );
}

/** The errors page's full set (with a link to the samples), or the short one of a consumer. */
export function errorColumns(
  project: string,
  zone: string | undefined,
  search: TrafficSearch | undefined,
): Column<ErrorGroup>[] {
  const endpoint: Column<ErrorGroup> = { header: "Endpoint", cell: (row) => <ErrorEndpoint row={row} /> };
  const status: Column<ErrorGroup> = {
    header: "Status",
    cell: (row) => <StatusPill code={row.status_code} />,
  };
  const count: Column<ErrorGroup> = {
    header: "Count",
    sortKey: "count",
    numeric: true,
    cell: (row) => formatCount(row.count),
  };
  if (search === undefined) return [endpoint, status, count];
  return [
    endpoint,
    status,
    count,
    {
      header: "Consumers",
      sortKey: "affected_consumers",
      numeric: true,
      cell: (row) => formatCount(row.affected_consumers),
    },
    {
      header: "First seen",
      sortKey: "first_seen_at",
      numeric: true,
      cell: (row) => formatDateTime(row.first_seen_at, zone),
    },
    {
      header: "Last seen",
      sortKey: "last_seen_at",
      numeric: true,
      cell: (row) => formatDateTime(row.last_seen_at, zone),
    },
    {
      header: "Samples",
      cell: (row) => (
        <RequestsLink
          project={project}
          search={search}
          narrow={{
            app: row.app_slug ?? undefined,
            method: row.method,
            route: row.path,
            codes: String(row.status_code),
          }}
          aria-label={`Requests of ${row.method} ${row.path} answered ${row.status_code}`}
        >
          Requests
        </RequestsLink>
      ),
    },
  ];
}

/** A link to the Requests page: the page's shared filters (window, app, environment), narrowed. */
export function RequestsLink({
  project,
  search,
  narrow,
  children,
  "aria-label": label,
}: {
  project: string;
  search: TrafficSearch;
  narrow: Pick<TrafficSearch, "app" | "method" | "route" | "codes">;
  children: ReactNode;
  "aria-label"?: string;
}) {
  return (
    <Link
      className={styles.rowLink}
      to="/projects/$project/requests"
      params={{ project }}
      search={{ ...sharedSearch(search), ...narrow }}
      aria-label={label}
    >
      {children}
    </Link>
  );
}
