// `sightline logs`: the log search (every filter of GET /projects/{slug}/data/logs), and with
// --follow a live tail that polls the same route with a cursor (the newest timestamp printed and
// the ids seen at it), so each record prints once, oldest first.
import { DATA_PAGING, type LogRecord, type LogsExportQuery, type LogsQuery } from "@sightline/contracts";
import type { Command } from "commander";
import { type ClientRun, openClient, projectSlugOf } from "../client-run.js";
import { usageError } from "../exit-codes.js";
import {
  addPagingOptions,
  addProjectOption,
  addScopeOptions,
  defined,
  integerValue,
  joined,
  listValue,
  numberValue,
  type PagingFlags,
  pagingOf,
  type ProjectFlags,
  type ScopeFlags,
  scopeOf,
} from "../options.js";
import { formatInstant, type Output } from "../output.js";
import type { CliContext } from "../program.js";

export interface LogFilterFlags extends ProjectFlags, ScopeFlags {
  readonly level?: string[];
  readonly search?: string;
  readonly logger?: string[];
  readonly trace?: string;
}

interface LogsFlags extends LogFilterFlags, PagingFlags {
  readonly follow?: boolean;
  readonly interval: number;
  readonly lines: number;
}

/** Pages one poll reads at most: a burst of more than 5,000 records between polls shows its newest 5,000. */
const MAX_PAGES_PER_POLL = 25;

/** The log search's filters, shared with `sightline export logs`. */
export function addLogFilters(command: Command): Command {
  addProjectOption(command);
  addScopeOptions(command, "default: no bound");
  return command
    .option(
      "--level <levels>",
      "DEBUG, INFO, WARNING, ERROR, CRITICAL (comma-separated or repeated)",
      listValue,
    )
    .option("--search <text>", "text in the message, logger name or attributes (case-insensitive)")
    .option("--logger <names>", "logger names, exact", listValue)
    .option("--trace <trace_id>", "the logs of one trace");
}

export function logFiltersOf(flags: LogFilterFlags): Omit<LogsExportQuery, "format"> {
  return defined({
    ...scopeOf(flags),
    levels: joined(flags.level),
    search: flags.search,
    loggers: joined(flags.logger),
    trace_id: flags.trace,
  });
}

export function registerLogsCommand(program: Command, context: CliContext): void {
  const command = program
    .command("logs")
    .description("search log records, newest first; --follow to tail them live");
  addLogFilters(command);
  addPagingOptions(command, DATA_PAGING);
  command
    .option("-f, --follow", "print the last --lines records, then new ones as they arrive (Ctrl-C stops)")
    .option("-n, --lines <n>", "records shown before following", integerValue(0, DATA_PAGING.maxPageSize), 20)
    .option("--interval <seconds>", "seconds between polls when following", numberValue(0.2, 3600), 2)
    .addHelpText(
      "after",
      "\nExamples:\n  sightline logs --since 30m --level error,critical\n" +
        "  sightline logs --follow --search timeout\n  sightline logs --trace 4bf92f3577b34da6a3ce929d0e0e4736",
    )
    .action(async (flags: LogsFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const filters = logFiltersOf(flags);
      if (flags.follow === true) {
        if (filters.until !== undefined) throw usageError("--follow shows new records: it takes no --until");
        if (flags.page !== undefined) throw usageError("--follow takes no --page");
        await follow(run, project, filters, flags);
        return;
      }
      const page = await run.api.searchLogs(project, { ...filters, ...pagingOf(flags) });
      if (run.output.machine) {
        for (const record of page.items) run.output.write(`${JSON.stringify(record)}\n`);
      } else if (page.items.length === 0) {
        run.output.write(`${run.output.colors.dim("No logs match.")}\n`);
      } else {
        for (const record of page.items) run.output.write(logLine(record, run.output));
      }
      run.output.pageFooter(page);
    });
}

/** Where the tail has got to: the newest timestamp printed and the ids printed at it. */
interface Cursor {
  at: number | undefined;
  since: string | undefined;
  idsAt: Set<string>;
}

async function follow(
  run: ClientRun,
  project: string,
  filters: Omit<LogsQuery, "page" | "page_size">,
  flags: LogsFlags,
): Promise<void> {
  const cursor: Cursor = { at: undefined, since: filters.since, idsAt: new Set() };
  const print = (records: readonly LogRecord[]) => {
    for (const record of records) {
      run.output.write(run.output.machine ? `${JSON.stringify(record)}\n` : logLine(record, run.output));
      const at = Date.parse(record.timestamp);
      if (cursor.at === undefined || at > cursor.at) {
        cursor.at = at;
        cursor.since = record.timestamp;
        cursor.idsAt = new Set([record.id]);
      } else if (at === cursor.at) {
        cursor.idsAt.add(record.id);
      }
    }
  };
  if (flags.lines > 0) {
    const backlog = await run.api.searchLogs(project, { ...filters, page_size: flags.lines });
    print([...backlog.items].reverse());
  } else {
    // Nothing shown: only what arrives from now on counts as new.
    const newest = await run.api.searchLogs(project, { ...filters, page_size: 1 });
    const top = newest.items[0];
    if (top !== undefined) {
      cursor.at = Date.parse(top.timestamp);
      cursor.since = top.timestamp;
      // Every record at that instant is old: read them all into the cursor without printing.
      const atTop = await run.api.searchLogs(project, { ...filters, since: top.timestamp, page_size: 200 });
      cursor.idsAt = new Set(
        atTop.items.filter((r) => Date.parse(r.timestamp) === cursor.at).map((r) => r.id),
      );
    }
  }
  // Ctrl-C is how a tail ends: a normal exit (0), after the poll under way.
  let stopped = false;
  let wake = () => {};
  const stop = () => {
    stopped = true;
    wake();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  while (!stopped) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, flags.interval * 1000);
    });
    if (!stopped) print(await newSince(run, project, filters, cursor));
  }
}

/**
 * Records after the cursor, oldest first, read as newest-first pages of everything since the
 * cursor's instant (inclusive: ties are told apart by id).
 */
async function newSince(
  run: ClientRun,
  project: string,
  filters: Omit<LogsQuery, "page" | "page_size">,
  cursor: Cursor,
): Promise<LogRecord[]> {
  const fresh = new Map<string, LogRecord>();
  for (let page = 1; page <= MAX_PAGES_PER_POLL; page += 1) {
    const result = await run.api.searchLogs(
      project,
      defined({ ...filters, since: cursor.since, page, page_size: DATA_PAGING.maxPageSize }),
    );
    for (const record of result.items) {
      const at = Date.parse(record.timestamp);
      const isNew =
        cursor.at === undefined || at > cursor.at || (at === cursor.at && !cursor.idsAt.has(record.id));
      if (isNew) fresh.set(record.id, record);
    }
    if (page * result.page_size >= result.total_count) break;
  }
  return [...fresh.values()].sort(
    (a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function logLine(record: LogRecord, output: Output): string {
  const { red, yellow, dim } = output.colors;
  const level = record.level.padEnd(8);
  const painted =
    record.level === "ERROR" || record.level === "CRITICAL"
      ? red(level)
      : record.level === "WARNING"
        ? yellow(level)
        : record.level === "DEBUG"
          ? dim(level)
          : level;
  const logger = record.logger_name === "" ? "" : `${dim(record.logger_name)} `;
  // eslint-disable-next-line no-control-regex
  const message = record.message.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ");
  return `${dim(formatInstant(record.timestamp))}  ${painted}  ${logger}${message}\n`;
}
