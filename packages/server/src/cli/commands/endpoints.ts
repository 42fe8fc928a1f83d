// `sightline endpoints`: the project's endpoints with their traffic figures over a window
// (GET /projects/{slug}/analytics/endpoints), every filter and sort of the route.
import {
  ANALYTICS_LIMITS,
  ENDPOINT_SORT_KEYS,
  type EndpointSortKey,
  type ProjectEndpointStats,
} from "@sightline/contracts";
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
import { formatCount, formatInstant, formatMs, formatPercent } from "../output.js";
import type { CliContext } from "../program.js";

interface EndpointsFlags extends ProjectFlags, ScopeFlags, PagingFlags, SortFlags<EndpointSortKey> {
  readonly consumer?: string;
  readonly method?: string[];
  readonly statusClass?: string[];
  readonly status?: string[];
  readonly search?: string;
}

export function registerEndpointsCommand(program: Command, context: CliContext): void {
  const command = program
    .command("endpoints")
    .description("endpoints with requests, errors and latency over a window (default: the last 24 hours)");
  addProjectOption(command);
  addScopeOptions(command, "default: 24 hours before --until");
  command
    .option("--consumer <id>", "only this consumer's requests (its consumer_id)")
    .option("--method <methods>", "only these HTTP methods", listValue)
    .option("--status-class <classes>", "only requests of these classes (2xx…5xx)", listValue)
    .option("--status <codes>", "only requests with these status codes", listValue)
    .option("--search <text>", "route template or method containing this text");
  addSortOptions(command, ENDPOINT_SORT_KEYS, "total_requests");
  addPagingOptions(command, ANALYTICS_LIMITS.projectEndpoints);
  command
    .addHelpText(
      "after",
      "\nExamples:\n  sightline endpoints --since 1h --sort p95_response_time_ms\n" +
        "  sightline endpoints --status-class 5xx --json | jq .path",
    )
    .action(async (flags: EndpointsFlags, self: Command) => {
      const run = await openClient(self, context);
      const project = await projectSlugOf(run, flags.project, context);
      const page = await run.api.projectEndpoints(
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
      const { red } = run.output.colors;
      run.output.list<ProjectEndpointStats>(
        page.items,
        [
          { header: "APP", value: (row) => row.app_slug ?? "(deleted)" },
          { header: "METHOD", value: (row) => row.method },
          { header: "PATH", value: (row) => row.path, flex: true },
          { header: "REQUESTS", value: (row) => formatCount(row.total_requests), align: "right" },
          { header: "ERRORS", value: (row) => formatCount(row.error_count), align: "right" },
          {
            header: "ERR%",
            value: (row) => formatPercent(row.error_rate),
            align: "right",
            paint: (row, text) => (row.server_errors > 0 ? red(text) : text),
          },
          { header: "P50 MS", value: (row) => formatMs(row.p50_response_time_ms), align: "right" },
          { header: "P95 MS", value: (row) => formatMs(row.p95_response_time_ms), align: "right" },
          { header: "P99 MS", value: (row) => formatMs(row.p99_response_time_ms), align: "right" },
          { header: "LAST SEEN (UTC)", value: (row) => formatInstant(row.last_seen_at) },
        ],
        "No traffic in this window.",
      );
      run.output.pageFooter(page);
    });
}
