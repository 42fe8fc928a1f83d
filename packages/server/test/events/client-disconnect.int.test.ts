// A dashboard client that disconnects mid-request cancels its read on the ClickHouse server
// (issue 22 §5): the request's abort reaches the driver, which drops the query's socket.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { EventsExecutor } from "../../src/stores/events/index.js";
import { delegatingExecutor, eventsBackends } from "../support/events.js";
import { createQueryFixture, type QueryFixture } from "../support/query-fixture.js";

const server = eventsBackends().find((backend) => backend.name === "clickhouse");

/** Slowness through the real server: every dashboard read first sleeps there for 20 s, in a
 *  statement marked so the test can find it in system.processes. */
function slowDashboardReads(marker: string): (events: EventsExecutor) => EventsExecutor {
  const slow = `SELECT sleepEachRow(0.5) AS slept, '${marker}' AS marker FROM numbers(40) SETTINGS max_block_size = 1`;
  return (root) => ({
    ...delegatingExecutor(root, {}),
    scoped: (queryClass) => {
      const view = root.scoped?.(queryClass) ?? root;
      if (queryClass !== "dashboard") return view;
      return delegatingExecutor(view, {
        query: async (sql, params, lane) => {
          await view.query(slow);
          return view.query(sql, params, lane);
        },
      });
    },
  });
}

describe.skipIf(server === undefined)("a disconnected dashboard client (ClickHouse server)", () => {
  let fx: QueryFixture | undefined;

  afterEach(async () => {
    await fx?.ctx.close();
    fx = undefined;
  });

  it("cancels its read: the query leaves system.processes long before it would finish", async () => {
    const marker = `slow-${randomBytes(6).toString("hex")}`;
    fx = await createQueryFixture(server!, { name: "sqlite" }, { wrapEvents: slowDashboardReads(marker) });
    await fx.ctx.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = fx.ctx.app.server.address() as AddressInfo;
    const running = async (): Promise<number> => {
      const [row] = await fx!.ctx.deps.events.query<{ n: number }>(
        "SELECT count() AS n FROM system.processes " +
          "WHERE startsWith(Settings['log_comment'], 'sightline:dashboard:') AND position(query, {m:String}) > 0",
        { m: marker },
      );
      return Number(row?.n ?? 0);
    };
    const waitFor = async (done: (n: number) => boolean): Promise<number> => {
      let n = await running();
      // 25 polls of 200 ms: 5 s, a quarter of the 20 s the read sleeps.
      for (let attempt = 0; attempt < 25 && !done(n); attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        n = await running();
      }
      return n;
    };

    const client = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/api/v1/apps/checkout/analytics/summary",
      headers: fx.ownerHeaders,
    });
    client.on("error", () => undefined);
    client.end();
    expect(await waitFor((n) => n > 0)).toBeGreaterThan(0);

    client.destroy();
    expect(await waitFor((n) => n === 0)).toBe(0);

    // Counted as aborted, not as a store failure.
    const count = async (outcome: string): Promise<number> => {
      const { body } = await fx!.ctx.deps.metrics.render();
      const line = body
        .split("\n")
        .find((text) =>
          text.startsWith(
            `sightline_events_query_duration_seconds_count{class="dashboard",outcome="${outcome}"}`,
          ),
        );
      return line === undefined ? 0 : Number(line.split(" ").at(-1));
    };
    let aborted = await count("aborted");
    for (let attempt = 0; attempt < 25 && aborted === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      aborted = await count("aborted");
    }
    expect(aborted).toBeGreaterThan(0);
    expect(await count("error")).toBe(0);
  });
});
