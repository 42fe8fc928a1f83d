// `sightline export requests|logs`: the streaming export routes (…/data/requests/export,
// …/data/logs/export) with the searches' filters, written to standard output or --output as
// the server streams it, never held in memory.
import { createWriteStream } from "node:fs";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { EXPORT_FORMATS, type ExportFormat } from "@sightline/contracts";
import { type Command, Option } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import { CliError, EXIT } from "../exit-codes.js";
import type { CliContext } from "../program.js";
import { addLogFilters, type LogFilterFlags, logFiltersOf } from "./logs.js";
import { addRequestFilters, type RequestFilterFlags, requestFiltersOf } from "./requests.js";

interface ExportFlags {
  readonly format: ExportFormat;
  readonly output?: string;
}

function addExportOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--format <format>", "ndjson (one record per line) or csv (with a header row)")
        .choices(EXPORT_FORMATS)
        .default("ndjson"),
    )
    .option("-o, --output <file>", "write to this file instead of standard output");
}

export function registerExportCommand(program: Command, context: CliContext): void {
  const exporter = program
    .command("export")
    .description("every record a search matches, streamed as NDJSON or CSV (no paging)");

  const requests = exporter
    .command("requests")
    .description("export request records (the `requests` filters)");
  addRequestFilters(requests);
  addExportOptions(requests)
    .addHelpText(
      "after",
      "\nExample:\n  sightline export requests --since 7d --status-class 5xx --format csv -o errors.csv",
    )
    .action(async (flags: RequestFilterFlags & ExportFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const response = await run.api.exportRequests(project, {
        ...requestFiltersOf(flags),
        format: flags.format,
      });
      await writeBody(response, flags.output, context);
    });

  const logs = exporter.command("logs").description("export log records (the `logs` filters)");
  addLogFilters(logs);
  addExportOptions(logs)
    .addHelpText("after", "\nExample:\n  sightline export logs --since 1d --level error > errors.ndjson")
    .action(async (flags: LogFilterFlags & ExportFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const response = await run.api.exportLogs(project, { ...logFiltersOf(flags), format: flags.format });
      await writeBody(response, flags.output, context);
    });
}

async function writeBody(response: Response, output: string | undefined, context: CliContext): Promise<void> {
  if (response.body === null) return;
  const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  const target: Writable =
    output === undefined
      ? (context.streams.stdout as unknown as Writable)
      : createWriteStream(output, { flags: "w" });
  try {
    // Standard output stays open for whatever the shell does next; a file is closed at the end.
    await pipeline(source, target, { end: output !== undefined });
  } catch (error) {
    throw new CliError(EXIT.server, `the export stopped: ${(error as Error).message}`);
  }
}
