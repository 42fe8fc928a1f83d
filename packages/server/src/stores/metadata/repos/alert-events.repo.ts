// The history of alert rules: one row per state change, newest first, with the notifications
// each change caused (read from the outbox rows that belong to it).
import type { Insertable, Kysely, Selectable } from "kysely";
import type { AlertEventsTable, MetadataTables, NotificationDeliveriesTable } from "../schema.js";

export type AlertEventRow = Selectable<AlertEventsTable>;
export type DeliveryRow = Selectable<NotificationDeliveriesTable>;

export function createAlertEventsRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<AlertEventsTable>): Promise<void> {
      await db.insertInto("alert_events").values(row).execute();
    },

    async page(
      ruleId: string,
      { limit, offset }: { limit: number; offset: number },
    ): Promise<{ rows: AlertEventRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db
          .selectFrom("alert_events")
          .selectAll()
          .where("rule_id", "=", ruleId)
          .orderBy("id", "desc")
          .limit(limit)
          .offset(offset)
          .execute(),
        db
          .selectFrom("alert_events")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("rule_id", "=", ruleId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    async deliveriesOf(eventIds: readonly string[]): Promise<DeliveryRow[]> {
      if (eventIds.length === 0) return [];
      return db
        .selectFrom("notification_deliveries")
        .selectAll()
        .where("event_id", "in", eventIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
  };
}
