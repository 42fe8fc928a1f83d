// `sightline contract`: an app's inferred OpenAPI document (JSON or YAML, as the server sends it),
// the change log with the consumers each change affects, one change, and the declared-vs-observed
// report — the …/api/contract, …/api/changes and …/api/report routes.
import { writeFile } from "node:fs/promises";
import { CONTRACT_LIMITS, type ContractChange, type ContractReport } from "@sightline/contracts";
import { type Command, Option } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import {
  addPagingOptions,
  addProjectOption,
  integerValue,
  type PagingFlags,
  type ProjectFlags,
} from "../options.js";
import { formatCount, formatInstant, formatPercent, type Palette } from "../output.js";
import type { CliContext } from "../program.js";

interface AppEnvFlags extends ProjectFlags {
  readonly app: string;
  readonly env: string;
}

function addAppEnvOptions(command: Command): Command {
  addProjectOption(command);
  return command
    .requiredOption("--app <slug>", "the app's slug")
    .requiredOption("--env <environment>", "the environment its traffic came from");
}

export function registerContractCommand(program: Command, context: CliContext): void {
  const contract = program
    .command("contract")
    .description("the API contract inferred from traffic: document, changes, declared-vs-observed report");

  const show = contract
    .command("show", { isDefault: true })
    .description("the inferred OpenAPI 3.1 document of an app in an environment (the default)");
  addAppEnvOptions(show)
    .addOption(
      new Option("--format <format>", "json or yaml, written as the server sends it")
        .choices(["json", "yaml"])
        .default("json"),
    )
    .option("--contract-version <n>", "a stored version (default: the latest)", integerValue(1, 1_000_000))
    .option("-o, --output <file>", "write to this file instead of standard output")
    .addHelpText(
      "after",
      "\nExamples:\n  sightline contract --app checkout --env production\n" +
        "  sightline contract --app checkout --env production --format yaml -o openapi.yaml",
    )
    .action(
      async (
        flags: AppEnvFlags & { format: "json" | "yaml"; contractVersion?: number; output?: string },
        self: Command,
      ) => {
        const run = await openClient(self, context);
        const project = await projectSlugOf(run, flags.project, context);
        const response = await run.api.contractDocument(project, {
          app: flags.app,
          environment: flags.env,
          format: flags.format,
          ...(flags.contractVersion === undefined ? {} : { version: flags.contractVersion }),
        });
        const text = await response.text();
        const ended = text.endsWith("\n") ? text : `${text}\n`;
        if (flags.output === undefined) run.output.write(ended);
        else await writeFile(flags.output, ended);
      },
    );

  const changes = contract
    .command("changes")
    .description("contract changes, newest first, with how many consumers each affects");
  addProjectOption(changes)
    .option("--app <slug>", "only this app")
    .option("--env <environment>", "only this environment")
    .option("--breaking", "only breaking changes")
    .option("--non-breaking", "only non-breaking changes");
  addPagingOptions(changes, { defaultPageSize: 50, maxPageSize: CONTRACT_LIMITS.pageSize })
    .addHelpText(
      "after",
      "\nExamples:\n  sightline contract changes --breaking\n  sightline contract changes --app checkout",
    )
    .action(
      async (
        flags: ProjectFlags &
          PagingFlags & { app?: string; env?: string; breaking?: boolean; nonBreaking?: boolean },
        self: Command,
      ) => {
        const run = await openClient(self, context);
        const project = await projectSlugOf(run, flags.project, context);
        const pageSize = flags.pageSize ?? 50;
        const pageNumber = flags.page ?? 1;
        const breaking = flags.breaking === true ? true : flags.nonBreaking === true ? false : undefined;
        const page = await run.api.contractChanges(project, {
          ...(flags.app === undefined ? {} : { app: flags.app }),
          ...(flags.env === undefined ? {} : { environment: flags.env }),
          ...(breaking === undefined ? {} : { breaking }),
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        const { colors } = run.output;
        run.output.list<ContractChange>(
          page.data,
          [
            { header: "TIME (UTC)", value: (change) => formatInstant(change.created_at) },
            { header: "APP", value: (change) => change.app },
            { header: "ENV", value: (change) => change.environment },
            { header: "VERSION", value: (change) => String(change.version), align: "right" },
            {
              header: "CLASS",
              value: classOf,
              paint: (change, text) => paintClass(colors, change, text),
            },
            { header: "KIND", value: (change) => change.kind },
            { header: "OPERATION", value: (change) => `${change.method} ${change.path}` },
            { header: "CONSUMERS", value: (change) => formatCount(change.consumers_total), align: "right" },
            { header: "DETAIL", value: (change) => change.detail, flex: true },
            { header: "ID", value: (change) => change.id },
          ],
          "No contract changes.",
        );
        run.output.pageFooter({
          page: pageNumber,
          page_size: pageSize,
          total_count: page.total,
          items: page.data,
        });
      },
    );

  const one = contract
    .command("change")
    .description("one contract change with every consumer it affects")
    .argument("<change_id>", "the change's id (the ID column of `contract changes`)");
  addProjectOption(one)
    .addHelpText("after", "\nExample:\n  sightline contract change 0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21")
    .action(async (changeId: string, flags: ProjectFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const change = await run.api.contractChange(project, changeId);
      run.output.document(change, () => renderChange(run.output.colors, change));
    });

  const report = contract
    .command("report")
    .description("declared document vs traffic: undocumented and unused operations, conformance");
  addAppEnvOptions(report)
    .option("--days <n>", "look-back window in days (default 7)", integerValue(1, 90))
    .addHelpText("after", "\nExample:\n  sightline contract report --app checkout --env production --days 30")
    .action(async (flags: AppEnvFlags & { days?: number }, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const answer = await run.api.contractReport(project, {
        app: flags.app,
        environment: flags.env,
        ...(flags.days === undefined ? {} : { days: flags.days }),
      });
      run.output.document(answer, () => renderReport(answer));
    });
}

const classOf = (change: ContractChange): string => (change.breaking ? "breaking" : "non-breaking");

function paintClass(colors: Palette, change: ContractChange, text: string): string {
  return change.breaking ? colors.red(text) : text;
}

function renderChange(colors: Palette, change: ContractChange): string {
  const lines = [
    `${paintClass(colors, change, classOf(change))} · ${change.kind}`,
    `${change.method} ${change.path} (${change.app}, ${change.environment}, version ${change.version})`,
    change.detail,
    `at ${formatInstant(change.created_at)} UTC`,
    "",
    `Affected consumers (last ${change.window_days} days): ${formatCount(change.consumers_total)}`,
    ...change.consumers.map(
      (consumer) => `  ${consumerLabel(consumer)} — ${formatCount(consumer.requests)} requests`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

function consumerLabel(consumer: ContractChange["consumers"][number]): string {
  if (consumer.consumer_id === "") return "(no consumer)";
  return consumer.consumer_name === "" || consumer.consumer_name === consumer.consumer_id
    ? consumer.consumer_id
    : `${consumer.consumer_name} (${consumer.consumer_id})`;
}

function renderReport(report: ContractReport): string {
  const operations = (rows: ContractReport["undocumented"]) =>
    rows.length === 0
      ? ["  none"]
      : rows.map((row) => `  ${row.method} ${row.path} — ${formatCount(row.requests)} requests`);
  const share = (failing: number, sampled: number) =>
    sampled === 0 ? "—" : `${failing}/${sampled} (${formatPercent((failing / sampled) * 100)})`;
  const lines = [
    `${report.app} · ${report.environment} · last ${report.window_days} days`,
    "",
    `Undocumented (seen, not declared): ${report.undocumented.length}`,
    ...operations(report.undocumented),
    `Unused (declared, not seen): ${report.unused.length}`,
    ...operations(report.unused),
    `Conformance: ${report.conformance.length} declared operations sampled`,
    ...report.conformance.map(
      (row) =>
        `  ${row.method} ${row.path} — requests failing ${share(row.failing_requests, row.sampled_requests)}, ` +
        `responses failing ${share(row.failing_responses, row.sampled_responses)}` +
        row.failures.map((f) => `\n    ${f.part} ${f.pointer} (${f.keyword}) ×${f.count}`).join(""),
    ),
  ];
  return `${lines.join("\n")}\n`;
}
