// `sightline requests` (the request search, every filter of GET /projects/{slug}/data/requests)
// and `sightline request <id>` (one record in full, payloads and headers included).
import {
  DATA_PAGING,
  type RequestDetail,
  type RequestRecord,
  type RequestsExportQuery,
} from "@sightline/contracts";
import type { Command } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import {
  addPagingOptions,
  addProjectOption,
  addScopeOptions,
  defined,
  joined,
  listValue,
  numberValue,
  type PagingFlags,
  pagingOf,
  type ProjectFlags,
  type ScopeFlags,
  scopeOf,
} from "../options.js";
import { formatInstant, formatMs, type Output, paintStatus } from "../output.js";
import type { CliContext } from "../program.js";

export interface RequestFilterFlags extends ProjectFlags, ScopeFlags {
  readonly method?: string[];
  readonly status?: string[];
  readonly statusClass?: string[];
  readonly consumer?: string;
  readonly route?: string;
  readonly path?: string;
  readonly trace?: string;
  readonly minMs?: number;
  readonly maxMs?: number;
}

/** The request search's filters, shared with `sightline export requests`. */
export function addRequestFilters(command: Command): Command {
  addProjectOption(command);
  addScopeOptions(command, "default: no bound");
  return command
    .option("--method <methods>", "HTTP methods (comma-separated or repeated)", listValue)
    .option("--status <codes>", "status codes, e.g. 500,503", listValue)
    .option("--status-class <classes>", "status classes 1xx–5xx, OR-ed with --status", listValue)
    .option("--consumer <id>", "one consumer's requests (its consumer_id, exact)")
    .option("--route <template>", "one route template, exact, e.g. /users/{id}")
    .option("--path <pattern>", "raw path pattern, * matches anything, e.g. '/users/*/orders*'")
    .option("--trace <trace_id>", "the requests of one trace")
    .option("--min-ms <ms>", "response time at least this many milliseconds", numberValue(0, 86_400_000))
    .option("--max-ms <ms>", "response time at most this many milliseconds", numberValue(0, 86_400_000));
}

export function requestFiltersOf(flags: RequestFilterFlags): Omit<RequestsExportQuery, "format"> {
  return defined({
    ...scopeOf(flags),
    methods: joined(flags.method),
    status_codes: joined(flags.status),
    status_classes: joined(flags.statusClass),
    consumer: flags.consumer,
    route: flags.route,
    path_filter: flags.path,
    trace_id: flags.trace,
    min_response_time: flags.minMs,
    max_response_time: flags.maxMs,
  });
}

export function registerRequestsCommands(program: Command, context: CliContext): void {
  const search = program
    .command("requests")
    .description("search request records, newest first (see `request <id>` for one in full)");
  addRequestFilters(search);
  addPagingOptions(search, DATA_PAGING);
  search
    .addHelpText(
      "after",
      "\nExamples:\n  sightline requests --since 1h --status-class 5xx\n" +
        "  sightline requests --consumer acme --route '/orders/{id}' --min-ms 500 --json",
    )
    .action(async (flags: RequestFilterFlags & PagingFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const page = await run.api.searchRequests(project, { ...requestFiltersOf(flags), ...pagingOf(flags) });
      const { colors } = run.output;
      run.output.list<RequestRecord>(
        page.items,
        [
          { header: "TIME (UTC)", value: (row) => formatInstant(row.timestamp) },
          {
            header: "STATUS",
            value: (row) => String(row.status_code),
            paint: (row, text) => paintStatus(colors, row.status_code, text),
          },
          { header: "METHOD", value: (row) => row.method },
          {
            header: "PATH",
            value: (row) => row.path + (row.query === "" ? "" : `?${row.query}`),
            flex: true,
          },
          { header: "MS", value: (row) => formatMs(row.response_time_ms), align: "right" },
          { header: "CONSUMER", value: (row) => row.consumer_name || row.consumer_id },
          { header: "ID", value: (row) => row.id },
        ],
        "No requests match.",
      );
      run.output.pageFooter(page);
    });

  const one = program
    .command("request")
    .description("one request record in full: payloads and headers")
    .argument("<id>", "the record's id (the ID column of `requests`)");
  addProjectOption(one);
  one.action(async (id: string, flags: ProjectFlags, self: Command) => {
    const run = await openClient(self, context);
    const project = await projectSlugOf(run, flags.project, context);
    const detail = await run.api.getRequest(project, id);
    run.output.document(detail, () => describeRequest(detail, run.output));
  });
}

function describeRequest(detail: RequestDetail, output: Output): string {
  const { bold, dim } = output.colors;
  const headers = (title: string, values: Record<string, string>) => {
    const lines = Object.entries(values).map(([name, value]) => `  ${name}: ${value}`);
    return [bold(title), ...(lines.length === 0 ? [dim("  (none)")] : lines)].join("\n");
  };
  const payload = (title: string, text: string) => `${bold(title)}\n${text === "" ? dim("  (empty)") : text}`;
  const fields: [string, string][] = [
    ["Time", `${formatInstant(detail.timestamp)} UTC`],
    ["Status", paintStatus(output.colors, detail.status_code, String(detail.status_code))],
    ["Response time", `${formatMs(detail.response_time_ms)} ms`],
    ["Route", detail.route],
    ["Environment", detail.environment],
    [
      "Consumer",
      [detail.consumer_id, detail.consumer_name, detail.consumer_group].filter(Boolean).join(" · "),
    ],
    ["Client", `${detail.ip_address} ${detail.user_agent}`.trim()],
    ["Sizes", `request ${detail.request_size} B, response ${detail.response_size} B`],
    ["Trace", detail.trace_id],
    ["ID", detail.id],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  return [
    bold(`${detail.method} ${detail.base_url}${detail.path}${detail.query === "" ? "" : `?${detail.query}`}`),
    ...fields
      .filter(([, value]) => value !== "")
      .map(([name, value]) => `${dim(name.padEnd(width))}  ${value}`),
    "",
    headers("Request headers", detail.request_headers),
    payload("Request payload", detail.request_payload),
    "",
    headers("Response headers", detail.response_headers),
    payload("Response payload", detail.response_payload),
    "",
  ].join("\n");
}
