// Named leases: an expiring row one holder at a time may own. Taking or renewing is one
// conditional upsert, so two instances racing for an expired lease cannot both win.
import type { Kysely } from "kysely";
import type { MetadataTables } from "../schema.js";

export function createLeasesRepo(db: Kysely<MetadataTables>) {
  return {
    /** Takes the lease if free, expired or already ours; true when `holder` holds it now. */
    async acquire(name: string, holder: string, now: string, expiresAt: string): Promise<boolean> {
      const row = await db
        .insertInto("leases")
        .values({ name, holder, expires_at: expiresAt })
        .onConflict((oc) =>
          oc
            .column("name")
            .doUpdateSet({ holder, expires_at: expiresAt })
            .where((eb) => eb.or([eb("leases.holder", "=", holder), eb("leases.expires_at", "<", now)])),
        )
        .returning("holder")
        .executeTakeFirst();
      return row?.holder === holder;
    },

    /** Gives the lease up (at shutdown), so another instance need not wait for it to expire. */
    async release(name: string, holder: string): Promise<void> {
      await db.deleteFrom("leases").where("name", "=", name).where("holder", "=", holder).execute();
    },
  };
}

export type LeasesRepo = ReturnType<typeof createLeasesRepo>;
