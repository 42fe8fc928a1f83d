// The request search's sort (newest, slowest, largest; ties by time and id so pages never overlap
// or skip) and the latency histogram of the same filters, over records ingested through the route.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { expectProblem } from "../support/problem.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  type QueryFixture,
  qs,
  request,
} from "../support/query-fixture.js";

interface Item {
  path: string;
  response_time_ms: number;
  response_size: number;
}

const TIE = minutesBefore(40);

function dataset(): Record<string, unknown>[] {
  return [
    request(minutesBefore(1), { path: "/a", response_time_ms: 3, response_size: 10 }),
    request(minutesBefore(2), { path: "/b", response_time_ms: 120, response_size: 5000 }),
    request(minutesBefore(3), { path: "/c", response_time_ms: 2600, response_size: 1 }),
    request(minutesBefore(4), { path: "/d", response_time_ms: 40000, response_size: 300, status_code: 500 }),
    // Equal response times: time then id decide, so paging by one still sees each once.
    ...Array.from({ length: 5 }, (_, n) =>
      request(TIE, { path: `/tie/${n}`, response_time_ms: 250, response_size: 7 }),
    ),
  ];
}

describe.each(eventsBackends())("request sort and latency histogram on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", dataset(), fx.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  const search = async (params: Record<string, string | number>) => {
    const response = await fx.owner.get(`/api/v1/projects/shop/data/requests${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: Item[]; total_count: number }>();
  };

  it("lists the slowest, the largest and the newest first", async () => {
    const slowest = await search({ sort_by: "response_time_ms", page_size: 3 });
    expect(slowest.items.map((item) => item.path)).toEqual(["/d", "/c", expect.stringMatching(/^\/tie\//)]);
    const largest = await search({ sort_by: "response_size", page_size: 2 });
    expect(largest.items.map((item) => item.path)).toEqual(["/b", "/d"]);
    const newest = await search({ page_size: 2 });
    expect(newest.items.map((item) => item.path)).toEqual(["/a", "/b"]);
    const fastest = await search({ sort_by: "response_time_ms", sort_dir: "asc", page_size: 1 });
    expect(fastest.items.map((item) => item.path)).toEqual(["/a"]);
    expect(slowest.total_count).toBe(9);
  });

  it("pages through ties without repeating or skipping a record", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 9; page += 1) {
      const result = await search({ sort_by: "response_time_ms", page_size: 1, page });
      seen.push(...result.items.map((item) => item.path));
    }
    expect(seen.slice(0, 2)).toEqual(["/d", "/c"]);
    expect(new Set(seen).size).toBe(9);
    expect(seen.slice(2, 7).sort()).toEqual(["/tie/0", "/tie/1", "/tie/2", "/tie/3", "/tie/4"]);
  });

  it("refuses an unknown sort key", async () => {
    const response = await fx.owner.get(`/api/v1/projects/shop/data/requests?sort_by=path`);
    expectProblem(response, "validation_error");
  });

  const histogram = async (params: Record<string, string | number> = {}) => {
    const response = await fx.owner.get(`/api/v1/projects/shop/data/requests/latency-histogram${qs(params)}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      buckets: { min_ms: number; max_ms: number | null; count: number }[];
      total_count: number;
    }>();
  };

  it("counts the search's requests per latency bucket, empty buckets included", async () => {
    const all = await histogram();
    expect(all.total_count).toBe(9);
    expect(all.buckets).toHaveLength(13);
    expect(all.buckets[0]).toEqual({ min_ms: 0, max_ms: 5, count: 1 });
    const nonEmpty = all.buckets.filter((bucket) => bucket.count > 0);
    expect(nonEmpty).toEqual([
      { min_ms: 0, max_ms: 5, count: 1 },
      { min_ms: 100, max_ms: 250, count: 1 },
      { min_ms: 250, max_ms: 500, count: 5 },
      { min_ms: 2500, max_ms: 5000, count: 1 },
      { min_ms: 30000, max_ms: null, count: 1 },
    ]);
    const filtered = await histogram({ min_response_time: 200, status_classes: "2xx" });
    expect(filtered.total_count).toBe(6);
    expect(filtered.buckets.filter((bucket) => bucket.count > 0)).toEqual([
      { min_ms: 250, max_ms: 500, count: 5 },
      { min_ms: 2500, max_ms: 5000, count: 1 },
    ]);
  });

  it("answers 422 for bad filters and keeps strangers out", async () => {
    expectProblem(
      await fx.owner.get(
        `/api/v1/projects/shop/data/requests/latency-histogram?min_response_time=9&max_response_time=1`,
      ),
      "validation_error",
    );
    expectProblem(
      await fx.stranger.get(`/api/v1/projects/shop/data/requests/latency-histogram`),
      "not_found",
    );
  });
});
