// Project memberships: who belongs to which live project, with which role. Role text is
// returned as stored; deciding what an unknown role means is the access module's job.
import type { Kysely, Selectable } from "kysely";
import type { MetadataTables, ProjectMembersTable, ProjectsTable } from "../schema.js";

export type MemberRow = Selectable<ProjectMembersTable>;

/** A member with what others see of their account. */
export interface MemberWithUserRow extends MemberRow {
  email: string;
  first_name: string;
  last_name: string;
  picture_updated_at: string | null;
}

/** A live project the user belongs to, with their role. */
export interface MembershipRow {
  project: Selectable<ProjectsTable>;
  role: string;
  joined_at: string;
}

export function createMembersRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: MemberRow): Promise<void> {
      await db.insertInto("project_members").values(row).execute();
    },

    async find(projectId: string, userId: string): Promise<MemberRow | undefined> {
      return db
        .selectFrom("project_members")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
    },

    /** Members of a project with their accounts, in joining order. */
    async list(projectId: string): Promise<MemberWithUserRow[]> {
      return db
        .selectFrom("project_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .selectAll("m")
        .select(["u.email", "u.first_name", "u.last_name", "u.picture_updated_at"])
        .where("m.project_id", "=", projectId)
        .orderBy("m.joined_at")
        .orderBy("m.user_id")
        .execute();
    },

    async updateRole(projectId: string, userId: string, role: string): Promise<void> {
      await db
        .updateTable("project_members")
        .set({ role })
        .where("project_id", "=", projectId)
        .where("user_id", "=", userId)
        .execute();
    },

    /** Removes a membership; false when there was none. */
    async delete(projectId: string, userId: string): Promise<boolean> {
      const result = await db
        .deleteFrom("project_members")
        .where("project_id", "=", projectId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteAllOf(userId: string): Promise<void> {
      await db.deleteFrom("project_members").where("user_id", "=", userId).execute();
    },

    async countWithRole(projectId: string, role: string): Promise<number> {
      const row = await db
        .selectFrom("project_members")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .where("role", "=", role)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Serialises membership changes of one project: a no-op update takes the project row's lock
     * (PostgreSQL) or the write lock (SQLite) until the caller's transaction ends, so two
     * concurrent changes cannot both see "another owner remains" and leave none.
     */
    async lockProject(projectId: string): Promise<void> {
      await db
        .updateTable("projects")
        .set((eb) => ({ updated_at: eb.ref("updated_at") }))
        .where("id", "=", projectId)
        .execute();
    },

    /** Live projects the user belongs to, with role and joining time, oldest membership first. */
    async listForUser(userId: string): Promise<MembershipRow[]> {
      const rows = await db
        .selectFrom("project_members as m")
        .innerJoin("projects as p", "p.id", "m.project_id")
        .selectAll("p")
        .select(["m.role", "m.joined_at"])
        .where("m.user_id", "=", userId)
        .where("p.deleted_at", "is", null)
        .orderBy("m.joined_at")
        .orderBy("p.id")
        .execute();
      return rows.map(({ role, joined_at, ...project }) => ({ project, role, joined_at }));
    },
  };
}

export type MembersRepo = ReturnType<typeof createMembersRepo>;
