// API keys in the metadata store: only the SHA-256 of a key is kept; revocation is a timestamp.
import type { Insertable, Kysely, Selectable } from "kysely";
import type { ApiKeysTable, MetadataTables } from "../schema.js";

export type ApiKeyRow = Selectable<ApiKeysTable>;

/** What authenticating a key needs, read in one query. */
export interface KeyLookupRow {
  key_id: string;
  project_id: string;
  project_slug: string;
  app_id: string | null;
  app_slug: string | null;
  /** The project's own retention per kind (null: the server's days). */
  requests_retention_days: number | null;
  logs_retention_days: number | null;
  spans_retention_days: number | null;
  rollups_retention_days: number | null;
}

export function createApiKeysRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<ApiKeysTable>): Promise<ApiKeyRow> {
      return db.insertInto("api_keys").values(row).returningAll().executeTakeFirstOrThrow();
    },

    async countLive(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("api_keys")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .where("revoked_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Keys of a project (all of them, or one app's), revoked included, newest first. */
    async list(projectId: string, appId: string | null): Promise<ApiKeyRow[]> {
      let query = db.selectFrom("api_keys").selectAll().where("project_id", "=", projectId);
      query = appId === null ? query.where("app_id", "is", null) : query.where("app_id", "=", appId);
      return query.orderBy("created_at", "desc").orderBy("id", "desc").execute();
    },

    async find(projectId: string, appId: string | null, id: string): Promise<ApiKeyRow | undefined> {
      let query = db
        .selectFrom("api_keys")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("id", "=", id);
      query = appId === null ? query.where("app_id", "is", null) : query.where("app_id", "=", appId);
      return query.executeTakeFirst();
    },

    async revoke(id: string, at: string): Promise<void> {
      await db
        .updateTable("api_keys")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
    },

    /** Revokes every live key of a project (or of one app); returns their hashes. */
    async revokeAll(scope: { projectId: string } | { appId: string }, at: string): Promise<string[]> {
      const rows = await db
        .updateTable("api_keys")
        .set({ revoked_at: at })
        .where(
          "projectId" in scope ? "project_id" : "app_id",
          "=",
          "projectId" in scope ? scope.projectId : scope.appId,
        )
        .where("revoked_at", "is", null)
        .returning("key_hash")
        .execute();
      return rows.map((row) => row.key_hash);
    },

    /** The live key with this hash, if its project (and app, for app keys) is live. */
    async lookupLive(keyHash: string): Promise<KeyLookupRow | undefined> {
      return db
        .selectFrom("api_keys as k")
        .innerJoin("projects as p", "p.id", "k.project_id")
        .leftJoin("apps as a", "a.id", "k.app_id")
        .select([
          "k.id as key_id",
          "p.id as project_id",
          "p.slug as project_slug",
          "a.id as app_id",
          "a.slug as app_slug",
          "p.requests_retention_days",
          "p.logs_retention_days",
          "p.spans_retention_days",
          "p.rollups_retention_days",
        ])
        .where("k.key_hash", "=", keyHash)
        .where("k.revoked_at", "is", null)
        .where("p.deleted_at", "is", null)
        .where((eb) => eb.or([eb("k.app_id", "is", null), eb("a.deleted_at", "is", null)]))
        .executeTakeFirst();
    },

    async touch(ids: readonly string[], at: string): Promise<void> {
      if (ids.length === 0) return;
      await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "in", ids).execute();
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
