// Events migration 17 on every backend: api_requests' by_endpoint projection. Two stores hold
// the same rows, one at migration 16 (no such projection) and one upgraded to 17 over stored
// rows; an endpoint's consumers card (with each consumer's newest name), figures, series and
// status codes read the projection there and equal the other store's, for rows stored before
// the upgrade (materialized by its mutation) and after it.
import { afterAll, describe, expect, it } from "vitest";
import { ENDPOINT_PROJECTION_VERSION, type EventsExecutor } from "../../src/stores/events/index.js";
import { consumerStats } from "../../src/stores/events/queries/analytics/consumers.js";
import { endpointDetail, statusCodeCounts } from "../../src/stores/events/queries/analytics/endpoints.js";
import { timeseries } from "../../src/stores/events/queries/analytics/traffic.js";
import { eventsBackends, removeTestChdbPath } from "../support/events.js";
import { HOUR_MS, projectionStores, type Window, withReads } from "../support/projections.js";

afterAll(removeTestChdbPath);

const PROJECTION = "by_endpoint";

/** What the endpoint page reads raw for `filter` (one endpoint). */
const endpointPage = (
  events: EventsExecutor,
  filter: Window & { endpoints: [{ method: string; route: string }] },
) =>
  withReads(events, async (recording) => ({
    consumers: await consumerStats(recording, filter, 10),
    detail: await endpointDetail(recording, filter, filter.endpoints[0]),
    series: await timeseries(recording, filter, { interval: "1h", timezone: "UTC" }),
    statuses: await statusCodeCounts(recording, filter, 10),
  }));

describe.each(eventsBackends())("endpoint projection (events migration 17) on $name", (backend) => {
  const stores = projectionStores(backend, "ep", ENDPOINT_PROJECTION_VERSION);

  it("answers an endpoint's page from the projection, equal to the table's own rows", async () => {
    const endMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const state = await stores.storeAcrossUpgrade(endMs, PROJECTION);
    expect(state.parts).toBeGreaterThanOrEqual(2);
    expect(state.projected).toBe(state.parts);

    const window = { since: endMs - 47 * HOUR_MS, until: endMs };
    type EndpointWindow = Parameters<typeof endpointPage>[1];
    const busy: EndpointWindow = {
      projectId: "p1",
      appIds: ["api"],
      endpoints: [{ method: "GET", route: "/r1" }],
      ...window,
    };
    const filters: EndpointWindow[] = [
      busy,
      {
        projectId: "p1",
        appIds: ["web"],
        environment: "prod",
        endpoints: [{ method: "POST", route: "/r4" }],
        ...window,
      },
      { projectId: "p2", endpoints: [{ method: "GET", route: "/r5" }], ...window },
      { projectId: "p1", appIds: ["api"], endpoints: [{ method: "GET", route: "/nowhere" }], ...window },
    ];
    for (const filter of filters) {
      const expected = await endpointPage(stores.plain, filter);
      const got = await endpointPage(stores.projected, filter);
      const label = `${filter.projectId} ${filter.endpoints[0].method} ${filter.endpoints[0].route}`;
      expect(got.figures, label).toEqual(expected.figures);
      expect(expected.reads.some((read) => read.includes(PROJECTION))).toBe(false);
      // An endpoint without rows reads no part at all (its key excludes every mark).
      if (expected.figures.detail.total_requests > 0) expect(got.reads.length).toBeGreaterThan(0);
      expect(got.reads, label).toEqual(got.reads.map(() => PROJECTION));
    }
    // Not vacuous: the card holds named consumers (the newest of each one's names).
    const first = await endpointPage(stores.projected, busy);
    expect(first.figures.detail.total_requests).toBeGreaterThan(500);
    expect(first.figures.consumers).toHaveLength(10);
    const named = first.figures.consumers.filter((consumer) => consumer.consumer_id !== "");
    expect(named.length).toBeGreaterThanOrEqual(9);
    for (const consumer of named) expect(consumer.consumer_name).toMatch(/^Name c\d+ @/);

    // The newest names, searched newest stretch first, are those of one pass over the window
    // (c7 sent names, c9 groups, only more than a day ago).
    let compared = 0;
    for (const filter of filters) {
      const consumers = await consumerStats(stores.projected, filter, 50);
      const [endpoint] = filter.endpoints;
      const direct = await stores.plain.query<{ consumer_id: string; name: string; grp: string }>(
        "SELECT consumer_id, argMaxIf(consumer_name, timestamp, consumer_name != '') AS name, " +
          "argMaxIf(consumer_group, timestamp, consumer_group != '') AS grp " +
          `FROM ${stores.plain.database}.api_requests WHERE project_id = {project:String} ` +
          "AND (empty({apps:Array(String)}) OR has({apps:Array(String)}, app_id)) " +
          "AND ({environment:String} = '' OR environment = {environment:String}) " +
          "AND method = {method:String} AND route = {route:String} " +
          "AND timestamp BETWEEN fromUnixTimestamp64Milli({since:Int64}) AND fromUnixTimestamp64Milli({until:Int64}) " +
          "AND consumer_id != '' GROUP BY consumer_id",
        {
          project: filter.projectId,
          apps: filter.appIds ?? [],
          environment: filter.environment ?? "",
          method: endpoint.method,
          route: endpoint.route,
          since: filter.since,
          until: filter.until,
        },
      );
      const newest = new Map(direct.map((row) => [row.consumer_id, row]));
      for (const consumer of consumers.filter((row) => row.consumer_id !== "")) {
        expect(consumer.consumer_name, consumer.consumer_id).toBe(newest.get(consumer.consumer_id)?.name);
        expect(consumer.consumer_group, consumer.consumer_id).toBe(newest.get(consumer.consumer_id)?.grp);
        compared += 1;
      }
      if (filter === busy) {
        const c7 = consumers.find((consumer) => consumer.consumer_id === "c7");
        expect(c7?.consumer_name).toMatch(/^Name c7 @/);
        const c9 = consumers.find((consumer) => consumer.consumer_id === "c9");
        expect(c9?.consumer_group).toMatch(/^g[12]$/);
      }
    }
    expect(compared).toBeGreaterThan(100);

    // Without an endpoint condition the table's own order (project, time) serves the read.
    const project = await withReads(stores.projected, (recording) =>
      consumerStats(recording, { projectId: "p1", ...window }, 10),
    );
    for (const read of project.reads) expect(read).not.toBe(PROJECTION);
  }, 120_000);
});
