// Migration 0003: the resource model — projects, apps, API keys, and the environments and
// endpoints of each app. Slug uniqueness ignores soft-deleted rows (partial unique indexes).
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("owner_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("slug", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  await db.schema
    .createIndex("projects_slug_live")
    .on("projects")
    .column("slug")
    .unique()
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
  await db.schema.createIndex("projects_owner_id").on("projects").column("owner_id").execute();

  await db.schema
    .createTable("apps")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("slug", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("framework", "text", (col) => col.notNull().defaultTo("other"))
    .addColumn("icon", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("deleted_at", "text")
    .execute();
  await db.schema
    .createIndex("apps_project_slug_live")
    .on("apps")
    .columns(["project_id", "slug"])
    .unique()
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
  await db.schema.createIndex("apps_slug").on("apps").column("slug").execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // Set for app keys: they may only ingest records of this app.
    .addColumn("app_id", "text", (col) => col.references("apps.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("prefix", "text", (col) => col.notNull())
    .addColumn("key_hash", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("api_keys_project_id")
    .on("api_keys")
    .columns(["project_id", "created_at"])
    .execute();

  await db.schema
    .createTable("environments")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("app_id", "text", (col) => col.notNull().references("apps.id").onDelete("cascade"))
    // The environment string as records carry it (trimmed, lower-cased by ingest).
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("slug", "text", (col) => col.notNull())
    .addColumn("color", "text", (col) => col.notNull())
    .addColumn("position", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("environments_app_slug")
    .on("environments")
    .columns(["app_id", "slug"])
    .unique()
    .execute();
  await db.schema
    .createIndex("environments_app_name")
    .on("environments")
    .columns(["app_id", "name"])
    .unique()
    .execute();

  await db.schema
    .createTable("endpoints")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("app_id", "text", (col) => col.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("method", "text", (col) => col.notNull())
    // The route template (`/users/{id}`), never a raw path with identifiers.
    .addColumn("path", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("deactivated_at", "text")
    .addColumn("last_seen_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("endpoints_app_method_path")
    .on("endpoints")
    .columns(["app_id", "method", "path"])
    .unique()
    .execute();
}
