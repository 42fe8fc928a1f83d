// Environments of an app in the metadata store, configured by users or discovered by ingest.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { EnvironmentsTable, MetadataTables } from "../schema.js";

export type EnvironmentRow = Selectable<EnvironmentsTable>;

export function createEnvironmentsRepo(db: Kysely<MetadataTables>) {
  return {
    /** The app's environments in display order. */
    async list(appId: string): Promise<EnvironmentRow[]> {
      return db
        .selectFrom("environments")
        .selectAll()
        .where("app_id", "=", appId)
        .orderBy("position")
        .orderBy("name")
        .execute();
    },

    async findBySlug(appId: string, slug: string): Promise<EnvironmentRow | undefined> {
      return db
        .selectFrom("environments")
        .selectAll()
        .where("app_id", "=", appId)
        .where("slug", "=", slug)
        .executeTakeFirst();
    },

    async insert(row: Insertable<EnvironmentsTable>): Promise<EnvironmentRow> {
      return db.insertInto("environments").values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** Inserts rows, silently skipping any that another writer created first. */
    async insertMissing(rows: readonly Insertable<EnvironmentsTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("environments")
        .values([...rows])
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    async update(id: string, patch: Updateable<EnvironmentsTable>): Promise<EnvironmentRow> {
      return db
        .updateTable("environments")
        .set(patch)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom("environments").where("id", "=", id).execute();
    },
  };
}

export type EnvironmentsRepo = ReturnType<typeof createEnvironmentsRepo>;
