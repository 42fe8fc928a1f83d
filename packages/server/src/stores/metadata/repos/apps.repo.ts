// Apps in the metadata store. Reads ignore soft-deleted apps and apps of deleted projects.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { AppsTable, MetadataTables } from "../schema.js";
import type { ProjectRow } from "./projects.repo.js";

export type AppRow = Selectable<AppsTable>;
export type AppWithProjectRow = AppRow & { project_slug: string; role: string };

export function createAppsRepo(db: Kysely<MetadataTables>) {
  const findLiveBySlug = (projectId: string, slug: string): Promise<AppRow | undefined> =>
    db
      .selectFrom("apps")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("slug", "=", slug)
      .where("deleted_at", "is", null)
      .executeTakeFirst();

  return {
    async insert(row: Insertable<AppsTable>): Promise<AppRow> {
      return db.insertInto("apps").values(row).returningAll().executeTakeFirstOrThrow();
    },

    findLiveBySlug,

    async isSlugTaken(projectId: string, slug: string): Promise<boolean> {
      return (await findLiveBySlug(projectId, slug)) !== undefined;
    },

    /** Live apps of a project, newest first. */
    async listLive(projectId: string): Promise<AppRow[]> {
      return db
        .selectFrom("apps")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("deleted_at", "is", null)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute();
    },

    /** Live apps in live projects the user belongs to, with the stored role, newest first. */
    async listLiveForMember(userId: string): Promise<AppWithProjectRow[]> {
      return db
        .selectFrom("apps as a")
        .innerJoin("projects as p", "p.id", "a.project_id")
        .innerJoin("project_members as m", "m.project_id", "p.id")
        .selectAll("a")
        .select(["p.slug as project_slug", "m.role"])
        .where("a.deleted_at", "is", null)
        .where("p.deleted_at", "is", null)
        .where("m.user_id", "=", userId)
        .orderBy("a.created_at", "desc")
        .orderBy("a.id", "desc")
        .execute();
    },

    /**
     * Live apps with this slug in live projects the user belongs to (several when ambiguous),
     * each with its whole project row and the user's stored role: one query resolves
     * `/apps/{app_slug}`.
     */
    async findLiveBySlugForMember(
      userId: string,
      slug: string,
    ): Promise<Array<{ app: AppRow; project: ProjectRow; role: string }>> {
      const rows = await db
        .selectFrom("apps as a")
        .innerJoin("projects as p", "p.id", "a.project_id")
        .innerJoin("project_members as m", "m.project_id", "p.id")
        .selectAll("a")
        .select([
          "p.owner_id as p_owner_id",
          "p.name as p_name",
          "p.slug as p_slug",
          "p.description as p_description",
          "p.created_at as p_created_at",
          "p.updated_at as p_updated_at",
          "p.deleted_at as p_deleted_at",
          "p.requests_retention_days as p_requests_retention_days",
          "p.logs_retention_days as p_logs_retention_days",
          "p.spans_retention_days as p_spans_retention_days",
          "p.rollups_retention_days as p_rollups_retention_days",
          "m.role as m_role",
        ])
        .where("a.deleted_at", "is", null)
        .where("p.deleted_at", "is", null)
        .where("m.user_id", "=", userId)
        .where("a.slug", "=", slug)
        .orderBy("p.slug")
        .execute();
      return rows.map(
        ({
          p_owner_id,
          p_name,
          p_slug,
          p_description,
          p_created_at,
          p_updated_at,
          p_deleted_at,
          p_requests_retention_days,
          p_logs_retention_days,
          p_spans_retention_days,
          p_rollups_retention_days,
          m_role,
          ...app
        }) => ({
          app,
          role: m_role,
          project: {
            id: app.project_id,
            owner_id: p_owner_id,
            name: p_name,
            slug: p_slug,
            description: p_description,
            created_at: p_created_at,
            updated_at: p_updated_at,
            deleted_at: p_deleted_at,
            requests_retention_days: p_requests_retention_days,
            logs_retention_days: p_logs_retention_days,
            spans_retention_days: p_spans_retention_days,
            rollups_retention_days: p_rollups_retention_days,
          },
        }),
      );
    },

    async update(id: string, patch: Updateable<AppsTable>): Promise<AppRow> {
      return db.updateTable("apps").set(patch).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
    },

    async softDelete(id: string, at: string): Promise<void> {
      await db.updateTable("apps").set({ deleted_at: at, updated_at: at }).where("id", "=", id).execute();
    },

    async softDeleteAllOfProject(projectId: string, at: string): Promise<void> {
      await db
        .updateTable("apps")
        .set({ deleted_at: at, updated_at: at })
        .where("project_id", "=", projectId)
        .where("deleted_at", "is", null)
        .execute();
    },
  };
}

export type AppsRepo = ReturnType<typeof createAppsRepo>;
