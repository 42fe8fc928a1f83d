// `sightline errors`: failed requests grouped by endpoint and status code over a window
// (GET /projects/{slug}/analytics/errors), every filter and sort of the route.
import { ANALYTICS_LIMITS, ERROR_SORT_KEYS, type ErrorGroup, type ErrorSortKey } from "@sightline/contracts";
import type { Command } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import {
  addPagingOptions,
  addProjectOption,
  addScopeOptions,
  addSortOptions,
  defined,
  joined,
  listValue,
  type PagingFlags,
  pagingOf,
  type ProjectFlags,
  type ScopeFlags,
  scopeOf,
  type SortFlags,
  sortOf,
} from "../options.js";
import { formatCount, formatInstant, paintStatus } from "../output.js";
import type { CliContext } from "../program.js";

interface ErrorsFlags extends ProjectFlags, ScopeFlags, PagingFlags, SortFlags<ErrorSortKey> {
  readonly consumer?: string;
  readonly method?: string[];
  readonly statusClass?: string[];
  readonly status?: string[];
  readonly search?: string;
}

export function registerErrorsCommand(program: Command, context: CliContext): void {
  const command = program
    .command("errors")
    .description("4xx and 5xx responses grouped by endpoint and status code (default: the last 24 hours)");
  addProjectOption(command);
  addScopeOptions(command, "default: 24 hours before --until");
  command
    .option("--consumer <id>", "only this consumer's requests (its consumer_id)")
    .option("--method <methods>", "only these HTTP methods", listValue)
    .option("--status-class <classes>", "4xx, 5xx or both (default both)", listValue)
    .option("--status <codes>", "only these status codes (400–599)", listValue)
    .option("--search <text>", "route template or method containing this text");
  addSortOptions(command, ERROR_SORT_KEYS, "count");
  addPagingOptions(command, ANALYTICS_LIMITS.projectErrors);
  command
    .addHelpText("after", "\nExample:\n  sightline errors --since 6h --status-class 5xx")
    .action(async (flags: ErrorsFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const page = await run.api.projectErrors(
        project,
        defined({
          ...scopeOf(flags),
          consumer: flags.consumer,
          methods: joined(flags.method),
          status_classes: joined(flags.statusClass),
          status_codes: joined(flags.status),
          q: flags.search,
          ...sortOf(flags),
          ...pagingOf(flags),
        }),
      );
      const { colors } = run.output;
      run.output.list<ErrorGroup>(
        page.items,
        [
          { header: "APP", value: (row) => row.app_slug ?? "(deleted)" },
          { header: "METHOD", value: (row) => row.method },
          { header: "PATH", value: (row) => row.path, flex: true },
          {
            header: "STATUS",
            value: (row) => String(row.status_code),
            paint: (row, text) => paintStatus(colors, row.status_code, text),
          },
          { header: "COUNT", value: (row) => formatCount(row.count), align: "right" },
          { header: "CONSUMERS", value: (row) => formatCount(row.affected_consumers), align: "right" },
          { header: "FIRST SEEN (UTC)", value: (row) => formatInstant(row.first_seen_at) },
          { header: "LAST SEEN (UTC)", value: (row) => formatInstant(row.last_seen_at) },
          { header: "NEW", value: (row) => (row.is_new ? "new" : "") },
        ],
        "No errors in this window.",
      );
      run.output.pageFooter(page);
    });
}
