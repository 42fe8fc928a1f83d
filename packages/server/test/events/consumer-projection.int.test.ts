// Events migration 15 on every backend: api_requests' by_consumer projection. Two stores hold
// the same rows, one at migration 14 (no projection) and one upgraded to 15 over stored rows;
// a consumer's figures, series and endpoints read the projection there and equal the other
// store's, for rows stored before the upgrade (materialized by its mutation) and after it.
import { afterAll, describe, expect, it } from "vitest";
import { CONSUMER_PROJECTION_VERSION, type EventsExecutor } from "../../src/stores/events/index.js";
import { endpointStatsPage } from "../../src/stores/events/queries/analytics/endpoints.js";
import { summary, timeseries } from "../../src/stores/events/queries/analytics/traffic.js";
import { eventsBackends, removeTestChdbPath } from "../support/events.js";
import { HOUR_MS, projectionStores, type Window, withReads } from "../support/projections.js";

afterAll(removeTestChdbPath);

const PROJECTION = "by_consumer";

/** What the consumer page reads for `filter`. */
const consumerPage = (events: EventsExecutor, filter: Window) =>
  withReads(events, async (recording) => ({
    summary: await summary(recording, filter),
    series: await timeseries(recording, filter, { interval: "1h", timezone: "UTC" }),
    endpoints: await endpointStatsPage(
      recording,
      filter,
      { by: "total_requests", direction: "desc" },
      { limit: 25, offset: 0 },
      true,
    ),
  }));

describe.each(eventsBackends())("consumer projection (events migration 15) on $name", (backend) => {
  const stores = projectionStores(backend, "cp", CONSUMER_PROJECTION_VERSION);

  it("answers a consumer's page from the projection, equal to the table's own rows", async () => {
    const endMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const state = await stores.storeAcrossUpgrade(endMs, PROJECTION);
    expect(state.parts).toBeGreaterThanOrEqual(2);
    expect(state.projected).toBe(state.parts);

    const window = { since: endMs - 30 * HOUR_MS, until: endMs };
    const filters: Array<Window> = [
      { projectId: "p1", consumerId: "c1", ...window },
      { projectId: "p1", consumerId: "c3", appIds: ["api"], environment: "prod", ...window },
      { projectId: "p2", consumerId: "c49", ...window },
      { projectId: "p1", consumerId: "nobody", ...window },
    ];
    for (const filter of filters) {
      const expected = await consumerPage(stores.plain, filter);
      const got = await consumerPage(stores.projected, filter);
      expect(got.figures).toEqual(expected.figures);
      expect(expected.reads.some((read) => read.includes(PROJECTION))).toBe(false);
      expect(got.reads.length).toBeGreaterThan(0);
      expect(got.reads, filter.consumerId).toEqual(got.reads.map(() => PROJECTION));
    }
    // Not vacuous: the consumers' pages hold requests.
    const pages = await Promise.all(
      filters.slice(0, 3).map((filter) => consumerPage(stores.projected, filter)),
    );
    for (const page of pages) expect(page.figures.summary.total_requests).toBeGreaterThan(50);

    // Without a consumer condition the table's own order (project, time) serves the read.
    const project = await consumerPage(stores.projected, { projectId: "p1", ...window });
    for (const read of project.reads) expect(read).not.toBe(PROJECTION);
  }, 120_000);
});
