// Reads every page of a project list the service pages (endpoints, consumers) up
// to a bound, for the comparisons that need whole sets; says whether the bound cut it.
import type { ProjectScope } from "../access/index.js";
import type { McpServices } from "./services.js";

/** Most rows a comparison reads per list and window: 5 pages of the lists' largest size. */
export const COMPARE_MAX_ROWS = 1000;
const PAGE = 200;

export interface Collected<T> {
  readonly rows: T[];
  /** False when the list had more rows than COMPARE_MAX_ROWS (the busiest ones were kept). */
  readonly complete: boolean;
}

async function collect<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; total_count: number }>,
): Promise<Collected<T>> {
  const rows: T[] = [];
  for (let page = 1; rows.length < COMPARE_MAX_ROWS; page += 1) {
    const answer = await fetchPage(page);
    rows.push(...answer.items);
    if (rows.length >= answer.total_count || answer.items.length === 0)
      return { rows, complete: rows.length >= answer.total_count };
  }
  return { rows, complete: false };
}

interface Slice {
  readonly app_slugs?: string | undefined;
  readonly environment?: string | undefined;
  readonly consumer?: string | undefined;
  readonly since: string;
  readonly until: string;
}

export function allEndpoints(services: McpServices, scope: ProjectScope, slice: Slice) {
  return collect((page) =>
    services.analytics.projectEndpoints(scope, {
      ...slice,
      sort_by: "total_requests",
      page,
      page_size: PAGE,
    }),
  );
}

export function allConsumers(services: McpServices, scope: ProjectScope, slice: Omit<Slice, "consumer">) {
  return collect((page) =>
    services.analytics.projectConsumers(scope, {
      app_slugs: slice.app_slugs,
      environment: slice.environment,
      since: slice.since,
      until: slice.until,
      sort_by: "total_requests",
      page,
      page_size: PAGE,
    }),
  );
}
