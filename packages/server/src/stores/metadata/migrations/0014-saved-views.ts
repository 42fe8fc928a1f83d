// Migration 0014: saved views — a page's filters under a name, owned by one user in one project
// and optionally shared with the project's members.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("saved_views")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // The dashboard page, as its path under the project (`requests`, `logs`).
    .addColumn("page", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    // JSON object of the page's URL search parameters, each as text.
    .addColumn("filters", "text", (col) => col.notNull())
    // 1 or 0.
    .addColumn("shared", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("saved_views_project_page")
    .on("saved_views")
    .columns(["project_id", "page", "name"])
    .execute();
  await db.schema
    .createIndex("saved_views_user")
    .on("saved_views")
    .columns(["user_id", "project_id"])
    .execute();
}
