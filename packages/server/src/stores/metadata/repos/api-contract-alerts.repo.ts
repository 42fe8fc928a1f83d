// Contract-change alert rules and their notification outbox.
import type { Insertable, Kysely, Selectable } from "kysely";
import type { ApiContractAlertRulesTable, ApiContractNotificationsTable, MetadataTables } from "../schema.js";

export type ApiContractAlertRuleRow = Selectable<ApiContractAlertRulesTable>;
export type ApiContractNotificationRow = Selectable<ApiContractNotificationsTable>;

export function createApiContractAlertsRepo(db: Kysely<MetadataTables>) {
  return {
    async insertRule(row: ApiContractAlertRuleRow): Promise<void> {
      await db.insertInto("api_contract_alert_rules").values(row).execute();
    },

    async listRules(projectId: string): Promise<ApiContractAlertRuleRow[]> {
      return db
        .selectFrom("api_contract_alert_rules")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    async countRules(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("api_contract_alert_rules")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async deleteRule(projectId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("api_contract_alert_rules")
        .where("project_id", "=", projectId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async enqueue(rows: readonly Insertable<ApiContractNotificationsTable>[]): Promise<void> {
      if (rows.length > 0)
        await db
          .insertInto("api_contract_notifications")
          .values([...rows])
          .execute();
    },

    async listDue(now: string, limit: number): Promise<ApiContractNotificationRow[]> {
      return db
        .selectFrom("api_contract_notifications")
        .selectAll()
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", now)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    /** Records an attempt's outcome: delivered, retried at `next`, or failed for good (next null). */
    async settle(
      id: string,
      attempts: number,
      outcome: { delivered: string } | { error: string; next: string | null } | { cancelled: string },
    ): Promise<void> {
      const update =
        "delivered" in outcome
          ? { status: "delivered", attempts, delivered_at: outcome.delivered, last_error: null }
          : "cancelled" in outcome
            ? { status: "cancelled", attempts, last_error: outcome.cancelled }
            : outcome.next === null
              ? { status: "failed", attempts, last_error: outcome.error }
              : { status: "pending", attempts, last_error: outcome.error, next_attempt_at: outcome.next };
      await db.updateTable("api_contract_notifications").set(update).where("id", "=", id).execute();
    },

    async listForVersion(versionId: string): Promise<ApiContractNotificationRow[]> {
      return db
        .selectFrom("api_contract_notifications")
        .selectAll()
        .where("version_id", "=", versionId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
  };
}

export type ApiContractAlertsRepo = ReturnType<typeof createApiContractAlertsRepo>;
