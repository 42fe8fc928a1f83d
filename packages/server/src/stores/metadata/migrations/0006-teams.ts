// Migration 0006: teams — who belongs to a project and with which role, pending invitations,
// and the project's audit log. Every project's creator becomes its first owner: from here on
// access is decided by project_members alone (projects.owner_id only records the creator).
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("project_members")
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // owner | admin | member | viewer; any other text grants nothing (read as "not a member").
    .addColumn("role", "text", (col) => col.notNull())
    .addColumn("joined_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("project_members_pk", ["project_id", "user_id"])
    .execute();
  // "Which projects does this user belong to" is asked on every listing and context call.
  await db.schema.createIndex("project_members_user_id").on("project_members").column("user_id").execute();
  await sql`
    insert into project_members (project_id, user_id, role, joined_at)
    select id, owner_id, 'owner', created_at from projects where deleted_at is null
  `.execute(db);

  await db.schema
    .createTable("project_invitations")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // Lower-cased and trimmed, compared with users.email (stored the same way).
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("role", "text", (col) => col.notNull())
    // SHA-256 hex of the token; the token itself is only ever in the e-mail.
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("invited_by", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .execute();
  // One pending invitation per address and project: re-inviting replaces it.
  await db.schema
    .createIndex("project_invitations_project_email")
    .on("project_invitations")
    .columns(["project_id", "email"])
    .unique()
    .execute();
  await db.schema
    .createIndex("project_invitations_email")
    .on("project_invitations")
    .column("email")
    .execute();

  await db.schema
    .createTable("audit_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // Null for changes the system made; kept (not cascaded) when the actor's account goes.
    .addColumn("actor_id", "text", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("target_type", "text", (col) => col.notNull())
    .addColumn("target_id", "text", (col) => col.notNull())
    .addColumn("target_label", "text", (col) => col.notNull())
    // JSON object text: what changed.
    .addColumn("details", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("audit_events_project_created")
    .on("audit_events")
    .columns(["project_id", "created_at", "id"])
    .execute();
}
