// `sightline alerts`: the project's alert rules with their state; `sightline alerts <id>`: one
// rule's recent state changes and who was notified.
import type { AlertEvent, AlertRule } from "@sightline/contracts";
import type { Command } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import {
  addPagingOptions,
  addProjectOption,
  type PagingFlags,
  pagingOf,
  type ProjectFlags,
} from "../options.js";
import { formatInstant, type Palette } from "../output.js";
import type { CliContext } from "../program.js";

export function registerAlertsCommand(program: Command, context: CliContext): void {
  const command = program
    .command("alerts")
    .description("alert rules and their state; with an id, that rule's recent events")
    .argument("[alert_id]", "a rule's id (the ID column) to list its events");
  addProjectOption(command);
  addPagingOptions(command, { defaultPageSize: 50, maxPageSize: 200 });
  command
    .addHelpText(
      "after",
      "\nExamples:\n  sightline alerts\n  sightline alerts 0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21",
    )
    .action(async (alertId: string | undefined, flags: ProjectFlags & PagingFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const { colors } = run.output;
      if (alertId === undefined) {
        const rules = await run.api.listAlerts(project);
        run.output.list<AlertRule>(
          rules,
          [
            { header: "NAME", value: (rule) => rule.name, flex: true },
            {
              header: "STATE",
              value: (rule) => rule.state,
              paint: (rule, text) => paintState(colors, rule.state, text),
            },
            { header: "SINCE (UTC)", value: (rule) => formatInstant(rule.state_since) },
            { header: "CONDITION", value: condition },
            {
              header: "LAST VALUE",
              value: (rule) => (rule.last_value === null ? "—" : String(rule.last_value)),
              align: "right",
            },
            { header: "SCOPE", value: scopeOf },
            { header: "ENABLED", value: (rule) => (rule.enabled ? "yes" : "no") },
            { header: "ID", value: (rule) => rule.id },
          ],
          "No alert rules.",
        );
        return;
      }
      const page = await run.api.alertEvents(project, alertId, pagingOf(flags));
      run.output.list<AlertEvent>(
        page.items,
        [
          { header: "TIME (UTC)", value: (event) => formatInstant(event.created_at) },
          {
            header: "CHANGE",
            value: (event) => `${event.from_state} → ${event.to_state}`,
            paint: (event, text) => paintState(colors, event.to_state, text),
          },
          {
            header: "VALUE",
            value: (event) => (event.value === null ? "—" : String(event.value)),
            align: "right",
          },
          { header: "THRESHOLD", value: (event) => `${event.comparator} ${event.threshold}` },
          { header: "REQUESTS", value: (event) => String(event.request_count), align: "right" },
          { header: "REASON", value: (event) => event.reason },
          {
            header: "NOTIFIED",
            value: (event) =>
              event.muted
                ? "muted"
                : event.notifications.map((n) => `${n.channel_name}: ${n.status}`).join(", "),
            flex: true,
          },
        ],
        "No events for this rule yet.",
      );
      run.output.pageFooter(page);
    });
}

function condition(rule: AlertRule): string {
  const subject = rule.status === null ? rule.metric : `${rule.metric} ${rule.status}`;
  return `${subject} ${rule.comparator} ${rule.threshold} over ${rule.window_seconds}s`;
}

function scopeOf(rule: AlertRule): string {
  const parts = [
    rule.scope.app?.slug ?? "all apps",
    ...(rule.scope.environment === null ? [] : [rule.scope.environment]),
    ...(rule.scope.endpoint === null ? [] : [`${rule.scope.endpoint.method} ${rule.scope.endpoint.route}`]),
  ];
  return parts.join(" · ");
}

function paintState(colors: Palette, state: string, text: string): string {
  return state === "firing" ? colors.red(text) : state === "pending" ? colors.yellow(text) : text;
}
