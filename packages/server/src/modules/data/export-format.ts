// Writing exported records as text: NDJSON (one JSON record per line) or CSV (RFC 4180, a header
// row, fixed columns). Pure; knows nothing of the engine or of HTTP.
import type { ExportFormat } from "@sightline/contracts";

/** A record as exported: the search's record shape (scalars, and objects written as JSON). */
export type ExportRecord = Readonly<Record<string, unknown>>;

/** Text a spreadsheet would run as a formula when it opens the file (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: quoted when it holds a comma, a quote or a line break, quotes doubled. Text that
 * starts like a formula gets a leading `'` (OWASP's advice): exported values come from clients,
 * and a crafted message must not run in the spreadsheet of whoever opens the export. Numbers and
 * booleans are written as they are.
 */
export function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ""
      : typeof value === "object"
        ? JSON.stringify(value)
        : typeof value === "string"
          ? FORMULA_START.test(value)
            ? `'${value}`
            : value
          : String(value as number | boolean);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line, CRLF-terminated as RFC 4180 has it. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** Records per chunk of text (~250 KB of request records): chunks stay small enough for V8 to
 *  free young, instead of multi-MB strings that only full collections reclaim. */
const RECORDS_PER_CHUNK = 500;

/**
 * The text of an export, chunk by chunk, so what is held at once is one batch and one chunk. CSV
 * starts with the header row `columns`, and every line lists those fields in that order whatever
 * the record's own key order.
 */
export async function* formatRecords(
  batches: AsyncIterable<readonly ExportRecord[]>,
  format: ExportFormat,
  columns: readonly string[],
): AsyncIterable<string> {
  const line =
    format === "csv"
      ? (record: ExportRecord) => csvLine(columns.map((column) => record[column]))
      : (record: ExportRecord) => `${JSON.stringify(record)}\n`;
  if (format === "csv") yield csvLine(columns);
  for await (const batch of batches) {
    for (let start = 0; start < batch.length; start += RECORDS_PER_CHUNK) {
      let chunk = "";
      for (let i = start; i < Math.min(start + RECORDS_PER_CHUNK, batch.length); i++) {
        chunk += line(batch[i] as ExportRecord);
      }
      yield chunk;
    }
  }
}
