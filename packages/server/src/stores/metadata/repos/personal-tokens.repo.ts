// Personal access tokens in the metadata store: only the SHA-256 of a token is kept; revocation
// is a timestamp, and an account's deletion revokes all of its tokens.
import type { Insertable, Kysely, Selectable } from "kysely";
import type { MetadataTables, PersonalAccessTokensTable } from "../schema.js";

export type PersonalTokenRow = Selectable<PersonalAccessTokensTable>;

/** What authenticating a token needs, read in one query: the token and its live owner. */
export interface PersonalTokenLookupRow extends PersonalTokenRow {
  email: string;
}

export function createPersonalTokensRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<PersonalAccessTokensTable>): Promise<PersonalTokenRow> {
      return db.insertInto("personal_access_tokens").values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** A user's tokens that are not revoked, newest first (expired ones included). */
    async listUnrevoked(userId: string): Promise<PersonalTokenRow[]> {
      return db
        .selectFrom("personal_access_tokens")
        .selectAll()
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute();
    },

    /** The token with this hash, whatever its state, with its owner's e-mail if they are live. */
    async findByHash(hash: string): Promise<PersonalTokenLookupRow | undefined> {
      return db
        .selectFrom("personal_access_tokens as t")
        .innerJoin("users as u", "u.id", "t.user_id")
        .selectAll("t")
        .select("u.email")
        .where("t.token_hash", "=", hash)
        .where("u.deleted_at", "is", null)
        .executeTakeFirst();
    },

    /** Revokes one of the user's tokens; false when there is no such live token of theirs. */
    async revoke(userId: string, id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("personal_access_tokens")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async revokeAllOf(userId: string, at: string): Promise<void> {
      await db
        .updateTable("personal_access_tokens")
        .set({ revoked_at: at })
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .execute();
    },

    async touch(id: string, at: string): Promise<void> {
      await db.updateTable("personal_access_tokens").set({ last_used_at: at }).where("id", "=", id).execute();
    },
  };
}
