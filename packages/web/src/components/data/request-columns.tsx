// The columns of every list of request records (the explorer, an endpoint's or a consumer's
// recent requests, a trace's requests), so the same record reads the same everywhere.
import type { RequestRecord } from "@sightline/contracts";
import { formatDateTime } from "../../lib/format";
import type { Column } from "./DataTable";
import styles from "./Data.module.css";
import { formatBytes, formatMs, MethodBadge, StatusPill } from "./parts";

export function requestColumns({
  zone,
  appSlugOf,
  sortable = false,
}: {
  zone: string | undefined;
  /** With it, an "App · env" column. */
  appSlugOf?: (appId: string) => string | undefined;
  /** Time, time taken and a size column sort on the server (the explorer's list). */
  sortable?: boolean;
}): Column<RequestRecord>[] {
  const sortKey = (key: string) => (sortable ? { sortKey: key } : {});
  const columns: Column<RequestRecord>[] = [
    {
      header: "Time",
      numeric: true,
      ...sortKey("timestamp"),
      cell: (row) => formatDateTime(row.timestamp, zone),
    },
    {
      header: "Request",
      cell: (row) => (
        <>
          <MethodBadge method={row.method} /> <span className={styles.mono}>{row.path}</span>
        </>
      ),
    },
    { header: "Status", cell: (row) => <StatusPill code={row.status_code} /> },
    {
      header: "Time taken",
      numeric: true,
      ...sortKey("response_time_ms"),
      cell: (row) => formatMs(row.response_time_ms),
    },
    ...(sortable
      ? [
          {
            header: "Size",
            numeric: true,
            sortKey: "response_size",
            cell: (row: RequestRecord) => formatBytes(row.response_size),
          },
        ]
      : []),
    { header: "Consumer", cell: (row) => row.consumer_name || row.consumer_id || "—" },
  ];
  if (appSlugOf === undefined) return columns;
  return [
    ...columns,
    { header: "App · env", cell: (row) => `${appSlugOf(row.app_id) ?? "—"} · ${row.environment}` },
  ];
}

export const requestRowData = (row: RequestRecord) => ({ "data-request-id": row.id });
