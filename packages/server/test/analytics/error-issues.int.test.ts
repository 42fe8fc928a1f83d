// Error issues: error logs grouped by fingerprint (type, masked message, top in-app frames) at
// ingest, with first occurrence within retention, new and regressed flags, consumers and traces.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  log,
  minutesBefore,
  qs,
  type QueryFixture,
} from "../support/query-fixture.js";

interface Issue {
  app_id: string;
  app_slug: string | null;
  fingerprint: string;
  error_type: string;
  message: string;
  stack: string;
  count: number;
  affected_consumers: number;
  first_seen_at: string;
  last_seen_at: string;
  is_new: boolean;
  is_regression: boolean;
  sample_trace_ids: string[];
}

const stack = (fn: string, line: number) =>
  [
    "TypeError: boom",
    `    at ${fn} (/srv/app/dist/orders/load.js:${line}:17)`,
    "    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)",
    "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
  ].join("\n");

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

describe.each(eventsBackends())("error issues on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const threeDaysAgo = minutesBefore(3 * 24 * 60);
  const justBeforeWindow = minutesBefore(25 * 60);
  const hourAgo = minutesBefore(60);
  const halfHourAgo = minutesBefore(30);
  const error = (at: Date, message: string, fields: Record<string, unknown> = {}) =>
    log(at, { level: "ERROR", message, payload: stack("loadOrder", 41), ...fields });

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(
      fx.ctx,
      "logs",
      [
        // Regressed: seen three days ago, quiet since, back twice in the window with other data.
        error(threeDaysAgo, "TypeError: order 17 of 'ann' missing"),
        error(hourAgo, "TypeError: order 9921 of 'bob' missing", {
          consumer_id: "c1",
          payload: stack("loadOrder", 44),
        }),
        error(halfHourAgo, "TypeError: order 5 of 'cy' missing", { consumer_id: "c2", trace_id: TRACE }),
        // Ongoing: seen an hour before the window, so not quiet long enough to be a regression.
        error(justBeforeWindow, "Error: payment 3f2b8c1e-4d5a-4b6c-9d7e-0a1b2c3d4e5f declined", {
          payload: "",
        }),
        error(hourAgo, "Error: payment 0a1b2c3d-4d5a-4b6c-9d7e-3f2b8c1e4d5a declined", { payload: "" }),
        // New in the window; the type comes from the SDK's attribute, the throw site differs.
        error(halfHourAgo, "order 1 missing", {
          level: "critical",
          attributes: { error_type: "RangeError" },
          payload: stack("saveOrder", 7),
        }),
        // Not errors: never grouped.
        log(halfHourAgo, { level: "WARNING", message: "TypeError: order 2 missing" }),
        log(halfHourAgo, { message: "order placed" }),
      ],
      fx.key,
    );
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  const issues = async (params: Record<string, string> = {}) => {
    const response = await fx.owner.get(`/api/v1/projects/shop/analytics/error-issues${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Issue[]; total_count: number }>();
  };

  it("groups error logs by fingerprint with first seen, new and regressed", async () => {
    const page = await issues({ sort_by: "first_seen_at", sort_dir: "asc" });
    expect(page.total_count).toBe(3);
    expect(page.items.map(({ fingerprint: _f, stack: _s, app_id: _a, ...issue }) => issue)).toEqual([
      {
        app_slug: "checkout",
        error_type: "TypeError",
        message: "TypeError: order 5 of 'cy' missing",
        count: 2,
        affected_consumers: 2,
        first_seen_at: threeDaysAgo.toISOString(),
        last_seen_at: halfHourAgo.toISOString(),
        is_new: false,
        is_regression: true,
        sample_trace_ids: [TRACE],
      },
      {
        app_slug: "checkout",
        error_type: "Error",
        message: "Error: payment 0a1b2c3d-4d5a-4b6c-9d7e-3f2b8c1e4d5a declined",
        count: 1,
        affected_consumers: 0,
        first_seen_at: justBeforeWindow.toISOString(),
        last_seen_at: hourAgo.toISOString(),
        is_new: false,
        is_regression: false,
        sample_trace_ids: [],
      },
      {
        app_slug: "checkout",
        error_type: "RangeError",
        message: "order 1 missing",
        count: 1,
        affected_consumers: 0,
        first_seen_at: halfHourAgo.toISOString(),
        last_seen_at: halfHourAgo.toISOString(),
        is_new: true,
        is_regression: false,
        sample_trace_ids: [],
      },
    ]);
    expect(page.items[0]?.stack).toContain("loadOrder");
    expect(page.items[0]?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it("sorts by count and pages with a stable total", async () => {
    const first = await issues({ page_size: "1" });
    expect(first.total_count).toBe(3);
    expect(first.items.map((issue) => issue.count)).toEqual([2]);
    const beyond = await issues({ page_size: "2", page: "3" });
    expect(beyond).toMatchObject({ items: [], total_count: 3 });
  });

  it("keeps other projects' errors out", async () => {
    expectProblem(await fx.stranger.get(`/api/v1/projects/shop/analytics/error-issues`), "not_found");
  });
});
