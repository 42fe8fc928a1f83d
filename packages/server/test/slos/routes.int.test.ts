// The SLO routes on SQLite and PostgreSQL: defaults, normalisation, every field problem answered
// with its pointer in one 422, not-found for other projects' SLOs, name and channel changes that
// keep the state, and the audit trail. Figures are in figures.int.test.ts, alerts in alerting.
import type { Slo, SloWithStatus } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AlertsFixture, createAlertsFixture, created } from "../alerts/helpers.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";

const P = "/api/v1/projects/shop";

describe.each(metadataBackends())("SLO routes on $name", (backend: MetadataBackend) => {
  let fx: AlertsFixture;

  beforeAll(async () => {
    fx = await createAlertsFixture(backend);
  });
  afterAll(async () => {
    await fx?.close();
  });

  const base = { name: "Checkout", sli: { kind: "availability" }, target: 99.9, window_days: 30 };

  it("creates with the workbook's alerting by default and normalised scope", async () => {
    const slo = await created<Slo>(fx.owner, `${P}/slos`, {
      ...base,
      scope: {
        app: "checkout",
        environment: "Production",
        endpoints: [
          { method: "get", route: "/users/:id" },
          { method: "GET", route: "/users/{id}" },
        ],
      },
      sli: { kind: "availability", also_bad: ["429", "4XX"] },
    });
    expect(slo).toMatchObject({
      name: "Checkout",
      scope: {
        app: { slug: "checkout" },
        environment: "production",
        endpoints: [{ method: "GET", route: "/users/{id}" }],
        consumer: null,
        consumer_group: null,
      },
      sli: { kind: "availability", also_bad: ["429", "4xx"] },
      target: 99.9,
      window_days: 30,
      alerting: {
        enabled: true,
        fast: { burn_rate: 14.4, long_window_minutes: 60, short_window_minutes: 5 },
        slow: { burn_rate: 6, long_window_minutes: 360, short_window_minutes: 30 },
      },
      channel_ids: [],
      state: "ok",
      last_evaluated_at: null,
      page: `/projects/shop/slos/${slo.id}`,
    });
    expect((await fx.owner.get(`${P}/slos/${slo.id}`)).json<Slo>()).toEqual(slo);
  });

  it("answers every field problem with its pointer in one 422", async () => {
    const refused = async (body: Record<string, unknown>, pointers: string[]) => {
      const response = await fx.owner.post(`${P}/slos`, body);
      expect(response.statusCode, response.body).toBe(422);
      const problem = response.json<{ errors?: Array<{ pointer: string }> }>();
      for (const pointer of pointers) {
        expect(problem.errors?.map((error) => error.pointer)).toContain(pointer);
      }
    };
    await refused(
      { ...base, scope: { environment: "production", endpoints: [{ method: "GET", route: "/x" }] } },
      ["/scope/environment", "/scope/endpoints"],
    );
    await refused({ ...base, scope: { consumer: "a", consumer_group: "b" } }, ["/scope/consumer_group"]);
    await refused({ ...base, sli: { kind: "availability", also_bad: ["503"] } }, ["/sli/also_bad"]);
    await refused(
      { ...base, alerting: { fast: { burn_rate: 10, long_window_minutes: 5, short_window_minutes: 5 } } },
      ["/alerting/fast/short_window_minutes"],
    );
    await refused({ ...base, scope: { app: "nope" } }, ["/scope/app"]);
    await refused({ ...base, channel_ids: ["0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21"] }, ["/channel_ids/0"]);
    for (const body of [
      { ...base, target: 100 },
      { ...base, target: 10 },
      { ...base, window_days: 14 },
      { ...base, sli: { kind: "latency" } },
      { ...base, sli: { kind: "latency", threshold_ms: 0 } },
      { ...base, unknown: 1 },
    ]) {
      expect((await fx.owner.post(`${P}/slos`, body)).statusCode).toBe(422);
    }
    expect((await fx.owner.get(`${P}/slos?method=GET`)).statusCode).toBe(422);
  });

  it("changes name and channels without touching the state, and records the audit trail", async () => {
    const slo = await created<Slo>(fx.owner, `${P}/slos`, base);
    const channel = await created(fx.owner, `${P}/notification-channels`, {
      name: "sre",
      type: "email",
      addresses: ["sre@shop.test"],
    });
    const renamed = await fx.owner.patch(`${P}/slos/${slo.id}`, {
      name: "Renamed",
      channel_ids: [channel.id],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Slo>()).toMatchObject({
      name: "Renamed",
      channel_ids: [channel.id],
      state_since: slo.state_since,
    });
    const latency = await fx.owner.patch(`${P}/slos/${slo.id}`, {
      sli: { kind: "latency", threshold_ms: 250 },
      window_days: 7,
    });
    expect(latency.json<Slo>()).toMatchObject({
      sli: { kind: "latency", threshold_ms: 250 },
      window_days: 7,
    });
    expect((await fx.owner.delete(`${P}/slos/${slo.id}`)).statusCode).toBe(200);
    expect((await fx.owner.get(`${P}/slos/${slo.id}`)).statusCode).toBe(404);

    const audit = (await fx.owner.get(`${P}/audit-log`)).json<{
      items: Array<{ action: string; target: { id: string } }>;
    }>();
    expect(audit.items.filter((item) => item.target.id === slo.id).map((item) => item.action)).toEqual([
      "slo.deleted",
      "slo.updated",
      "slo.updated",
      "slo.created",
    ]);
  });

  it("keeps each project's SLOs to itself", async () => {
    const slo = await created<Slo>(fx.owner, `${P}/slos`, base);
    await created(fx.owner, "/api/v1/projects", { name: "Other", slug: "other" });
    expect((await fx.owner.get(`/api/v1/projects/other/slos/${slo.id}`)).statusCode).toBe(404);
    expect((await fx.owner.patch(`/api/v1/projects/other/slos/${slo.id}`, { name: "x" })).statusCode).toBe(
      404,
    );
    expect((await fx.owner.get("/api/v1/projects/other/slos")).json<SloWithStatus[]>()).toEqual([]);
  });

  it("makes no SLO from the per-consumer template when the scope has no consumers", async () => {
    const response = await fx.owner.post(`${P}/slos/per-consumer`, {
      template: { name: "Quiet", sli: { kind: "availability" }, target: 99, window_days: 7 },
      scope: { app: "quiet" },
      top: 5,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual([]);
  });
});
