// Notification channels in the metadata store: where a project's alerts are sent. The target
// (addresses or URL) is JSON text; a webhook's signing secret sits beside it and is never listed.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, NotificationChannelsTable } from "../schema.js";

export type ChannelRow = Selectable<NotificationChannelsTable>;

export function createNotificationChannelsRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<NotificationChannelsTable>): Promise<void> {
      await db.insertInto("notification_channels").values(row).execute();
    },

    async update(id: string, changes: Updateable<NotificationChannelsTable>): Promise<void> {
      await db.updateTable("notification_channels").set(changes).where("id", "=", id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom("notification_channels").where("id", "=", id).execute();
    },

    async count(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("notification_channels")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(projectId: string): Promise<ChannelRow[]> {
      return db
        .selectFrom("notification_channels")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    async find(projectId: string, id: string): Promise<ChannelRow | undefined> {
      return db
        .selectFrom("notification_channels")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    async findById(id: string): Promise<ChannelRow | undefined> {
      return db.selectFrom("notification_channels").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** The channels of `ids` that belong to the project. */
    async findMany(projectId: string, ids: readonly string[]): Promise<ChannelRow[]> {
      if (ids.length === 0) return [];
      return db
        .selectFrom("notification_channels")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("id", "in", ids)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    /** Channels of each rule, for the notifications of one evaluation pass. */
    async listForRules(ruleIds: readonly string[]): Promise<Array<ChannelRow & { rule_id: string }>> {
      if (ruleIds.length === 0) return [];
      return db
        .selectFrom("alert_rule_channels as rc")
        .innerJoin("notification_channels as c", "c.id", "rc.channel_id")
        .selectAll("c")
        .select("rc.rule_id")
        .where("rc.rule_id", "in", ruleIds)
        .orderBy("c.created_at")
        .orderBy("c.id")
        .execute();
    },

    /** E-mail addresses of the project's members, for channels that notify all of them. */
    async memberEmails(projectId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("project_members as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .select("u.email")
        .where("m.project_id", "=", projectId)
        .where("u.deleted_at", "is", null)
        .orderBy("u.email")
        .execute();
      return rows
        .map((row) => row.email)
        .filter((email): email is string => typeof email === "string" && email !== "");
    },
  };
}

export type NotificationChannelsRepo = ReturnType<typeof createNotificationChannelsRepo>;
