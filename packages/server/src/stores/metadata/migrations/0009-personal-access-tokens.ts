// Migration 0009: personal access tokens — secrets a user creates to call the API as themselves,
// capped by a scope (read or read-write) and optionally limited to some projects.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("personal_access_tokens")
    .addColumn("id", "text", (col) => col.primaryKey())
    // Deleting the user row (never done today: accounts are anonymised) would take its tokens too.
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("prefix", "text", (col) => col.notNull())
    // SHA-256 hex of the whole token; the token itself is shown once and never stored.
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    // read | read-write; any other text is treated as read.
    .addColumn("scope", "text", (col) => col.notNull())
    // JSON array of project ids the token is limited to; null for every project of the user.
    .addColumn("project_ids", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text")
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("personal_access_tokens_user_id")
    .on("personal_access_tokens")
    .column("user_id")
    .execute();
}
