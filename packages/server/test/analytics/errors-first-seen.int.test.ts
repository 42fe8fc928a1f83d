// The errors breakdown's first seen is the group's first occurrence in the retained data, not the
// window's first: an error that has failed for days is not new, one that began in the window is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  qs,
  type QueryFixture,
  request,
} from "../support/query-fixture.js";

interface Group {
  path: string;
  status_code: number;
  count: number;
  first_seen_at: string;
  last_seen_at: string;
  is_new: boolean;
}

describe.each(eventsBackends())("errors first seen on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const threeDaysAgo = minutesBefore(3 * 24 * 60);
  const hourAgo = minutesBefore(60);
  const halfHourAgo = minutesBefore(30);
  const sixDaysAgo = minutesBefore(6 * 24 * 60);
  const fiveDaysAgo = minutesBefore(5 * 24 * 60);
  const twentyMinutesAgo = minutesBefore(20);
  const tenMinutesAgo = minutesBefore(10);

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(
      fx.ctx,
      "requests",
      [
        // Long-standing: failing three days ago and again in the window.
        request(threeDaysAgo, { path: "/orders/1", route: "/orders/{id}", status_code: 503 }),
        request(hourAgo, { path: "/orders/2", route: "/orders/{id}", status_code: 503 }),
        // New: first failing inside the window.
        request(halfHourAgo, { path: "/refunds", route: "/refunds", method: "POST", status_code: 500 }),
        // One consumer's: failing for another consumer for days but new for acme, and failing for
        // acme for days (the consumer filter reads raw rows, bounded by what the rollup knows).
        request(fiveDaysAgo, { path: "/payments", method: "POST", status_code: 502, consumer_id: "globex" }),
        request(twentyMinutesAgo, {
          path: "/payments",
          method: "POST",
          status_code: 502,
          consumer_id: "acme",
        }),
        request(sixDaysAgo, { path: "/invoices", status_code: 500, consumer_id: "acme" }),
        request(tenMinutesAgo, { path: "/invoices", status_code: 500, consumer_id: "acme" }),
      ],
      fx.key,
    );
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  const groups = async (params: Record<string, string>) => {
    const response = await fx.owner.get(`/api/v1/projects/shop/analytics/errors${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Group[] }>().items;
  };

  it("gives a long-standing group its first occurrence ever and marks only the new one new", async () => {
    const items = await groups({ sort_by: "first_seen_at", sort_dir: "asc" });
    expect(
      items.map(({ path, count, first_seen_at, last_seen_at, is_new }) => ({
        path,
        count,
        first_seen_at,
        last_seen_at,
        is_new,
      })),
    ).toEqual([
      {
        path: "/invoices",
        count: 1,
        first_seen_at: sixDaysAgo.toISOString(),
        last_seen_at: tenMinutesAgo.toISOString(),
        is_new: false,
      },
      {
        path: "/payments",
        count: 1,
        first_seen_at: fiveDaysAgo.toISOString(),
        last_seen_at: twentyMinutesAgo.toISOString(),
        is_new: false,
      },
      {
        path: "/orders/{id}",
        count: 1,
        first_seen_at: threeDaysAgo.toISOString(),
        last_seen_at: hourAgo.toISOString(),
        is_new: false,
      },
      {
        path: "/refunds",
        count: 1,
        first_seen_at: halfHourAgo.toISOString(),
        last_seen_at: halfHourAgo.toISOString(),
        is_new: true,
      },
    ]);
  });

  it("marks a group new when the window holds its first occurrence", async () => {
    const items = await groups({
      since: minutesBefore(4 * 24 * 60).toISOString(),
      until: minutesBefore(2 * 24 * 60).toISOString(),
    });
    expect(items).toEqual([
      expect.objectContaining({
        path: "/orders/{id}",
        first_seen_at: threeDaysAgo.toISOString(),
        is_new: true,
      }),
    ]);
  });

  it("gives one consumer's groups their first occurrence for that consumer", async () => {
    const items = await groups({ consumer: "acme", sort_by: "first_seen_at", sort_dir: "asc" });
    expect(
      items.map(({ path, count, first_seen_at, last_seen_at, is_new }) => ({
        path,
        count,
        first_seen_at,
        last_seen_at,
        is_new,
      })),
    ).toEqual([
      {
        path: "/invoices",
        count: 1,
        first_seen_at: sixDaysAgo.toISOString(),
        last_seen_at: tenMinutesAgo.toISOString(),
        is_new: false,
      },
      {
        path: "/payments",
        count: 1,
        first_seen_at: twentyMinutesAgo.toISOString(),
        last_seen_at: twentyMinutesAgo.toISOString(),
        is_new: true,
      },
    ]);
  });

  // Sorted otherwise, the page is found first and its groups' first occurrences are read before
  // the window in a second statement: the same figures as the one statement sorted by them.
  it.each([
    ["the project", {}],
    ["one consumer", { consumer: "acme" }],
    [
      "a window ending days ago",
      { since: minutesBefore(4 * 24 * 60).toISOString(), until: minutesBefore(2 * 24 * 60).toISOString() },
    ],
  ])("gives %s's groups the same first occurrences whatever the order", async (_name, params) => {
    const figures = (items: Group[]) =>
      items
        .map(({ path, status_code, count, first_seen_at, last_seen_at, is_new }) => ({
          path,
          status_code,
          count,
          first_seen_at,
          last_seen_at,
          is_new,
        }))
        .sort((a, b) => a.path.localeCompare(b.path) || a.status_code - b.status_code);
    const byFirstSeen = figures(await groups({ ...params, sort_by: "first_seen_at" }));
    expect(byFirstSeen.length).toBeGreaterThan(0);
    for (const sort_by of ["count", "last_seen_at", "affected_consumers"]) {
      expect(figures(await groups({ ...params, sort_by })), sort_by).toEqual(byFirstSeen);
    }
  });
});
