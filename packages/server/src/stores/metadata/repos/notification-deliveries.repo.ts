// The notification outbox: rows written with the alert event that caused them, claimed by one
// instance at a time (an expiring claim, so a crashed sender's rows are picked up again), and
// finished as delivered, failed or cancelled with their attempts and last error kept.
import type { Insertable, Kysely, Selectable } from "kysely";
import type { MetadataTables, NotificationDeliveriesTable } from "../schema.js";

export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>;

/** A due row as the delivery worker picks it: its project and channel, and its place in line. */
export interface DueDelivery {
  readonly id: string;
  readonly project_id: string;
  readonly channel_id: string | null;
  /** 1 for the project's oldest due row here, 2 for the next, … */
  readonly project_rank: number;
}

export interface FairPick {
  /** At most this many rows of one channel… */
  readonly perChannel: number;
  /** …and of one project (each oldest first). */
  readonly perProject: number;
  readonly limit: number;
}

export function createNotificationDeliveriesRepo(db: Kysely<MetadataTables>) {
  return {
    async insertMany(rows: ReadonlyArray<Insertable<NotificationDeliveriesTable>>): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insertInto("notification_deliveries")
        .values([...rows])
        .execute();
    },

    /**
     * Due, unclaimed rows taken round-robin across projects: each project's oldest first, then
     * each one's second, …, at most `perProject` per project and `perChannel` per channel. Oldest
     * first across all projects let one project's backlog hold everyone else's notifications.
     */
    async listDueFair(now: string, pick: FairPick): Promise<DueDelivery[]> {
      const due = db
        .selectFrom("notification_deliveries")
        .select(["id", "project_id", "channel_id", "next_attempt_at"])
        .select((eb) =>
          eb.fn
            .agg<number>("row_number")
            .over((ob) => ob.partitionBy("channel_id").orderBy("next_attempt_at").orderBy("id"))
            .as("channel_rank"),
        )
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]));
      const ranked = db
        .selectFrom(due.as("due"))
        .select(["id", "project_id", "channel_id", "next_attempt_at"])
        .select((eb) =>
          eb.fn
            .agg<number>("row_number")
            .over((ob) => ob.partitionBy("project_id").orderBy("next_attempt_at").orderBy("id"))
            .as("project_rank"),
        )
        .where("channel_rank", "<=", pick.perChannel);
      const rows = await db
        .selectFrom(ranked.as("ranked"))
        .select(["id", "project_id", "channel_id", "project_rank"])
        .where("project_rank", "<=", pick.perProject)
        .orderBy("project_rank")
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(pick.limit)
        .execute();
      // PostgreSQL answers row_number() as a bigint string.
      return rows.map((row) => ({ ...row, project_rank: Number(row.project_rank) }));
    },

    /** Pending rows due by `now` (claimed ones included: they are under way) and those
     *  waiting for a later retry. */
    async countPending(now: string): Promise<{ due: number; waiting: number }> {
      const row = await db
        .selectFrom("notification_deliveries")
        .select((eb) => [
          eb.fn.countAll<number | string>().as("pending"),
          eb.fn.countAll<number | string>().filterWhere("next_attempt_at", "<=", now).as("due"),
        ])
        .where("status", "=", "pending")
        .executeTakeFirst();
      // PostgreSQL answers count() as a bigint string.
      const pending = Number(row?.pending ?? 0);
      const due = Number(row?.due ?? 0);
      return { due, waiting: pending - due };
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
