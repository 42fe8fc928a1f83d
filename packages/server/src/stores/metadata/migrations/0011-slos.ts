// Migration 0011: service levels — SLOs with their burn-rate alert state, the channels they
// notify, the history of their state changes, and the notification outbox opened to SLO events
// (a row reports an alert event or an SLO event; each cascades from its own event).
import { type Kysely, PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("slos")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    // Null for the whole project; apps are soft-deleted, so the reference stays valid.
    .addColumn("app_id", "text", (col) => col.references("apps.id").onDelete("cascade"))
    .addColumn("environment", "text")
    // JSON array of {method, route}; [] for every endpoint.
    .addColumn("endpoints", "text", (col) => col.notNull())
    .addColumn("consumer_id", "text")
    .addColumn("consumer_group", "text")
    // availability | latency
    .addColumn("sli", "text", (col) => col.notNull())
    // JSON array of status selectors (`429`, `4xx`) counted bad besides 5xx (availability).
    .addColumn("also_bad", "text", (col) => col.notNull())
    .addColumn("latency_threshold_ms", "double precision")
    .addColumn("target", "double precision", (col) => col.notNull())
    .addColumn("window_days", "integer", (col) => col.notNull())
    // 1 or 0, and the two conditions of the multi-window, multi-burn-rate policy.
    .addColumn("alerting_enabled", "integer", (col) => col.notNull())
    .addColumn("fast_burn_rate", "double precision", (col) => col.notNull())
    .addColumn("fast_long_minutes", "integer", (col) => col.notNull())
    .addColumn("fast_short_minutes", "integer", (col) => col.notNull())
    .addColumn("slow_burn_rate", "double precision", (col) => col.notNull())
    .addColumn("slow_long_minutes", "integer", (col) => col.notNull())
    .addColumn("slow_short_minutes", "integer", (col) => col.notNull())
    // ok | slow_burn | fast_burn
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("state_since", "text", (col) => col.notNull())
    .addColumn("last_evaluated_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("slos_project").on("slos").columns(["project_id", "created_at"]).execute();

  await db.schema
    .createTable("slo_channels")
    .addColumn("slo_id", "text", (col) => col.notNull().references("slos.id").onDelete("cascade"))
    .addColumn("channel_id", "text", (col) =>
      col.notNull().references("notification_channels.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("slo_channels_pk", ["slo_id", "channel_id"])
    .execute();
  await db.schema.createIndex("slo_channels_channel").on("slo_channels").column("channel_id").execute();

  await db.schema
    .createTable("slo_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("slo_id", "text", (col) => col.notNull().references("slos.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("from_state", "text", (col) => col.notNull())
    .addColumn("to_state", "text", (col) => col.notNull())
    // evaluation | slo_changed
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("long_burn_rate", "double precision")
    .addColumn("short_burn_rate", "double precision")
    .addColumn("long_window_minutes", "integer", (col) => col.notNull())
    .addColumn("short_window_minutes", "integer", (col) => col.notNull())
    .addColumn("threshold", "double precision", (col) => col.notNull())
    .addColumn("window_end", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("slo_events_slo").on("slo_events").columns(["slo_id", "id"]).execute();

  // The outbox: event_id becomes nullable and slo_event_id joins it. PostgreSQL alters the
  // table in place; SQLite cannot drop NOT NULL, so the table is rebuilt (nothing references it).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE notification_deliveries ALTER COLUMN event_id DROP NOT NULL`.execute(db);
    await db.schema
      .alterTable("notification_deliveries")
      .addColumn("slo_event_id", "text", (col) => col.references("slo_events.id").onDelete("cascade"))
      .execute();
  } else {
    await db.schema
      .createTable("notification_deliveries_next")
      .addColumn("id", "text", (col) => col.primaryKey())
      .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("event_id", "text", (col) => col.references("alert_events.id").onDelete("cascade"))
      .addColumn("channel_id", "text", (col) =>
        col.references("notification_channels.id").onDelete("set null"),
      )
      .addColumn("channel_name", "text", (col) => col.notNull())
      .addColumn("channel_type", "text", (col) => col.notNull())
      .addColumn("payload", "text", (col) => col.notNull())
      .addColumn("status", "text", (col) => col.notNull())
      .addColumn("attempts", "integer", (col) => col.notNull())
      .addColumn("next_attempt_at", "text", (col) => col.notNull())
      .addColumn("claimed_until", "text")
      .addColumn("last_error", "text")
      .addColumn("delivered_at", "text")
      .addColumn("created_at", "text", (col) => col.notNull())
      .addColumn("slo_event_id", "text", (col) => col.references("slo_events.id").onDelete("cascade"))
      .execute();
    await sql`INSERT INTO notification_deliveries_next
      (id, project_id, event_id, channel_id, channel_name, channel_type, payload, status, attempts,
       next_attempt_at, claimed_until, last_error, delivered_at, created_at)
      SELECT id, project_id, event_id, channel_id, channel_name, channel_type, payload, status, attempts,
       next_attempt_at, claimed_until, last_error, delivered_at, created_at
      FROM notification_deliveries`.execute(db);
    await db.schema.dropTable("notification_deliveries").execute();
    await db.schema.alterTable("notification_deliveries_next").renameTo("notification_deliveries").execute();
    await db.schema
      .createIndex("notification_deliveries_due")
      .on("notification_deliveries")
      .columns(["status", "next_attempt_at"])
      .execute();
    await db.schema
      .createIndex("notification_deliveries_event")
      .on("notification_deliveries")
      .column("event_id")
      .execute();
  }
  await db.schema
    .createIndex("notification_deliveries_slo_event")
    .on("notification_deliveries")
    .column("slo_event_id")
    .execute();
}
