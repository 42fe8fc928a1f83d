// The columns of every list of log records (the logs explorer, a trace's logs), and the level
// badge (coloured, and written out, so colour is never the only sign).
import type { LogRecord } from "@sightline/contracts";
import { formatDateTime } from "../../lib/format";
import type { Column } from "./DataTable";
import styles from "./Data.module.css";

export function Level({ level }: { level: string }) {
  return <span className={[styles.level, styles[`l${level}`]].join(" ")}>{level}</span>;
}

/** Time, level, message, logger, the request it was logged in; with `spans`, the span id too. */
export function logColumns(zone: string | undefined, spans = false): Column<LogRecord>[] {
  const columns: Column<LogRecord>[] = [
    { header: "Time", numeric: true, cell: (row) => formatDateTime(row.timestamp, zone) },
    { header: "Level", cell: (row) => <Level level={row.level} /> },
    { header: "Message", cell: (row) => row.message },
    { header: "Logger", className: styles.mono, cell: (row) => row.logger_name || "—" },
    {
      header: "Request",
      className: styles.mono,
      cell: (row) => (row.endpoint_method === "" ? "—" : `${row.endpoint_method} ${row.endpoint_path}`),
    },
  ];
  return spans
    ? [...columns, { header: "Span", className: styles.mono, cell: (row) => row.span_id || "—" }]
    : columns;
}

export const logRowData = (row: LogRecord) => ({ "data-log-id": row.id });
