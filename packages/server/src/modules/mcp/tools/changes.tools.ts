// "What changed between two windows": endpoints, consumers and error status codes that appeared,
// vanished or moved most — the first question of an incident.
import { Type } from "typebox";
import { allConsumers, allEndpoints } from "../collect.js";
import { changedItem, diff, type Keyed } from "../diff.js";
import { endpointName, traffic } from "../shapes.js";
import { projectTool } from "../tool.js";
import { readComparison } from "../window.js";
import { AppSlugsArg, baselineArgs, EnvironmentArg, limitArg, ProjectArg, windowArgs } from "./params.js";

export const whatChanged = projectTool({
  target: "project",
  permission: "data:read",
  name: "what_changed",
  title: "What changed between two windows",
  description:
    "Compares a window with a baseline (default: the equally long window right before it). " +
    "endpoints and consumers: `new` (traffic now, none before), `vanished` (traffic before, none " +
    "now), `requests` (largest absolute change of request count), `error_rate` (largest rise in " +
    "percentage points) and `latency` (largest rise of p95, ms); status_codes: the error status " +
    "codes (4xx/5xx) with their counts in both windows, every failed request counted. Each list " +
    "holds `limit` items; `complete: false` means a window had over 1000 endpoints or consumers " +
    "and only the busiest were compared.",
  input: Type.Object(
    {
      project: ProjectArg,
      app_slugs: Type.Optional(AppSlugsArg),
      environment: Type.Optional(EnvironmentArg),
      ...windowArgs,
      ...baselineArgs,
      limit: Type.Optional(limitArg(5, 20, "items per list")),
    },
    { additionalProperties: false },
  ),
  async run({ scope, args, services }) {
    const { window, baseline } = readComparison(args, services.clock.now().getTime());
    const slice = { app_slugs: args.app_slugs, environment: args.environment };
    const limit = args.limit ?? 5;
    const [endpointsNow, endpointsThen, consumersNow, consumersThen, codes] = await Promise.all([
      allEndpoints(services, scope, { ...slice, ...window }),
      allEndpoints(services, scope, { ...slice, ...baseline }),
      allConsumers(services, scope, { ...slice, ...window }),
      allConsumers(services, scope, { ...slice, ...baseline }),
      services.analytics.projectErrorCodeComparison(scope, { ...slice, ...window }, baseline),
    ]);
    const endpointKeys = (rows: typeof endpointsNow.rows): Keyed[] =>
      rows.map((row) => ({
        key: `${row.app_id} ${endpointName(row)}`,
        figures: traffic(row),
        label: { app: row.app_slug, endpoint: endpointName(row) },
      }));
    const consumerKeys = (rows: typeof consumersNow.rows): Keyed[] =>
      rows.map((row) => ({
        key: row.consumer_id,
        figures: traffic(row),
        label: { consumer_id: row.consumer_id, consumer: row.consumer },
      }));
    const lists = (changes: ReturnType<typeof diff>) => ({
      new: changes.appeared.slice(0, limit).map(changedItem),
      new_total: changes.appeared.length,
      vanished: changes.vanished.slice(0, limit).map(changedItem),
      vanished_total: changes.vanished.length,
      requests: changes.requests.slice(0, limit).map(changedItem),
      error_rate: changes.errorRate.slice(0, limit).map(changedItem),
      latency: changes.latency.slice(0, limit).map(changedItem),
    });
    const statusCodes = codes
      .map((code) => ({ ...code, change: code.count - code.baseline_count }))
      .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.status_code - b.status_code);
    return {
      window,
      baseline,
      endpoints: {
        complete: endpointsNow.complete && endpointsThen.complete,
        ...lists(diff(endpointKeys(endpointsNow.rows), endpointKeys(endpointsThen.rows))),
      },
      consumers: {
        complete: consumersNow.complete && consumersThen.complete,
        ...lists(diff(consumerKeys(consumersNow.rows), consumerKeys(consumersThen.rows))),
      },
      // Counted over every failed request of both windows, not a bounded list of groups.
      status_codes: { complete: true, items: statusCodes.slice(0, 20) },
    };
  },
});
