// Fixed-window hit counters in the metadata store: one atomic upsert per hit, shared by all
// server instances. Expired windows are swept opportunistically.
import { type Kysely, sql } from "kysely";
import type { MetadataTables } from "../schema.js";

export interface RateLimitsRepo {
  /** Adds one hit to (bucket, window) and returns the window's count including this hit. */
  increment(bucket: string, windowStart: string, expiresAt: string): Promise<number>;
  /** Takes one hit back from (bucket, window), never below zero. */
  decrement(bucket: string, windowStart: string): Promise<void>;
  /** Forgets every window of the bucket (e.g. failed logins after a success). */
  clear(bucket: string): Promise<void>;
  /** Removes windows that ended before `now`; returns how many rows went. */
  deleteExpired(now: string): Promise<number>;
}

export function createRateLimitsRepo(db: Kysely<MetadataTables>): RateLimitsRepo {
  return {
    async increment(bucket, windowStart, expiresAt) {
      const row = await db
        .insertInto("rate_limit_counters")
        .values({ bucket, window_start: windowStart, hits: 1, expires_at: expiresAt })
        .onConflict((oc) =>
          oc.columns(["bucket", "window_start"]).doUpdateSet({ hits: sql`rate_limit_counters.hits + 1` }),
        )
        .returning("hits")
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    },
    async decrement(bucket, windowStart) {
      await db
        .updateTable("rate_limit_counters")
        .set({ hits: sql`hits - 1` })
        .where("bucket", "=", bucket)
        .where("window_start", "=", windowStart)
        .where("hits", ">", 0)
        .execute();
    },
    async clear(bucket) {
      await db.deleteFrom("rate_limit_counters").where("bucket", "=", bucket).execute();
    },
    async deleteExpired(now) {
      const result = await db
        .deleteFrom("rate_limit_counters")
        .where("expires_at", "<", now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
