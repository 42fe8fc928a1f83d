// Sign-in link tokens: stored by SHA-256 digest only, single use, short lived.
import type { Kysely, Selectable } from "kysely";
import type { MagicLinkTokensTable, MetadataTables } from "../schema.js";

export type MagicLinkTokenRow = Selectable<MagicLinkTokensTable>;

export interface MagicLinksRepo {
  insert(row: {
    id: string;
    email: string;
    tokenHash: string;
    ipAddress: string;
    createdAt: string;
    expiresAt: string;
  }): Promise<void>;
  findByHash(tokenHash: string): Promise<MagicLinkTokenRow | undefined>;
  /** Marks the token used unless it already is; false when another request used it first. */
  markUsed(id: string, usedAt: string): Promise<boolean>;
  /** Forgets every token sent to `email` (account deletion). */
  deleteByEmail(email: string): Promise<void>;
  /** Removes tokens that expired before `before`. */
  deleteExpired(before: string): Promise<number>;
}

export function createMagicLinksRepo(db: Kysely<MetadataTables>): MagicLinksRepo {
  return {
    async insert(row) {
      await db
        .insertInto("magic_link_tokens")
        .values({
          id: row.id,
          email: row.email,
          token_hash: row.tokenHash,
          ip_address: row.ipAddress,
          created_at: row.createdAt,
          expires_at: row.expiresAt,
          used_at: null,
        })
        .execute();
    },
    findByHash(tokenHash) {
      return db
        .selectFrom("magic_link_tokens")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
    },
    async markUsed(id, usedAt) {
      const result = await db
        .updateTable("magic_link_tokens")
        .set({ used_at: usedAt })
        .where("id", "=", id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async deleteByEmail(email) {
      await db.deleteFrom("magic_link_tokens").where("email", "=", email).execute();
    },
    async deleteExpired(before) {
      const result = await db
        .deleteFrom("magic_link_tokens")
        .where("expires_at", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
