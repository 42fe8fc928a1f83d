// Migration 0002: identity — users, sign-in link tokens, sessions (one per refresh-token
// family) and the refresh tokens of each session, plus stored profile pictures.
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("first_name", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("last_name", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("timezone", "text", (col) => col.notNull().defaultTo("UTC"))
    .addColumn("password_hash", "text")
    .addColumn("email_verified_at", "text")
    .addColumn("picture_updated_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("last_login_at", "text")
    .addColumn("deleted_at", "text")
    .execute();
  // A deleted account releases its address: signing up again makes a new, empty account.
  await db.schema
    .createIndex("users_email_live")
    .on("users")
    .column("email")
    .unique()
    .where(sql.ref("deleted_at"), "is", null)
    .execute();

  await db.schema
    .createTable("user_pictures")
    .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("content_type", "text", (col) => col.notNull())
    // Base64 text rather than a binary column: one type in both dialects, and a 256x256 WebP
    // is a few kilobytes.
    .addColumn("content_base64", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("magic_link_tokens")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("ip_address", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("magic_link_tokens_expires_at")
    .on("magic_link_tokens")
    .column("expires_at")
    .execute();
  // Account deletion forgets the links sent to the address.
  await db.schema.createIndex("magic_link_tokens_email").on("magic_link_tokens").column("email").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device_info", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("ip_address", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("location", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("auth_method", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("last_used_at", "text", (col) => col.notNull())
    // Absolute end of the family: rotation never extends it.
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("sessions_user_id")
    .on("sessions")
    .columns(["user_id", "last_used_at"])
    .execute();

  await db.schema
    .createTable("refresh_tokens")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("session_id", "text", (col) => col.notNull().references("sessions.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    // Set when this token is exchanged for the next one; presenting it again is reuse.
    .addColumn("used_at", "text")
    .execute();
  await db.schema
    .createIndex("refresh_tokens_session_id")
    .on("refresh_tokens")
    .column("session_id")
    .execute();
}
