// Heartbeats against a real Sightline: one at start and then one per interval while the client
// runs (SDK version, runtime, process CPU and memory), none after close(), none when turned off;
// the apps API then shows the app alive. (That the timer never holds a process open is part of
// lifecycle.int.test.ts: its idle child runs with heartbeats on, the default.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSightline } from "../src/index.js";
import { SDK_VERSION } from "../src/version.js";
import { eventually, type RealSightline, startSightline } from "./support/sightline.js";

describe("heartbeats sent to a real Sightline", () => {
  let sightline: RealSightline;
  beforeAll(async () => {
    sightline = await startSightline();
  });
  afterAll(async () => {
    await sightline?.close();
  });

  const beats = (appId: string) =>
    sightline.ctx.deps.metadata.db
      .selectFrom("app_heartbeats")
      .selectAll()
      .where("app_id", "=", appId)
      .execute();
  const apps = async () =>
    (await sightline.fixture.api.get(`/api/v1/projects/${sightline.fixture.project.slug}/apps`)).json<
      { slug: string; alive: boolean; last_heartbeat_at: string | null }[]
    >();
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("beats at start and every interval while running, and stops on close", async () => {
    const sdk = createSightline({
      apiKey: sightline.key,
      app: sightline.app,
      url: sightline.url,
      heartbeatIntervalMs: 1000,
    });
    const { checkout } = sightline.fixture;
    const [first] = await eventually(
      () => beats(checkout.id),
      (rows) => rows.length === 1,
    );
    expect(first).toMatchObject({
      environment: "test",
      sdk: "sightline-node",
      sdk_version: SDK_VERSION,
      runtime: `node ${process.version}`,
      interval_s: 1,
    });
    expect(first?.memory_rss_bytes).toBeGreaterThan(1024 * 1024);
    expect(first?.memory_heap_used_bytes).toBeGreaterThan(0);
    expect(first?.cpu_percent).toBeGreaterThanOrEqual(0);
    const [later] = await eventually(
      () => beats(checkout.id),
      (rows) => rows[0] !== undefined && rows[0].received_at > (first?.received_at ?? ""),
      5000,
    );
    expect((later?.received_at ?? "") > (first?.received_at ?? "")).toBe(true);
    expect(later?.instance_id).toBe(first?.instance_id);
    expect((await apps()).find((app) => app.slug === checkout.slug)).toMatchObject({
      alive: true,
      last_heartbeat_at: later?.received_at,
    });

    await sdk.close();
    const [atClose] = await beats(checkout.id);
    await pause(2500);
    expect((await beats(checkout.id))[0]?.received_at).toBe(atClose?.received_at);
  });

  it("sends none with `heartbeat: false`", async () => {
    const { billing } = sightline.fixture;
    const sdk = createSightline({
      apiKey: sightline.key,
      app: billing.slug,
      url: sightline.url,
      heartbeat: false,
      heartbeatIntervalMs: 1000,
    });
    await pause(1500);
    await sdk.close();
    expect(await beats(billing.id)).toEqual([]);
    expect((await apps()).find((app) => app.slug === billing.slug)).toMatchObject({
      alive: false,
      last_heartbeat_at: null,
    });
  });

  it("sends not even the first beat when closed at once", async () => {
    const { api, project } = sightline.fixture;
    const app = (await api.post(`/api/v1/projects/${project.slug}/apps`, { name: "Inventory" })).json<{
      id: string;
      slug: string;
    }>();
    const sdk = createSightline({ apiKey: sightline.key, app: app.slug, url: sightline.url });
    await sdk.close();
    await pause(1500);
    expect(await beats(app.id)).toEqual([]);
  });
});
