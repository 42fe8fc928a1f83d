// `sightline consumers`: who calls the project's APIs, with their traffic over a window
// (GET /projects/{slug}/analytics/consumers), every filter and sort of the route.
import {
  ANALYTICS_LIMITS,
  CONSUMER_SORT_KEYS,
  type ConsumerSortKey,
  type ProjectConsumerStats,
} from "@sightline/contracts";
import type { Command } from "commander";
import { openClient, projectSlugOf } from "../client-run.js";
import {
  addPagingOptions,
  addProjectOption,
  addScopeOptions,
  addSortOptions,
  defined,
  type PagingFlags,
  pagingOf,
  type ProjectFlags,
  type ScopeFlags,
  scopeOf,
  type SortFlags,
  sortOf,
} from "../options.js";
import { formatCount, formatInstant, formatMs, formatPercent } from "../output.js";
import type { CliContext } from "../program.js";

interface ConsumersFlags extends ProjectFlags, ScopeFlags, PagingFlags, SortFlags<ConsumerSortKey> {
  readonly search?: string;
}

export function registerConsumersCommand(program: Command, context: CliContext): void {
  const command = program
    .command("consumers")
    .description("API consumers with their requests, errors and latency (default: the last 24 hours)");
  addProjectOption(command);
  addScopeOptions(command, "default: 24 hours before --until");
  command.option("--search <text>", "consumer id, name or group containing this text");
  addSortOptions(command, CONSUMER_SORT_KEYS, "total_requests");
  addPagingOptions(command, ANALYTICS_LIMITS.projectConsumers);
  command
    .addHelpText("after", "\nExample:\n  sightline consumers --since 7d --sort error_rate")
    .action(async (flags: ConsumersFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const page = await run.api.projectConsumers(
        project,
        defined({ ...scopeOf(flags), q: flags.search, ...sortOf(flags), ...pagingOf(flags) }),
      );
      run.output.list<ProjectConsumerStats>(
        page.items,
        [
          { header: "CONSUMER", value: (row) => row.consumer, flex: true },
          { header: "ID", value: (row) => row.consumer_id },
          { header: "GROUP", value: (row) => row.consumer_group },
          { header: "REQUESTS", value: (row) => formatCount(row.total_requests), align: "right" },
          { header: "ERRORS", value: (row) => formatCount(row.error_count), align: "right" },
          { header: "ERR%", value: (row) => formatPercent(row.error_rate), align: "right" },
          { header: "AVG MS", value: (row) => formatMs(row.avg_response_time_ms), align: "right" },
          { header: "P95 MS", value: (row) => formatMs(row.p95_response_time_ms), align: "right" },
          { header: "LAST SEEN (UTC)", value: (row) => formatInstant(row.last_seen_at) },
        ],
        "No consumers in this window.",
      );
      run.output.pageFooter(page);
    });
}
