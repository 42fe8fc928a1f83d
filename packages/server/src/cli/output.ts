// How the client commands print: aligned tables for a person at a terminal; NDJSON (lists) or
// JSON (one object) when piped or asked with --json, so `| jq` and scripts read the API's own
// record shapes. Colour only on a terminal, never with NO_COLOR or --no-color.

export interface Column<T> {
  readonly header: string;
  readonly value: (item: T) => string;
  readonly align?: "left" | "right";
  /** The one column shortened (with …) when the table is wider than the terminal. */
  readonly flex?: boolean;
  readonly paint?: (item: T, text: string) => string;
}

export interface OutputStreams {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream;
}

export interface OutputOptions {
  readonly json: boolean;
  readonly color: boolean;
  readonly noColorEnv: boolean;
}

export type Paint = (text: string) => string;
export interface Palette {
  readonly red: Paint;
  readonly yellow: Paint;
  readonly green: Paint;
  readonly dim: Paint;
  readonly bold: Paint;
}

const ansi =
  (open: number, close: number): Paint =>
  (text) =>
    text === "" ? text : `\u001b[${open}m${text}\u001b[${close}m`;
const plain: Paint = (text) => text;

export class Output {
  /** Machine-readable output: --json, or standard output is not a terminal. */
  readonly machine: boolean;
  readonly colors: Palette;

  constructor(
    private readonly streams: OutputStreams,
    options: OutputOptions,
  ) {
    const tty = streams.stdout.isTTY === true;
    this.machine = options.json || !tty;
    const colored = tty && options.color && !options.noColorEnv;
    this.colors = colored
      ? { red: ansi(31, 39), yellow: ansi(33, 39), green: ansi(32, 39), dim: ansi(2, 22), bold: ansi(1, 22) }
      : { red: plain, yellow: plain, green: plain, dim: plain, bold: plain };
  }

  write(text: string): void {
    this.streams.stdout.write(text);
  }

  /** A note for the person (progress, hints): standard error, so pipes carry only data. */
  note(text: string): void {
    this.streams.stderr.write(`${text}\n`);
  }

  /** One record per line as NDJSON, or one aligned row each. */
  list<T>(items: readonly T[], columns: readonly Column<T>[], empty: string): void {
    if (this.machine) {
      for (const item of items) this.write(`${JSON.stringify(item)}\n`);
      return;
    }
    if (items.length === 0) {
      this.write(`${this.colors.dim(empty)}\n`);
      return;
    }
    this.write(renderTable(items, columns, this.streams.stdout.columns, this.colors.bold));
  }

  /** One object: JSON when machine-readable, else the human rendering. */
  document(value: unknown, human: () => string): void {
    if (this.machine) this.write(`${JSON.stringify(value, null, this.streams.stdout.isTTY ? 2 : 0)}\n`);
    else this.write(human());
  }

  /** Under a paged table: which rows of how many, and how to see the next ones. */
  pageFooter(page: {
    page: number;
    page_size: number;
    total_count: number;
    items: readonly unknown[];
  }): void {
    if (this.machine || page.items.length === 0) return;
    const first = (page.page - 1) * page.page_size + 1;
    const last = first + page.items.length - 1;
    const more = last < page.total_count ? ` · next: --page ${page.page + 1}` : "";
    this.write(this.colors.dim(`${first}–${last} of ${page.total_count}${more}`) + "\n");
  }
}

export function renderTable<T>(
  items: readonly T[],
  columns: readonly Column<T>[],
  terminalWidth: number | undefined,
  bold: Paint = plain,
): string {
  const cells = items.map((item) => columns.map((column) => oneLine(column.value(item))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((row) => (row[index] as string).length)),
  );
  const gap = 2;
  const total = widths.reduce((sum, width) => sum + width, 0) + gap * (columns.length - 1);
  const flex = columns.findIndex((column) => column.flex === true);
  if (terminalWidth !== undefined && terminalWidth > 0 && total > terminalWidth && flex >= 0) {
    const shrunk = (widths[flex] as number) - (total - terminalWidth);
    widths[flex] = Math.max(Math.min(widths[flex] as number, 12), shrunk);
  }
  const line = (values: readonly string[], painted?: (text: string, index: number) => string) =>
    values
      .map((value, index) => {
        const width = widths[index] as number;
        const text = value.length > width ? `${value.slice(0, Math.max(0, width - 1))}…` : value;
        const padded = columns[index]?.align === "right" ? text.padStart(width) : text.padEnd(width);
        return painted === undefined ? padded : painted(padded, index);
      })
      .join(" ".repeat(gap))
      .trimEnd();
  const rows = [bold(line(columns.map((column) => column.header)))];
  items.forEach((item, row) => {
    rows.push(
      line(cells[row] as string[], (text, index) => {
        const paint = columns[index]?.paint;
        return paint === undefined ? text : paint(item, text);
      }),
    );
  });
  return `${rows.join("\n")}\n`;
}

/** Table cells are one line: control characters (newlines in a message) shown as spaces. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ");
}

export const formatMs = (ms: number): string =>
  ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
export const formatPercent = (value: number): string => `${value.toFixed(value >= 10 ? 1 : 2)}%`;
export const formatCount = (value: number): string => value.toLocaleString("en-US");
/** Instants shown in UTC without the T, to the second: `2026-11-21 06:00:00`. */
export const formatInstant = (iso: string | null): string =>
  iso === null ? "—" : iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");

/** 5xx red, 4xx yellow, the rest as is. */
export function paintStatus(colors: Palette, status: number, text: string): string {
  return status >= 500 ? colors.red(text) : status >= 400 ? colors.yellow(text) : text;
}
