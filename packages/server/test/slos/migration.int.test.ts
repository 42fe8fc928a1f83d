// Migration 0011 on a store that already holds alerting data, on SQLite and PostgreSQL: the
// outbox keeps its rows and its references (an alert event's rows still cascade with the rule, a
// deleted channel still leaves its name), and takes rows of SLO events, which cascade with theirs.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Migrator } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MetadataStore, openMetadataStore } from "../../src/stores/metadata/index.js";
import { metadataMigrations } from "../../src/stores/metadata/migrations/index.js";
import {
  createPostgresSchema,
  type MetadataBackend,
  metadataBackends,
  type PostgresSchema,
} from "../support/metadata.js";

const AT = "2026-03-30T12:00:00.000Z";

describe.each(metadataBackends())("migration 0011 on $name", (backend: MetadataBackend) => {
  let dir: string;
  let pgSchema: PostgresSchema | undefined;
  let store: MetadataStore | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sightline-meta-"));
    pgSchema =
      backend.name === "postgres" ? await createPostgresSchema(backend.databaseUrl as string) : undefined;
  });
  afterEach(async () => {
    await store?.close();
    await pgSchema?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps the outbox's rows and references, and opens it to SLO events", async () => {
    store = openMetadataStore({
      databaseUrl: backend.databaseUrl,
      sqlitePath: join(dir, "meta.sqlite"),
      postgresSchema: pgSchema?.schema,
    });
    const { db } = store;
    const before = Object.fromEntries(Object.entries(metadataMigrations).filter(([name]) => name < "0011"));
    const partial = await new Migrator({
      db,
      provider: { getMigrations: async () => before },
      ...(pgSchema === undefined ? {} : { migrationTableSchema: pgSchema.schema }),
    }).migrateToLatest();
    expect(partial.error).toBeUndefined();

    await db
      .insertInto("users")
      .values({
        id: "u1",
        email: "o@x.test",
        password_hash: null,
        email_verified_at: null,
        picture_updated_at: null,
        created_at: AT,
        updated_at: AT,
        last_login_at: null,
        deleted_at: null,
      })
      .execute();
    await db
      .insertInto("projects")
      .values({
        id: "p1",
        owner_id: "u1",
        name: "Shop",
        slug: "shop",
        created_at: AT,
        updated_at: AT,
        deleted_at: null,
      })
      .execute();
    const rule = (id: string) => ({
      id,
      project_id: "p1",
      name: id,
      enabled: 1,
      app_id: null,
      environment: null,
      endpoint_method: null,
      endpoint_route: null,
      metric: "error_rate",
      error_status_from: 500,
      status_selector: null,
      comparator: "gt",
      threshold: 5,
      window_seconds: 60,
      min_requests: 0,
      for_evaluations: 1,
      muted_until: null,
      state: "firing",
      state_since: AT,
      streak: 1,
      last_evaluated_at: AT,
      last_value: 10,
      created_at: AT,
      updated_at: AT,
    });
    await db
      .insertInto("alert_rules")
      .values([rule("r1"), rule("r2")])
      .execute();
    const event = (id: string, ruleId: string) => ({
      id,
      rule_id: ruleId,
      project_id: "p1",
      from_state: "ok",
      to_state: "firing",
      reason: "evaluation",
      value: 10,
      threshold: 5,
      comparator: "gt",
      request_count: 10,
      window_start: AT,
      window_end: AT,
      muted: 0,
      created_at: AT,
    });
    await db
      .insertInto("alert_events")
      .values([event("e1", "r1"), event("e2", "r2")])
      .execute();
    const channel = (id: string) => ({
      id,
      project_id: "p1",
      name: `channel ${id}`,
      type: "webhook",
      target: "{}",
      secret: "s",
      created_at: AT,
      updated_at: AT,
    });
    await db
      .insertInto("notification_channels")
      .values([channel("c1"), channel("c2")])
      .execute();
    const delivery = (id: string, eventId: string, channelId: string) => ({
      id,
      project_id: "p1",
      event_id: eventId,
      channel_id: channelId,
      channel_name: `channel ${channelId}`,
      channel_type: "webhook",
      payload: "{}",
      status: "pending",
      attempts: 0,
      next_attempt_at: AT,
      claimed_until: null,
      last_error: null,
      delivered_at: null,
      created_at: AT,
    });
    await db
      .insertInto("notification_deliveries")
      .values([delivery("d1", "e1", "c1"), delivery("d2", "e2", "c2")])
      .execute();

    // 0011 and every later migration, in order.
    expect(await store.migrate()).toEqual(Object.keys(metadataMigrations).filter((name) => name >= "0011"));
    const rows = () =>
      db
        .selectFrom("notification_deliveries")
        .select(["id", "event_id", "slo_event_id", "channel_id", "channel_name"])
        .orderBy("id")
        .execute();
    expect(await rows()).toEqual([
      { id: "d1", event_id: "e1", slo_event_id: null, channel_id: "c1", channel_name: "channel c1" },
      { id: "d2", event_id: "e2", slo_event_id: null, channel_id: "c2", channel_name: "channel c2" },
    ]);

    // The references hold as before: a rule's rows go with it, a channel's deletion leaves its name.
    await db.deleteFrom("alert_rules").where("id", "=", "r1").execute();
    await db.deleteFrom("notification_channels").where("id", "=", "c2").execute();
    expect(await rows()).toEqual([
      { id: "d2", event_id: "e2", slo_event_id: null, channel_id: null, channel_name: "channel c2" },
    ]);
    // An event that does not exist is still refused.
    await expect(
      db
        .insertInto("notification_deliveries")
        .values(delivery("d3", "missing", "c1"))
        .execute(),
    ).rejects.toThrow();

    // An SLO event's row: no alert event, and it goes with its SLO.
    await db
      .insertInto("slos")
      .values({
        id: "s1",
        project_id: "p1",
        name: "Available",
        app_id: null,
        environment: null,
        endpoints: "[]",
        consumer_id: null,
        consumer_group: null,
        sli: "availability",
        also_bad: "[]",
        latency_threshold_ms: null,
        target: 99.9,
        window_days: 30,
        alerting_enabled: 1,
        fast_burn_rate: 14.4,
        fast_long_minutes: 60,
        fast_short_minutes: 5,
        slow_burn_rate: 6,
        slow_long_minutes: 360,
        slow_short_minutes: 30,
        state: "fast_burn",
        state_since: AT,
        last_evaluated_at: AT,
        created_at: AT,
        updated_at: AT,
      })
      .execute();
    await db
      .insertInto("slo_events")
      .values({
        id: "se1",
        slo_id: "s1",
        project_id: "p1",
        from_state: "ok",
        to_state: "fast_burn",
        reason: "evaluation",
        long_burn_rate: 20,
        short_burn_rate: 20,
        long_window_minutes: 60,
        short_window_minutes: 5,
        threshold: 14.4,
        window_end: AT,
        created_at: AT,
      })
      .execute();
    await db
      .insertInto("notification_deliveries")
      .values({ ...delivery("d4", "e2", "c1"), event_id: null, slo_event_id: "se1" })
      .execute();
    expect((await rows()).map((row) => row.id)).toEqual(["d2", "d4"]);
    await db.deleteFrom("slos").where("id", "=", "s1").execute();
    expect((await rows()).map((row) => row.id)).toEqual(["d2"]);
  });
});
