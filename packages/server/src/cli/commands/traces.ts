// `sightline traces` (recent traces, GET /projects/{slug}/data/traces) and `sightline trace <id>`
// (one trace: its span tree, and the request and log records carrying its id).
import { DATA_PAGING, type TraceDetail, type TraceSummary } from "@sightline/contracts";
import type { Command } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import {
  addPagingOptions,
  addProjectOption,
  addScopeOptions,
  defined,
  numberValue,
  type PagingFlags,
  pagingOf,
  type ProjectFlags,
  type ScopeFlags,
  scopeOf,
} from "../options.js";
import { formatInstant, formatMs, type Output, paintStatus, renderTable } from "../output.js";
import type { CliContext } from "../program.js";

interface TracesFlags extends ProjectFlags, ScopeFlags, PagingFlags {
  readonly minMs?: number;
}

export function registerTracesCommands(program: Command, context: CliContext): void {
  const list = program
    .command("traces")
    .description("recent traces, newest first: root span, duration, spans, errors");
  addProjectOption(list);
  addScopeOptions(list, "default: no bound");
  list.option(
    "--min-ms <ms>",
    "only traces lasting at least this many milliseconds",
    numberValue(0, 86_400_000),
  );
  addPagingOptions(list, DATA_PAGING);
  list
    .addHelpText("after", "\nExample:\n  sightline traces --since 1h --min-ms 1000")
    .action(async (flags: TracesFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const page = await run.api.searchTraces(
        project,
        defined({ ...scopeOf(flags), min_duration: flags.minMs, ...pagingOf(flags) }),
      );
      const { red } = run.output.colors;
      run.output.list<TraceSummary>(
        page.items,
        [
          { header: "STARTED (UTC)", value: (row) => formatInstant(row.started_at) },
          { header: "TRACE ID", value: (row) => row.trace_id },
          { header: "SERVICE", value: (row) => row.root.service_name },
          { header: "ROOT SPAN", value: (row) => row.root.name, flex: true },
          { header: "MS", value: (row) => formatMs(row.duration_ms), align: "right" },
          { header: "SPANS", value: (row) => String(row.span_count), align: "right" },
          {
            header: "ERROR",
            value: (row) => (row.error ? "error" : ""),
            paint: (row, text) => (row.error ? red(text) : text),
          },
        ],
        "No traces match.",
      );
      run.output.pageFooter(page);
    });

  const one = program
    .command("trace")
    .description("one trace: its span tree with timings, and its requests and logs")
    .argument("<trace_id>", "32 hex digits");
  addProjectOption(one);
  one.action(async (traceId: string, flags: ProjectFlags, self: Command) => {
    const run = await openClient(self, context);
    const project = await projectSlugOf(run, flags.project, context);
    const trace = await run.api.getTrace(project, traceId);
    run.output.document(trace, () => describeTrace(trace, run.output));
  });
}

function describeTrace(trace: TraceDetail, output: Output): string {
  const { bold, red, dim } = output.colors;
  const lines = [
    bold(`Trace ${trace.trace_id}`),
    `${dim("Started")}  ${formatInstant(trace.started_at)} UTC   ${dim("Duration")}  ${formatMs(trace.duration_ms)} ms   ` +
      `${dim("Spans")}  ${trace.span_count}${trace.truncated ? ` (first ${trace.spans.length} shown)` : ""}` +
      (trace.error ? `   ${red("error")}` : ""),
    "",
  ];
  if (trace.spans.length > 0) {
    lines.push(
      renderTable(
        trace.spans,
        [
          { header: "OFFSET MS", value: (span) => formatMs(span.offset_ms), align: "right" },
          { header: "MS", value: (span) => formatMs(span.duration_ms), align: "right" },
          { header: "SPAN", value: (span) => `${"  ".repeat(span.depth)}${span.name}`, flex: true },
          { header: "KIND", value: (span) => span.kind },
          { header: "SERVICE", value: (span) => span.service_name },
          {
            header: "STATUS",
            value: (span) => (span.status_code > 0 ? `${span.status} ${span.status_code}` : span.status),
            paint: (span, text) =>
              span.status === "error" ? red(text) : paintStatus(output.colors, span.status_code, text),
          },
        ],
        undefined,
        bold,
      ),
    );
  }
  if (trace.requests.length > 0) {
    lines.push(bold(`Requests (${trace.requests.length})`));
    for (const request of trace.requests) {
      lines.push(
        `  ${formatInstant(request.timestamp)}  ${paintStatus(output.colors, request.status_code, String(request.status_code))}  ` +
          `${request.method} ${request.path}  ${formatMs(request.response_time_ms)} ms  ${dim(request.id)}`,
      );
    }
    lines.push("");
  }
  if (trace.logs.length > 0) {
    lines.push(bold(`Logs (${trace.logs.length})`));
    for (const log of trace.logs) {
      lines.push(
        `  ${formatInstant(log.timestamp)}  ${log.level.padEnd(8)}  ${log.message.replace(/\s+/g, " ")}`,
      );
    }
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}
