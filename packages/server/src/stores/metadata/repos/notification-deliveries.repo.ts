// The notification outbox: rows written with the alert event that caused them, claimed by one
// instance at a time (an expiring claim, so a crashed sender's rows are picked up again), and
// finished as delivered, failed or cancelled with their attempts and last error kept.
import type { Insertable, Kysely, Selectable } from "kysely";
import type { MetadataTables, NotificationDeliveriesTable } from "../schema.js";

export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>;

export function createNotificationDeliveriesRepo(db: Kysely<MetadataTables>) {
  return {
    async insertMany(rows: ReadonlyArray<Insertable<NotificationDeliveriesTable>>): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("notification_deliveries")
        .values([...rows])
        .execute();
    },

    /** Ids of pending rows due at `now` and not claimed by a live sender, oldest first. */
    async listDue(now: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom("notification_deliveries")
        .select("id")
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /** When the earliest pending row falls due, if any. */
    async nextDueAt(): Promise<string | undefined> {
      const row = await db
        .selectFrom("notification_deliveries")
        .select((eb) => eb.fn.min("next_attempt_at").as("next"))
        .where("status", "=", "pending")
        .executeTakeFirst();
      return row?.next ?? undefined;
    },

    /**
     * Claims a due row until `until`, counting the attempt; undefined when another sender got it
     * first. A conditional update, so two instances can never both claim the same row.
     */
    async claim(id: string, now: string, until: string): Promise<NotificationDeliveryRow | undefined> {
      return db
        .updateTable("notification_deliveries")
        .set((eb) => ({ claimed_until: until, attempts: eb("attempts", "+", 1) }))
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
        .returningAll()
        .executeTakeFirst();
    },

    /** Cancels what is still pending for projects deleted since it was queued. */
    async cancelForDeletedProjects(): Promise<void> {
      await db
        .updateTable("notification_deliveries")
        .set({ status: "cancelled", last_error: "the project was deleted", claimed_until: null })
        .where("status", "=", "pending")
        .where("project_id", "in", (eb) =>
          eb.selectFrom("projects").select("id").where("deleted_at", "is not", null),
        )
        .execute();
    },

    async markDelivered(id: string, at: string): Promise<void> {
      await db
        .updateTable("notification_deliveries")
        .set({ status: "delivered", delivered_at: at, claimed_until: null, last_error: null })
        .where("id", "=", id)
        .execute();
    },

    /** A failed attempt: retried at `nextAttemptAt`, or finished as `failed` when it is null. */
    async markAttemptFailed(id: string, error: string, nextAttemptAt: string | null): Promise<void> {
      await db
        .updateTable("notification_deliveries")
        .set(
          nextAttemptAt === null
            ? { status: "failed", last_error: error, claimed_until: null }
            : { last_error: error, next_attempt_at: nextAttemptAt, claimed_until: null },
        )
        .where("id", "=", id)
        .execute();
    },

    async markCancelled(id: string, reason: string): Promise<void> {
      await db
        .updateTable("notification_deliveries")
        .set({ status: "cancelled", last_error: reason, claimed_until: null })
        .where("id", "=", id)
        .execute();
    },
  };
}

export type NotificationDeliveriesRepo = ReturnType<typeof createNotificationDeliveriesRepo>;
