// Migration 0008: alerting — rules with their evaluation state, the history of state changes,
// notification channels, the durable outbox of notifications to deliver, and named leases
// (one server instance at a time runs the evaluator).
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("alert_rules")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    // 1 or 0 (SQLite has no boolean type).
    .addColumn("enabled", "integer", (col) => col.notNull())
    // Null for the whole project; apps are soft-deleted, so the reference stays valid.
    .addColumn("app_id", "text", (col) => col.references("apps.id").onDelete("cascade"))
    .addColumn("environment", "text")
    .addColumn("endpoint_method", "text")
    .addColumn("endpoint_route", "text")
    .addColumn("metric", "text", (col) => col.notNull())
    .addColumn("error_status_from", "integer")
    .addColumn("status_selector", "text")
    .addColumn("comparator", "text", (col) => col.notNull())
    .addColumn("threshold", "double precision", (col) => col.notNull())
    .addColumn("window_seconds", "integer", (col) => col.notNull())
    .addColumn("min_requests", "integer", (col) => col.notNull())
    .addColumn("for_evaluations", "integer", (col) => col.notNull())
    .addColumn("muted_until", "text")
    // ok | pending | firing, and how many evaluations in a row the condition has held.
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("state_since", "text", (col) => col.notNull())
    .addColumn("streak", "integer", (col) => col.notNull())
    .addColumn("last_evaluated_at", "text")
    .addColumn("last_value", "double precision")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("alert_rules_project")
    .on("alert_rules")
    .columns(["project_id", "created_at"])
    .execute();

  await db.schema
    .createTable("notification_channels")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    // email | webhook | slack
    .addColumn("type", "text", (col) => col.notNull())
    // JSON: {addresses, all_members} for e-mail, {url} for webhook and Slack.
    .addColumn("target", "text", (col) => col.notNull())
    // The webhook signing key (needed in clear to sign); never logged, shown once.
    .addColumn("secret", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("notification_channels_project")
    .on("notification_channels")
    .columns(["project_id", "created_at"])
    .execute();

  await db.schema
    .createTable("alert_rule_channels")
    .addColumn("rule_id", "text", (col) => col.notNull().references("alert_rules.id").onDelete("cascade"))
    .addColumn("channel_id", "text", (col) =>
      col.notNull().references("notification_channels.id").onDelete("cascade"),
    )
    .addPrimaryKeyConstraint("alert_rule_channels_pk", ["rule_id", "channel_id"])
    .execute();
  await db.schema
    .createIndex("alert_rule_channels_channel")
    .on("alert_rule_channels")
    .column("channel_id")
    .execute();

  await db.schema
    .createTable("alert_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("rule_id", "text", (col) => col.notNull().references("alert_rules.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("from_state", "text", (col) => col.notNull())
    .addColumn("to_state", "text", (col) => col.notNull())
    // evaluation | rule_changed
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("value", "double precision")
    .addColumn("threshold", "double precision", (col) => col.notNull())
    .addColumn("comparator", "text", (col) => col.notNull())
    .addColumn("request_count", "integer", (col) => col.notNull())
    .addColumn("window_start", "text", (col) => col.notNull())
    .addColumn("window_end", "text", (col) => col.notNull())
    .addColumn("muted", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("alert_events_rule").on("alert_events").columns(["rule_id", "id"]).execute();

  // The outbox: a notification is written in the transaction that records its event, and sent
  // by whichever instance claims it first; attempts, errors and the outcome stay on the row.
  await db.schema
    .createTable("notification_deliveries")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("event_id", "text", (col) => col.notNull().references("alert_events.id").onDelete("cascade"))
    // Kept (set null) when the channel is deleted, so the event still shows what happened.
    .addColumn("channel_id", "text", (col) => col.references("notification_channels.id").onDelete("set null"))
    .addColumn("channel_name", "text", (col) => col.notNull())
    .addColumn("channel_type", "text", (col) => col.notNull())
    // JSON of the notification (rule, values, links); channel targets and secrets are read at send time.
    .addColumn("payload", "text", (col) => col.notNull())
    // pending | delivered | failed | cancelled
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull())
    .addColumn("next_attempt_at", "text", (col) => col.notNull())
    // An instance sending it holds it until then; after that another may retry it.
    .addColumn("claimed_until", "text")
    .addColumn("last_error", "text")
    .addColumn("delivered_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
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

  await db.schema
    .createTable("leases")
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("holder", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
}
