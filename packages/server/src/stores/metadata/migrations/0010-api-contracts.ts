// Migration 0010: the live API contract — each app and environment's learning state, the
// versions of its inferred OpenAPI document, the classified changes between versions with the
// consumers they affect, the declared document a team uploads per app, the inference cursor,
// and contract-change alert rules with their outbox (sent through the alerts' channels).
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_contracts")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // Apps are soft-deleted, so the reference stays valid.
    .addColumn("app_id", "text", (col) => col.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("environment", "text", (col) => col.notNull())
    // JSON of the statistics the contract is derived from: types, counts, presence; no values
    // but redaction-safe examples and low-cardinality enum members.
    .addColumn("state", "text", (col) => col.notNull())
    // Traffic before this instant has been read.
    .addColumn("read_until", "text", (col) => col.notNull())
    .addColumn("latest_version", "integer", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("api_contracts_app_environment")
    .on("api_contracts")
    .columns(["app_id", "environment"])
    .unique()
    .execute();
  await db.schema.createIndex("api_contracts_project").on("api_contracts").column("project_id").execute();

  await db.schema
    .createTable("api_contract_versions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("app_id", "text", (col) => col.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("environment", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    // SHA-256 of the document's shape (examples left out): equal shapes make no new version.
    .addColumn("fingerprint", "text", (col) => col.notNull())
    .addColumn("document", "text", (col) => col.notNull())
    .addColumn("operations", "integer", (col) => col.notNull())
    .addColumn("changes", "integer", (col) => col.notNull())
    .addColumn("breaking_changes", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("api_contract_versions_number")
    .on("api_contract_versions")
    .columns(["app_id", "environment", "version"])
    .unique()
    .execute();

  await db.schema
    .createTable("api_contract_changes")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("version_id", "text", (col) =>
      col.notNull().references("api_contract_versions.id").onDelete("cascade"),
    )
    .addColumn("app_id", "text", (col) => col.notNull())
    .addColumn("environment", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    // 1 or 0.
    .addColumn("breaking", "integer", (col) => col.notNull())
    .addColumn("method", "text", (col) => col.notNull())
    .addColumn("path", "text", (col) => col.notNull())
    .addColumn("location", "text", (col) => col.notNull())
    .addColumn("status", "text")
    .addColumn("field", "text")
    .addColumn("detail", "text", (col) => col.notNull())
    // JSON array of {consumer_id, consumer_name, requests}, most requests first.
    .addColumn("consumers", "text", (col) => col.notNull())
    .addColumn("consumers_total", "integer", (col) => col.notNull())
    .addColumn("window_days", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("api_contract_changes_project")
    .on("api_contract_changes")
    .columns(["project_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("api_contract_changes_version")
    .on("api_contract_changes")
    .column("version_id")
    .execute();

  await db.schema
    .createTable("api_declared_documents")
    .addColumn("app_id", "text", (col) => col.primaryKey().references("apps.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // The document as JSON (YAML uploads are stored parsed).
    .addColumn("document", "text", (col) => col.notNull())
    .addColumn("openapi", "text", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("operations", "integer", (col) => col.notNull())
    .addColumn("size_bytes", "integer", (col) => col.notNull())
    .addColumn("uploaded_at", "text", (col) => col.notNull())
    .execute();

  // One row: traffic before `read_until` has been through inference (per group, api_contracts
  // says how far each app and environment got, so a failed pass never counts a call twice).
  await db.schema
    .createTable("api_contract_cursor")
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("read_until", "text", (col) => col.notNull())
    .execute();

  // Contract-change alert rules: which changes (scope, severity) notify which of the project's
  // notification channels. Kept apart from metric alert rules, whose columns they do not share.
  await db.schema
    .createTable("api_contract_alert_rules")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    // Null for every app; apps are soft-deleted, so the reference stays valid.
    .addColumn("app_id", "text", (col) => col.references("apps.id").onDelete("cascade"))
    .addColumn("environment", "text")
    // breaking | all
    .addColumn("severity", "text", (col) => col.notNull())
    // JSON array of notification channel ids (channels deleted later are skipped when sending).
    .addColumn("channel_ids", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("api_contract_alert_rules_project")
    .on("api_contract_alert_rules")
    .columns(["project_id", "created_at"])
    .execute();

  // The outbox of contract-change notifications: written with nothing else pending on it, sent by
  // the instance running inference; attempts, errors and the outcome stay on the row.
  await db.schema
    .createTable("api_contract_notifications")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("rule_id", "text", (col) =>
      col.notNull().references("api_contract_alert_rules.id").onDelete("cascade"),
    )
    .addColumn("version_id", "text", (col) =>
      col.notNull().references("api_contract_versions.id").onDelete("cascade"),
    )
    .addColumn("channel_id", "text", (col) => col.references("notification_channels.id").onDelete("set null"))
    // JSON of the notification; channel targets and secrets are read at send time.
    .addColumn("payload", "text", (col) => col.notNull())
    // pending | delivered | failed | cancelled
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull())
    .addColumn("next_attempt_at", "text", (col) => col.notNull())
    .addColumn("last_error", "text")
    .addColumn("delivered_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("api_contract_notifications_due")
    .on("api_contract_notifications")
    .columns(["status", "next_attempt_at"])
    .execute();
}
