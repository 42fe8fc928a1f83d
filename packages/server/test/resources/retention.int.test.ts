// A project's retention through the API (docs/adr/0023): owners and admins set it within the
// server's maxima, everyone in the project reads it; ingest stores each record with its
// project's days (and its rollup days, carried into every rollup), the records lists say when a
// window reaches past them, analytics stop at the rollup days, and a change rewrites no part of
// the events store.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postIngest, requestRecord, storedRows } from "../ingest/helpers.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { signInTeam, type Team, teamProject } from "../support/team.js";

interface Retention {
  requests_days: number;
  logs_days: number;
  spans_days: number;
  rollups_days: number;
  max: { requests_days: number; logs_days: number; spans_days: number; rollups_days: number };
}

const ROLLUP_TABLES = [
  "api_requests_hourly",
  "api_errors_hourly",
  "api_endpoints_daily",
  "api_consumers_daily",
  "api_endpoints_hourly",
  "api_requests_daily",
  "api_errors_daily",
];

const DAY_MS = 86_400_000;
const ENV = {
  REQUESTS_RETENTION_DAYS: "60",
  LOGS_RETENTION_DAYS: "20",
  SPANS_RETENTION_DAYS: "10",
  ROLLUPS_RETENTION_DAYS: "500",
};

describe.each(metadataBackends())("project retention on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let team: Team;
  let keys: { short: string; long: string };

  beforeAll(async () => {
    ctx = await createTestContext({ metadata: backend, env: ENV });
    team = await signInTeam(ctx, "retention.test");
    await teamProject(ctx, team, "short");
    await teamProject(ctx, team, "long");
    const keyOf = async (slug: string) => {
      await team.owner.client.post(`/api/v1/projects/${slug}/apps`, { name: "Checkout", slug: `${slug}-co` });
      const created = await team.owner.client.post(`/api/v1/projects/${slug}/api-keys`, { name: "k" });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<{ key: string }>().key;
    };
    keys = { short: await keyOf("short"), long: await keyOf("long") };
  });
  afterAll(async () => {
    await ctx.close();
  });

  const url = (slug: string) => `/api/v1/projects/${slug}/retention`;

  it("starts at the server's days, which are also the maxima, and every member reads it", async () => {
    for (const role of ["owner", "admin", "member", "viewer"] as const) {
      const response = await team[role].client.get(url("long"));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<Retention>()).toEqual({
        requests_days: 60,
        logs_days: 20,
        spans_days: 10,
        rollups_days: 500,
        max: { requests_days: 60, logs_days: 20, spans_days: 10, rollups_days: 500 },
      });
    }
    expectProblem(await team.outsider.client.get(url("long")), "not_found");
  });

  it("lets owners and admins change it, not members or viewers", async () => {
    for (const role of ["member", "viewer"] as const) {
      expectProblem(await team[role].client.patch(url("short"), { requests_days: 5 }), "forbidden");
    }
    const byAdmin = await team.admin.client.patch(url("short"), { requests_days: 5, logs_days: 2 });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json<Retention>()).toMatchObject({ requests_days: 5, logs_days: 2, spans_days: 10 });
    const byOwner = await team.owner.client.patch(url("short"), { spans_days: 3 });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect((await team.viewer.client.get(url("short"))).json<Retention>()).toMatchObject({
      requests_days: 5,
      logs_days: 2,
      spans_days: 3,
    });
    const audit = await team.owner.client.get("/api/v1/projects/short/audit-log?page_size=200");
    const changed = audit
      .json<{ items: Array<{ action: string; details: unknown }> }>()
      .items.filter((event) => event.action === "project.retention_changed");
    expect(changed.map((event) => event.details)).toEqual([
      { spans_days: { from: 10, to: 3 } },
      { requests_days: { from: 60, to: 5 }, logs_days: { from: 20, to: 2 } },
    ]);
  });

  it("refuses days beyond the server's maximum, below one, unknown kinds and an empty change", async () => {
    const tooLong = await team.owner.client.patch(url("long"), { requests_days: 61, logs_days: 21 });
    expectProblem(tooLong, "validation_error");
    expect(tooLong.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer)).toEqual([
      "/requests_days",
      "/logs_days",
    ]);
    const rollupsTooLong = await team.owner.client.patch(url("long"), { rollups_days: 501 });
    expectProblem(rollupsTooLong, "validation_error");
    expect(
      rollupsTooLong.json<{ errors: Array<{ pointer: string }> }>().errors.map((e) => e.pointer),
    ).toEqual(["/rollups_days"]);
    // Beyond what any server allows (25 months): refused by the schema.
    expectProblem(await team.owner.client.patch(url("long"), { rollups_days: 763 }), "validation_error");
    expectProblem(await team.owner.client.patch(url("long"), { requests_days: 0 }), "validation_error");
    expectProblem(await team.owner.client.patch(url("long"), { rollups_days: 0 }), "validation_error");
    expectProblem(await team.owner.client.patch(url("long"), { payloads_days: 3 }), "validation_error");
    expectProblem(await team.owner.client.patch(url("long"), {}), "validation_error");
    expect((await team.owner.client.get(url("long"))).json<Retention>()).toMatchObject({
      requests_days: 60,
      rollups_days: 500,
    });
  });

  it("stores each record with its project's days and refuses what is older", async () => {
    await team.owner.client.patch(url("short"), { requests_days: 5 });
    const old = new Date(Date.now() - 6 * DAY_MS);
    const refused = await postIngest(
      ctx,
      "requests",
      { requests: [requestRecord({ app_id: "short-co" }, old)] },
      { key: keys.short },
    );
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.body).toContain("older than the retention window of 5 days");
    const kept = await postIngest(
      ctx,
      "requests",
      { requests: [requestRecord({ app_id: "long-co" }, old)] },
      { key: keys.long },
    );
    expect(kept.statusCode, kept.body).toBe(200);
    const now = await postIngest(
      ctx,
      "requests",
      { requests: [requestRecord({ app_id: "short-co" })] },
      { key: keys.short },
    );
    expect(now.statusCode, now.body).toBe(200);
    const days = await storedRows<{ project_id: string; retention_days: number }>(ctx, "api_requests");
    const projectIds = await Promise.all(
      ["short", "long"].map(
        async (slug) => (await team.owner.client.get(`/api/v1/projects/${slug}`)).json<{ id: string }>().id,
      ),
    );
    expect(days.map((row) => [row.project_id, row.retention_days])).toEqual([
      [projectIds[1], 60],
      [projectIds[0], 5],
    ]);
  });

  it("says when a records window reaches past the project's days, and lists none of what is older", async () => {
    const since = new Date(Date.now() - 30 * DAY_MS).toISOString();
    const beyond = await team.viewer.client.get(`/api/v1/projects/short/data/requests?since=${since}`);
    expect(beyond.statusCode, beyond.body).toBe(200);
    expect(beyond.json<{ retention: unknown }>().retention).toEqual({ days: 5, beyond: true });
    const within = await team.viewer.client.get("/api/v1/projects/short/data/requests");
    expect(within.json<{ retention: unknown }>().retention).toEqual({ days: 5, beyond: false });
    const logs = await team.viewer.client.get(`/api/v1/projects/long/data/logs?since=${since}`);
    expect(logs.json<{ retention: unknown }>().retention).toEqual({ days: 20, beyond: true });
    // Shortened below a stored record's age: the list stops at the new days at once.
    const longList = await team.viewer.client.get(`/api/v1/projects/long/data/requests?since=${since}`);
    expect(longList.json<{ total_count: number }>().total_count).toBe(1);
    await team.owner.client.patch(url("long"), { requests_days: 3 });
    const cut = await team.viewer.client.get(`/api/v1/projects/long/data/requests?since=${since}`);
    expect(cut.json<{ total_count: number; retention: unknown }>()).toMatchObject({
      total_count: 0,
      retention: { days: 3, beyond: true },
    });
  });

  it("carries the project's rollup days into every rollup and cuts analytics at them", async () => {
    const changed = await team.owner.client.patch(url("short"), { rollups_days: 40 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Retention>()).toMatchObject({ requests_days: 5, rollups_days: 40 });
    const audit = await team.owner.client.get("/api/v1/projects/short/audit-log?page_size=200");
    expect(
      audit
        .json<{ items: Array<{ action: string; details: unknown }> }>()
        .items.find((event) => event.action === "project.retention_changed")?.details,
    ).toEqual({ rollups_days: { from: 500, to: 40 } });

    // A failed request feeds every rollup (the errors one holds statuses >= 400 only).
    const failed = requestRecord({ app_id: "short-co", status_code: 503, consumer_id: "c-1" });
    const stored = await postIngest(ctx, "requests", { requests: [failed] }, { key: keys.short });
    expect(stored.statusCode, stored.body).toBe(200);
    const [short, long] = await Promise.all(
      ["short", "long"].map(
        async (slug) => (await team.owner.client.get(`/api/v1/projects/${slug}`)).json<{ id: string }>().id,
      ),
    );
    const raw = await storedRows<{ project_id: string; rollup_days: number }>(ctx, "api_requests");
    // Stored before the change: the server's days; after it, the project's 40.
    expect(raw.map((row) => [row.project_id === short ? "short" : "long", row.rollup_days])).toEqual([
      ["long", 500],
      ["short", 500],
      ["short", 40],
    ]);
    const { events } = ctx.deps;
    for (const table of ROLLUP_TABLES) {
      const rows = await events.query<{ project_id: string; days: number[] }>(
        `SELECT project_id, groupUniqArray(rollup_days) AS days FROM ${events.database}.${table} ` +
          "GROUP BY project_id ORDER BY project_id",
      );
      const daysOf = (id: string | undefined) => rows.find((row) => row.project_id === id)?.days.sort();
      // The errors rollups saw only the failed request; the others every request.
      const errorsOnly = table.startsWith("api_errors_");
      expect(daysOf(short), table).toEqual(errorsOnly ? [40] : [40, 500]);
      if (!errorsOnly) expect(daysOf(long), table).toEqual([500]);
    }

    // Analytics reach back the project's rollup days, cut at once when shortened.
    const since = new Date(Date.now() - 30 * DAY_MS).toISOString();
    const total = async () => {
      const summary = await team.viewer.client.get(`/api/v1/projects/long/analytics/summary?since=${since}`);
      expect(summary.statusCode, summary.body).toBe(200);
      return summary.json<{ total_requests: number }>().total_requests;
    };
    expect(await total()).toBe(1); // the request stored 6 days ago
    const cut = await team.owner.client.patch(url("long"), { rollups_days: 4 });
    expect(cut.statusCode, cut.body).toBe(200);
    expect(await total()).toBe(0);
    await team.owner.client.patch(url("long"), { rollups_days: 500 });
    expect(await total()).toBe(1);
  });

  it("rewrites no part of the events store when the retention changes", async () => {
    const parts = () =>
      ctx.deps.events.query<{ name: string; modification_time: string }>(
        "SELECT name, toString(modification_time) AS modification_time FROM system.parts " +
          "WHERE database = {db:String} AND active ORDER BY table, name",
        { db: ctx.deps.events.database },
      );
    // Merges would fold parts meanwhile; they are the engine's own work, not the change's.
    for (const table of ["api_requests", "api_logs", "api_spans", ...ROLLUP_TABLES])
      await ctx.deps.events.command(`SYSTEM STOP MERGES ${ctx.deps.events.database}.${table}`);
    const before = await parts();
    expect(before.length).toBeGreaterThan(0);
    // The migrations' own (materializing the consumer projection) are not the change's.
    const mutations = async () =>
      Number(
        (
          await ctx.deps.events.query<{ n: number }>(
            "SELECT count() AS n FROM system.mutations WHERE database = {db:String}",
            { db: ctx.deps.events.database },
          )
        )[0]?.n,
      );
    const mutationsBefore = await mutations();
    const changed = await team.owner.client.patch(url("long"), {
      requests_days: 2,
      logs_days: 1,
      spans_days: 1,
      rollups_days: 1,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await parts()).toEqual(before);
    expect(await mutations()).toBe(mutationsBefore);
  });
});
