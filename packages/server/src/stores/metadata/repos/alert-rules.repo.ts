// Alert rules in the metadata store, with the channels each notifies and the evaluation state
// (state, streak, last value) the evaluator writes back after every pass.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { AlertRulesTable, MetadataTables } from "../schema.js";

export type AlertRuleRow = Selectable<AlertRulesTable>;

/** A rule with the slug and name of its app, as listings show it. */
export interface AlertRuleWithAppRow extends AlertRuleRow {
  app_slug: string | null;
  app_name: string | null;
}

/** A rule with what its notifications name: project slug and name, app slug. */
export interface EvaluableRuleRow extends AlertRuleWithAppRow {
  project_slug: string;
  project_name: string;
}

/** What one evaluation pass writes for one rule. */
export interface RuleEvaluationUpdate {
  readonly id: string;
  readonly state: string;
  readonly stateSince: string;
  readonly streak: number;
  readonly lastValue: number | null;
  /** JSON band of an anomaly rule; null for threshold rules. */
  readonly lastBand: string | null;
  /** The rule's updated_at as read: an edit made during the pass wins over the pass. */
  readonly updatedAt: string;
}

export function createAlertRulesRepo(db: Kysely<MetadataTables>) {
  const withApp = () =>
    db
      .selectFrom("alert_rules as r")
      .leftJoin("apps as a", "a.id", "r.app_id")
      .selectAll("r")
      .select(["a.slug as app_slug", "a.name as app_name"]);

  return {
    async insert(row: Insertable<AlertRulesTable>): Promise<void> {
      await db.insertInto("alert_rules").values(row).execute();
    },

    async update(id: string, changes: Updateable<AlertRulesTable>): Promise<void> {
      await db.updateTable("alert_rules").set(changes).where("id", "=", id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom("alert_rules").where("id", "=", id).execute();
    },

    async count(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("alert_rules")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(projectId: string): Promise<AlertRuleWithAppRow[]> {
      return withApp()
        .where("r.project_id", "=", projectId)
        .orderBy("r.created_at")
        .orderBy("r.id")
        .execute();
    },

    async find(projectId: string, id: string): Promise<AlertRuleWithAppRow | undefined> {
      return withApp().where("r.project_id", "=", projectId).where("r.id", "=", id).executeTakeFirst();
    },

    /** Enabled rules of live projects (and live apps), for one evaluation pass. */
    async listEvaluable(): Promise<EvaluableRuleRow[]> {
      return db
        .selectFrom("alert_rules as r")
        .innerJoin("projects as p", "p.id", "r.project_id")
        .leftJoin("apps as a", "a.id", "r.app_id")
        .selectAll("r")
        .select([
          "p.slug as project_slug",
          "p.name as project_name",
          "a.slug as app_slug",
          "a.name as app_name",
        ])
        .where("r.enabled", "=", 1)
        .where("p.deleted_at", "is", null)
        .where((eb) => eb.or([eb("r.app_id", "is", null), eb("a.deleted_at", "is", null)]))
        .orderBy("r.project_id")
        .orderBy("r.id")
        .execute();
    },

    /** Enabled rules of live projects, and the latest time any of them was evaluated. */
    async evaluationStatus(): Promise<{ enabled: number; lastEvaluatedAt: string | null }> {
      const row = await db
        .selectFrom("alert_rules as r")
        .innerJoin("projects as p", "p.id", "r.project_id")
        .select((eb) => [
          eb.fn.countAll<number | string>().as("enabled"),
          eb.fn.max("r.last_evaluated_at").as("last"),
        ])
        .where("r.enabled", "=", 1)
        .where("p.deleted_at", "is", null)
        .executeTakeFirst();
      // PostgreSQL answers count() as a bigint string.
      return { enabled: Number(row?.enabled ?? 0), lastEvaluatedAt: row?.last ?? null };
    },

    async saveEvaluations(updates: readonly RuleEvaluationUpdate[], evaluatedAt: string): Promise<void> {
      for (const update of updates) {
        await db
          .updateTable("alert_rules")
          .set({
            state: update.state,
            state_since: update.stateSince,
            streak: update.streak,
            last_value: update.lastValue,
            last_band: update.lastBand,
            last_evaluated_at: evaluatedAt,
          })
          .where("id", "=", update.id)
          .where("updated_at", "=", update.updatedAt)
          .execute();
      }
    },

    /** The live app of the project with this slug, which a rule may watch. */
    async findLiveApp(
      projectId: string,
      slug: string,
    ): Promise<{ id: string; slug: string; name: string } | undefined> {
      return db
        .selectFrom("apps")
        .select(["id", "slug", "name"])
        .where("project_id", "=", projectId)
        .where("slug", "=", slug)
        .where("deleted_at", "is", null)
        .executeTakeFirst();
    },

    async channelIdsOf(ruleIds: readonly string[]): Promise<Map<string, string[]>> {
      const byRule = new Map<string, string[]>(ruleIds.map((id) => [id, []]));
      if (ruleIds.length === 0) return byRule;
      const rows = await db
        .selectFrom("alert_rule_channels as rc")
        .innerJoin("notification_channels as c", "c.id", "rc.channel_id")
        .select(["rc.rule_id", "rc.channel_id"])
        .where("rc.rule_id", "in", ruleIds)
        .orderBy("c.created_at")
        .orderBy("c.id")
        .execute();
      for (const row of rows) byRule.get(row.rule_id)?.push(row.channel_id);
      return byRule;
    },

    async setChannels(ruleId: string, channelIds: readonly string[]): Promise<void> {
      await db.deleteFrom("alert_rule_channels").where("rule_id", "=", ruleId).execute();
      if (channelIds.length === 0) return;
      await db
        .insertInto("alert_rule_channels")
        .values(channelIds.map((channelId) => ({ rule_id: ruleId, channel_id: channelId })))
        .execute();
    },
  };
}

export type AlertRulesRepo = ReturnType<typeof createAlertRulesRepo>;
