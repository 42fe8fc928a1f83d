// Projects in the metadata store. Reads ignore soft-deleted rows unless they say otherwise.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, ProjectsTable } from "../schema.js";

export type ProjectRow = Selectable<ProjectsTable>;
export type ProjectListRow = Pick<ProjectRow, "id" | "name" | "slug" | "description" | "created_at"> & {
  app_count: number;
};

export function createProjectsRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<ProjectsTable>): Promise<ProjectRow> {
      return db.insertInto("projects").values(row).returningAll().executeTakeFirstOrThrow();
    },

    async findLiveBySlug(slug: string): Promise<ProjectRow | undefined> {
      return db
        .selectFrom("projects")
        .selectAll()
        .where("slug", "=", slug)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
    },

    async isSlugTaken(slug: string): Promise<boolean> {
      const row = await db
        .selectFrom("projects")
        .select("id")
        .where("slug", "=", slug)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Live projects owned by the user with their live app counts, newest first: one query. */
    async listLiveForOwner(ownerId: string): Promise<ProjectListRow[]> {
      const rows = await db
        .selectFrom("projects as p")
        .leftJoin("apps as a", (join) =>
          join.onRef("a.project_id", "=", "p.id").on("a.deleted_at", "is", null),
        )
        .select(["p.id", "p.name", "p.slug", "p.description", "p.created_at"])
        .select((eb) => eb.fn.count<number | string>("a.id").as("app_count"))
        .where("p.owner_id", "=", ownerId)
        .where("p.deleted_at", "is", null)
        .groupBy(["p.id", "p.name", "p.slug", "p.description", "p.created_at"])
        .orderBy("p.created_at", "desc")
        .orderBy("p.id", "desc")
        .execute();
      return rows.map((row) => ({ ...row, app_count: Number(row.app_count) }));
    },

    async listLiveIdsForOwner(ownerId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("projects")
        .select("id")
        .where("owner_id", "=", ownerId)
        .where("deleted_at", "is", null)
        .execute();
      return rows.map((row) => row.id);
    },

    async update(id: string, patch: Updateable<ProjectsTable>): Promise<ProjectRow> {
      return db
        .updateTable("projects")
        .set(patch)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async softDelete(id: string, at: string): Promise<void> {
      await db.updateTable("projects").set({ deleted_at: at, updated_at: at }).where("id", "=", id).execute();
    },
  };
}

export type ProjectsRepo = ReturnType<typeof createProjectsRepo>;
