// Projects in the metadata store. Reads ignore soft-deleted rows unless they say otherwise.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, ProjectsTable } from "../schema.js";

export type ProjectRow = Selectable<ProjectsTable>;
export type ProjectListRow = Pick<ProjectRow, "id" | "name" | "slug" | "description" | "created_at"> & {
  app_count: number;
  /** The member's role as stored. */
  role: string;
};

export function createProjectsRepo(db: Kysely<MetadataTables>) {
  async function liveWithRole(
    key: "p.id" | "p.slug",
    value: string,
    userId: string,
  ): Promise<{ project: ProjectRow; role: string | null } | undefined> {
    const row = await db
      .selectFrom("projects as p")
      .leftJoin("project_members as m", (join) =>
        join.onRef("m.project_id", "=", "p.id").on("m.user_id", "=", userId),
      )
      .selectAll("p")
      .select("m.role")
      .where(key, "=", value)
      .where("p.deleted_at", "is", null)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { role, ...project } = row;
    return { project, role };
  }

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

    /**
     * The live project with this slug and the user's role in it (null when not a member): one
     * query answers both "does it exist" and "may this user see it".
     */
    findLiveBySlugWithRole: (slug: string, userId: string) => liveWithRole("p.slug", slug, userId),

    /** The same by id: what a write re-reads inside its transaction, after the route's check. */
    findLiveWithRole: (id: string, userId: string) => liveWithRole("p.id", id, userId),

    /** Live projects the user belongs to with their role and live app counts, newest first. */
    async listLiveForMember(userId: string): Promise<ProjectListRow[]> {
      const rows = await db
        .selectFrom("projects as p")
        .innerJoin("project_members as m", "m.project_id", "p.id")
        .leftJoin("apps as a", (join) =>
          join.onRef("a.project_id", "=", "p.id").on("a.deleted_at", "is", null),
        )
        .select(["p.id", "p.name", "p.slug", "p.description", "p.created_at", "m.role"])
        .select((eb) => eb.fn.count<number | string>("a.id").as("app_count"))
        .where("m.user_id", "=", userId)
        .where("p.deleted_at", "is", null)
        .groupBy(["p.id", "p.name", "p.slug", "p.description", "p.created_at", "m.role"])
        .orderBy("p.created_at", "desc")
        .orderBy("p.id", "desc")
        .execute();
      return rows.map((row) => ({ ...row, app_count: Number(row.app_count) }));
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
