// The endpoint catalogue of an app in the metadata store: one row per (method, route template).
import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from "kysely";
import type { EndpointsTable, MetadataTables } from "../schema.js";

export type EndpointRow = Selectable<EndpointsTable>;

export function createEndpointsRepo(db: Kysely<MetadataTables>) {
  return {
    async list(appId: string): Promise<EndpointRow[]> {
      return db
        .selectFrom("endpoints")
        .selectAll()
        .where("app_id", "=", appId)
        .orderBy("path")
        .orderBy("method")
        .execute();
    },

    async find(appId: string, id: string): Promise<EndpointRow | undefined> {
      return db
        .selectFrom("endpoints")
        .selectAll()
        .where("app_id", "=", appId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    async findByRoute(appId: string, method: string, path: string): Promise<EndpointRow | undefined> {
      return db
        .selectFrom("endpoints")
        .selectAll()
        .where("app_id", "=", appId)
        .where("method", "=", method)
        .where("path", "=", path)
        .executeTakeFirst();
    },

    async insert(row: Insertable<EndpointsTable>): Promise<EndpointRow> {
      return db.insertInto("endpoints").values(row).returningAll().executeTakeFirstOrThrow();
    },

    /**
     * Creates missing endpoints and moves `last_seen_at` forward (never back) on existing ones,
     * in one statement for the whole batch.
     */
    async upsertSeen(rows: readonly Insertable<EndpointsTable>[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("endpoints")
        .values([...rows])
        .onConflict((oc) =>
          oc.columns(["app_id", "method", "path"]).doUpdateSet({
            last_seen_at: sql<string>`case
              when endpoints.last_seen_at is null or excluded.last_seen_at > endpoints.last_seen_at
              then excluded.last_seen_at else endpoints.last_seen_at end`,
          }),
        )
        .execute();
    },

    async update(id: string, patch: Updateable<EndpointsTable>): Promise<EndpointRow> {
      return db
        .updateTable("endpoints")
        .set(patch)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom("endpoints").where("id", "=", id).execute();
    },
  };
}

export type EndpointsRepo = ReturnType<typeof createEndpointsRepo>;
