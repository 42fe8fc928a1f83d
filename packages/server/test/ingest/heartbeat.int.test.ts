// POST /api/v1/ingest/heartbeat over the real app on both metadata dialects: the newest beat per
// instance is kept (and bounded per app), the apps API tells which apps are alive, and bad
// beats are clear problems.
import { HEARTBEAT_LIMITS } from "@sightline/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app.js";
import { type ManualClock, manualClock } from "../support/clock.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { createIngestFixture, type IngestFixture } from "./helpers.js";

const beat = (overrides: Record<string, unknown> = {}) => ({
  app_id: "checkout",
  environment: "Production",
  instance_id: "a1",
  sdk: "sightline-node",
  sdk_version: "0.1.0",
  runtime: "node v20.19.0",
  uptime_s: 12,
  cpu_percent: 3.25,
  memory_rss_bytes: 83_886_080,
  memory_heap_used_bytes: 20_971_520,
  interval_s: 60,
  ...overrides,
});

interface AppAnswer {
  slug: string;
  last_heartbeat_at: string | null;
  alive: boolean;
}

describe.each(metadataBackends())("heartbeats on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let fx: IngestFixture;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = manualClock(new Date("2026-11-21T06:00:00.000Z"));
    ctx = await createTestContext({ metadata: backend, clock });
    fx = await createIngestFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const send = (body: unknown, key: string | null = fx.projectKey) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/heartbeat",
      headers: { "content-type": "application/json", ...(key === null ? {} : { "x-api-key": key }) },
      payload: JSON.stringify(body),
    });
  const apps = async () =>
    Object.fromEntries(
      (await fx.api.get(`/api/v1/projects/${fx.project.slug}/apps`))
        .json<AppAnswer[]>()
        .map((app) => [app.slug, { last: app.last_heartbeat_at, alive: app.alive }]),
    );

  it("keeps the newest beat per instance, and the apps API tells which apps are alive", async () => {
    expect(await apps()).toEqual({
      checkout: { last: null, alive: false },
      billing: { last: null, alive: false },
    });
    const first = await send(beat());
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      app_id: fx.checkout.id,
      instance_id: "a1",
      received_at: "2026-11-21T06:00:00.000Z",
    });
    clock.advance(60_000);
    expect((await send(beat({ cpu_percent: 7.5, uptime_s: 72 }), fx.appKey)).statusCode).toBe(200);
    const rows = await ctx.deps.metadata.db.selectFrom("app_heartbeats").selectAll().execute();
    expect(rows).toEqual([
      {
        app_id: fx.checkout.id,
        instance_id: "a1",
        environment: "production",
        sdk: "sightline-node",
        sdk_version: "0.1.0",
        runtime: "node v20.19.0",
        uptime_s: 72,
        cpu_percent: 7.5,
        memory_rss_bytes: 83_886_080,
        memory_heap_used_bytes: 20_971_520,
        interval_s: 60,
        received_at: "2026-11-21T06:01:00.000Z",
      },
    ]);
    expect(await apps()).toEqual({
      checkout: { last: "2026-11-21T06:01:00.000Z", alive: true },
      billing: { last: null, alive: false },
    });
    const one = (await fx.api.get(`/api/v1/apps/${fx.checkout.slug}`)).json<AppAnswer>();
    expect([one.last_heartbeat_at, one.alive]).toEqual(["2026-11-21T06:01:00.000Z", true]);
    const accessible = (await fx.api.get("/api/v1/apps")).json<AppAnswer[]>();
    expect(accessible.find((app) => app.slug === "checkout")?.alive).toBe(true);

    // Silent for longer than the window: no longer alive, the last beat still told.
    clock.advance(HEARTBEAT_LIMITS.aliveWithinMs + 1);
    expect(await apps()).toMatchObject({ checkout: { last: "2026-11-21T06:01:00.000Z", alive: false } });
  });

  it("remembers at most the newest instances of an app", async () => {
    const extra = 3;
    for (let i = 0; i < HEARTBEAT_LIMITS.instancesPerApp + extra; i += 1) {
      clock.advance(1000);
      expect((await send(beat({ instance_id: `i${i}` }))).statusCode).toBe(200);
    }
    const kept = await ctx.deps.metadata.db
      .selectFrom("app_heartbeats")
      .select("instance_id")
      .orderBy("received_at")
      .execute();
    expect(kept.length).toBe(HEARTBEAT_LIMITS.instancesPerApp);
    expect(kept[0]?.instance_id).toBe(`i${extra}`);
  });

  it("answers clear problems for a bad key, another app's key, an unknown app and a bad body", async () => {
    expectProblem(await send(beat(), null), "authentication_error");
    expectProblem(await send(beat(), "sl_nope"), "authentication_error");
    const otherApp = expectProblem(
      await send(beat({ app_id: fx.billing.slug }), fx.appKey),
      "validation_error",
    );
    expect(otherApp.errors).toEqual([{ pointer: "/app_id", message: expect.stringContaining("checkout") }]);
    const unknown = expectProblem(await send(beat({ app_id: "nope" })), "validation_error");
    expect(unknown.errors).toEqual([{ pointer: "/app_id", message: 'is not a live app of project "shop"' }]);
    const wrongProject = expectProblem(await send(beat({ project_slug: "other" })), "validation_error");
    expect(wrongProject.errors).toEqual([{ pointer: "/project_slug", message: expect.any(String) }]);
    const badBody = await send(beat({ instance_id: "has spaces", cpu_percent: -1 }));
    expect(badBody.statusCode).toBe(422);
    expect(await ctx.deps.metadata.db.selectFrom("app_heartbeats").selectAll().execute()).toEqual([]);
  });
});
