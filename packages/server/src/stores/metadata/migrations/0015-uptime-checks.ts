// Migration 0015: uptime checks, the HTTP checks Sightline runs on a schedule, with their state
// (up/down, consecutive failures) kept next to their definition and the channels their alert uses.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("uptime_checks")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("method", "text", (col) => col.notNull())
    // JSON object of header name to value.
    .addColumn("headers", "text", (col) => col.notNull())
    .addColumn("interval_seconds", "integer", (col) => col.notNull())
    .addColumn("timeout_ms", "integer", (col) => col.notNull())
    .addColumn("expected_status", "integer", (col) => col.notNull())
    .addColumn("body_contains", "text")
    .addColumn("failure_threshold", "integer", (col) => col.notNull())
    // JSON array of notification channel ids (a deleted channel is skipped when sending).
    .addColumn("channel_ids", "text", (col) => col.notNull())
    .addColumn("enabled", "integer", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("state_since", "text")
    .addColumn("consecutive_failures", "integer", (col) => col.notNull())
    .addColumn("last_checked_at", "text")
    .addColumn("last_error", "text")
    // When the check is due next; the runner picks enabled checks due by now.
    .addColumn("next_check_at", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("uptime_checks_project")
    .on("uptime_checks")
    .columns(["project_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("uptime_checks_due")
    .on("uptime_checks")
    .columns(["enabled", "next_check_at"])
    .execute();
}
