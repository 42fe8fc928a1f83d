// The one data table: semantic <table> markup from column definitions, headers that sort on the
// server through the URL (`sort`, `dir`), rows that open with a click or Enter and that j/k (or
// the arrow keys) move between, and a foot with the pager and, for lists the server cannot
// export, a client-side CSV/NDJSON download of the rows on screen.
import type { ExportFormat } from "@sightline/contracts";
import { EXPORT_FORMATS } from "@sightline/contracts/vocabulary";
import { ArrowDown, ArrowUp } from "lucide-react";
import type { KeyboardEvent, ReactNode } from "react";
import { downloadRows } from "../../lib/export";
import { useProjectSlug, useSetSearch } from "../../lib/page-state";
import { Button } from "../ui/Button";
import { table } from "../ui/Table";
import styles from "./Data.module.css";
import { Pager, type PagerProps } from "./Pager";

export interface Column<Row> {
  /** The header's text; with `hiddenHeader`, read by screen readers only (a column of buttons). */
  readonly header: string;
  readonly cell: (row: Row) => ReactNode;
  /** Figures: right-aligned, tabular. */
  readonly numeric?: boolean;
  /** The server's sort key: the header then sorts the table through the URL. */
  readonly sortKey?: string;
  /** The first click's direction (text columns read best A to Z). */
  readonly defaultDir?: "asc" | "desc";
  readonly hiddenHeader?: boolean;
  readonly className?: string;
}

export interface DataTableProps<Row> {
  /** The table's accessible name ("Requests"). */
  readonly label: string;
  readonly rows: readonly Row[];
  readonly columns: readonly Column<Row>[];
  readonly rowKey: (row: Row) => string;
  /** What a row opens (its drawer, its page): click, Enter, and j/k to move. */
  readonly onOpen?: (row: Row) => void;
  /** `data-*` attributes of a row (tests and the drawer's focus return find rows by them). */
  readonly rowData?: (row: Row) => Readonly<Record<`data-${string}`, string>>;
  /** A row's own style (a revoked key greyed out). */
  readonly rowClass?: (row: Row) => string | undefined;
  /** A row's accessible name, when its cells do not say what opening it does. */
  readonly rowLabel?: (row: Row) => string;
  /** The order on screen, when the server sorts by the URL. */
  readonly order?: { readonly sort: string; readonly dir: "asc" | "desc" };
  readonly pager?: PagerProps;
  /**
   * The file name of the rows on screen as CSV or NDJSON (default: the project and the table's
   * label); `false` for lists whose page offers the server's export of every match instead.
   */
  readonly exportName?: string | false;
}

const FORMAT_LABELS: Record<ExportFormat, string> = { csv: "CSV", ndjson: "NDJSON" };

/** j/↓ and k/↑ move the focus between a table's rows; Enter opens the focused one. */
function moveFocus(event: KeyboardEvent<HTMLTableSectionElement>): boolean {
  const row = event.target;
  if (!(row instanceof HTMLTableRowElement)) return false;
  const key = event.key;
  const next =
    key === "j" || key === "ArrowDown"
      ? row.nextElementSibling
      : key === "k" || key === "ArrowUp"
        ? row.previousElementSibling
        : null;
  if (next instanceof HTMLTableRowElement) {
    next.focus();
    return true;
  }
  return key === "j" || key === "k" || key === "ArrowDown" || key === "ArrowUp";
}

/** "shop-top-consumers-of-this-endpoint": the project and the table's label, as a file name. */
export function fileNameOf(project: string, label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return [project, slug || "rows"].filter((part) => part !== "").join("-");
}

export function DataTable<Row extends object>({
  label,
  rows,
  columns,
  rowKey,
  onOpen,
  rowData,
  rowClass,
  rowLabel,
  order,
  pager,
  exportName: givenExportName,
}: DataTableProps<Row>) {
  const project = useProjectSlug();
  const exportName = givenExportName === false ? undefined : (givenExportName ?? fileNameOf(project, label));
  return (
    <>
      <div className={table.wrap}>
        <table className={table.table} aria-label={label}>
          <thead>
            <tr>
              {columns.map((column) =>
                column.sortKey !== undefined && order !== undefined ? (
                  <SortHeader key={column.header} column={column} sortKey={column.sortKey} order={order} />
                ) : (
                  <th
                    key={column.header}
                    scope="col"
                    className={column.numeric ? styles.num : column.className}
                  >
                    {column.hiddenHeader ? (
                      <span className="visually-hidden">{column.header}</span>
                    ) : (
                      column.header
                    )}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody
            onKeyDown={(event) => {
              if (onOpen === undefined) return;
              if (moveFocus(event)) {
                event.preventDefault();
                return;
              }
              if (event.key !== "Enter" || !(event.target instanceof HTMLTableRowElement)) return;
              const row = rows[event.target.sectionRowIndex];
              if (row !== undefined) onOpen(row);
            }}
          >
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                className={
                  [onOpen ? styles.clickRow : "", rowClass?.(row) ?? ""].join(" ").trim() || undefined
                }
                tabIndex={onOpen ? 0 : undefined}
                onClick={onOpen ? () => onOpen(row) : undefined}
                aria-label={rowLabel?.(row)}
                {...rowData?.(row)}
              >
                {columns.map((column) => (
                  <td
                    key={column.header}
                    className={
                      [column.numeric ? styles.num : "", column.className ?? ""].join(" ").trim() || undefined
                    }
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pager !== undefined || exportName !== undefined ? (
        <div className={styles.tableFoot}>
          {exportName !== undefined ? <ExportRows rows={rows} name={exportName} what={label} /> : null}
          {pager !== undefined ? <Pager {...pager} /> : null}
        </div>
      ) : null}
    </>
  );
}

/** A column header that sorts the table through the URL (`sort`, `dir`), back to page 1. */
function SortHeader<Row>({
  column,
  sortKey,
  order,
}: {
  column: Column<Row>;
  sortKey: string;
  order: { sort: string; dir: "asc" | "desc" };
}) {
  const setSearch = useSetSearch();
  const active = order.sort === sortKey;
  const nextDir = active ? (order.dir === "asc" ? "desc" : "asc") : (column.defaultDir ?? "desc");
  return (
    <th
      scope="col"
      aria-sort={active ? (order.dir === "asc" ? "ascending" : "descending") : "none"}
      className={column.numeric ? styles.num : undefined}
    >
      <button
        type="button"
        className={styles.sortButton}
        onClick={() => setSearch({ sort: sortKey, dir: nextDir, page: undefined })}
      >
        {column.header}
        {active ? (
          order.dir === "asc" ? (
            <ArrowUp size={12} aria-hidden="true" />
          ) : (
            <ArrowDown size={12} aria-hidden="true" />
          )
        ) : null}
      </button>
    </th>
  );
}

/** Download buttons for the rows on screen, written in the browser. */
export function ExportRows({ rows, name, what }: { rows: readonly object[]; name: string; what: string }) {
  return (
    <span className={styles.downloads} role="group" aria-label={`Download these ${what.toLowerCase()}`}>
      <span aria-hidden="true">Download</span>
      {EXPORT_FORMATS.map((format) => (
        <Button
          key={format}
          size="sm"
          onClick={() => downloadRows(rows, format, name)}
          aria-label={`Download these ${what.toLowerCase()} as ${FORMAT_LABELS[format]}`}
        >
          {FORMAT_LABELS[format]}
        </Button>
      ))}
    </span>
  );
}
