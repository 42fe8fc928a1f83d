// The client-side export of a table's rows, for lists the server has no export route for: the
// records as the API returned them, as NDJSON or CSV written the way the server's exports are
// (RFC 4180, a header row, objects as JSON text, formula-looking text defused).
import type { ExportFormat } from "@sightline/contracts";

/** Text a spreadsheet would run as a formula when it opens the file (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : typeof value === "string"
          ? FORMULA_START.test(value)
            ? `'${value}`
            : value
          : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (values: readonly unknown[]) => `${values.map(csvField).join(",")}\r\n`;

/** The rows as one file's text; CSV columns are every field met, in first-seen order. */
export function exportText(rows: readonly object[], format: ExportFormat): string {
  if (format === "ndjson") return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
  const columns: string[] = [];
  const records = rows.map((row) => new Map<string, unknown>(Object.entries(row)));
  for (const record of records)
    for (const key of record.keys()) if (!columns.includes(key)) columns.push(key);
  return csvLine(columns) + records.map((record) => csvLine(columns.map((key) => record.get(key)))).join("");
}

export const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv;charset=utf-8",
  ndjson: "application/x-ndjson",
};

/** Saves the rows as `<name>.<format>` through a temporary object URL. */
export function downloadRows(rows: readonly object[], format: ExportFormat, name: string): void {
  const url = URL.createObjectURL(new Blob([exportText(rows, format)], { type: EXPORT_TYPES[format] }));
  const link = document.createElement("a");
  link.href = url;
  link.download = `${name}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
