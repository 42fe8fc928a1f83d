// Saved views in the metadata store: a user's named page filters in a project, with the views
// the project's other members have shared, each with its owner's e-mail.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, SavedViewsTable } from "../schema.js";

export type SavedViewRow = Selectable<SavedViewsTable> & { owner_email: string };

export function createSavedViewsRepo(db: Kysely<MetadataTables>) {
  const withOwner = () =>
    db
      .selectFrom("saved_views as v")
      .innerJoin("users as u", "u.id", "v.user_id")
      .selectAll("v")
      .select("u.email as owner_email");

  return {
    async insert(row: Insertable<SavedViewsTable>): Promise<void> {
      await db.insertInto("saved_views").values(row).execute();
    },

    async update(id: string, changes: Updateable<SavedViewsTable>): Promise<void> {
      await db.updateTable("saved_views").set(changes).where("id", "=", id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom("saved_views").where("id", "=", id).execute();
    },

    async countOwned(projectId: string, userId: string): Promise<number> {
      const row = await db
        .selectFrom("saved_views")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The caller's views and the shared ones of the project, optionally of one page, by name. */
    async visible(projectId: string, userId: string, page: string | undefined): Promise<SavedViewRow[]> {
      let query = withOwner()
        .where("v.project_id", "=", projectId)
        .where((eb) => eb.or([eb("v.user_id", "=", userId), eb("v.shared", "=", 1)]));
      if (page !== undefined) query = query.where("v.page", "=", page);
      return query.orderBy("v.page").orderBy("v.name").orderBy("v.id").execute();
    },

    /** One view the caller may see (theirs, or shared), or undefined. */
    async findVisible(projectId: string, userId: string, id: string): Promise<SavedViewRow | undefined> {
      return withOwner()
        .where("v.project_id", "=", projectId)
        .where("v.id", "=", id)
        .where((eb) => eb.or([eb("v.user_id", "=", userId), eb("v.shared", "=", 1)]))
        .executeTakeFirst();
    },
  };
}

export type SavedViewsRepo = ReturnType<typeof createSavedViewsRepo>;
