// SLOs in the metadata store: the objectives with their app, the channels each notifies, the
// burn-rate alert state the evaluator writes back, and the history of state changes with the
// notifications each caused.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, NotificationDeliveriesTable, SloEventsTable, SlosTable } from "../schema.js";

export type SloRow = Selectable<SlosTable>;
export type SloEventRow = Selectable<SloEventsTable>;
export type SloDeliveryRow = Selectable<NotificationDeliveriesTable>;

/** An SLO with its app's slug and name and its project's, as listings and notifications show it. */
export interface SloWithAppRow extends SloRow {
  app_slug: string | null;
  app_name: string | null;
  project_slug: string;
  project_name: string;
}

/** What one evaluation pass writes for one SLO. */
export interface SloEvaluationUpdate {
  readonly id: string;
  readonly state: string;
  readonly stateSince: string;
  /** The SLO's updated_at as read: an edit made during the pass wins over the pass. */
  readonly updatedAt: string;
}

export function createSlosRepo(db: Kysely<MetadataTables>) {
  const withApp = () =>
    db
      .selectFrom("slos as s")
      .innerJoin("projects as p", "p.id", "s.project_id")
      .leftJoin("apps as a", "a.id", "s.app_id")
      .selectAll("s")
      .select([
        "a.slug as app_slug",
        "a.name as app_name",
        "p.slug as project_slug",
        "p.name as project_name",
      ]);

  return {
    async insert(row: Insertable<SlosTable>): Promise<void> {
      await db.insertInto("slos").values(row).execute();
    },

    async update(id: string, changes: Updateable<SlosTable>): Promise<void> {
      await db.updateTable("slos").set(changes).where("id", "=", id).execute();
    },

    async delete(id: string): Promise<void> {
      await db.deleteFrom("slos").where("id", "=", id).execute();
    },

    async count(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("slos")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async list(projectId: string): Promise<SloWithAppRow[]> {
      return withApp()
        .where("s.project_id", "=", projectId)
        .orderBy("s.created_at")
        .orderBy("s.id")
        .execute();
    },

    async find(projectId: string, id: string): Promise<SloWithAppRow | undefined> {
      return withApp().where("s.project_id", "=", projectId).where("s.id", "=", id).executeTakeFirst();
    },

    /** SLOs with alerting on, of live projects and live apps, for one evaluation pass. */
    async listEvaluable(): Promise<SloWithAppRow[]> {
      return withApp()
        .where("s.alerting_enabled", "=", 1)
        .where("p.deleted_at", "is", null)
        .where((eb) => eb.or([eb("s.app_id", "is", null), eb("a.deleted_at", "is", null)]))
        .orderBy("s.project_id")
        .orderBy("s.id")
        .execute();
    },

    async saveEvaluations(updates: readonly SloEvaluationUpdate[], evaluatedAt: string): Promise<void> {
      for (const update of updates) {
        await db
          .updateTable("slos")
          .set({ state: update.state, state_since: update.stateSince, last_evaluated_at: evaluatedAt })
          .where("id", "=", update.id)
          .where("updated_at", "=", update.updatedAt)
          .execute();
      }
    },

    async channelIdsOf(ids: readonly string[]): Promise<Map<string, string[]>> {
      const byId = new Map<string, string[]>();
      if (ids.length === 0) return byId;
      const rows = await db
        .selectFrom("slo_channels as sc")
        .innerJoin("notification_channels as c", "c.id", "sc.channel_id")
        .select(["sc.slo_id", "sc.channel_id"])
        .where("sc.slo_id", "in", ids)
        .orderBy("c.created_at")
        .orderBy("c.id")
        .execute();
      for (const row of rows) byId.set(row.slo_id, [...(byId.get(row.slo_id) ?? []), row.channel_id]);
      return byId;
    },

    async setChannels(id: string, channelIds: readonly string[]): Promise<void> {
      await db.deleteFrom("slo_channels").where("slo_id", "=", id).execute();
      if (channelIds.length === 0) return;
      await db
        .insertInto("slo_channels")
        .values(channelIds.map((channelId) => ({ slo_id: id, channel_id: channelId })))
        .execute();
    },

    /** The channels of these SLOs, each with the SLO it serves. */
    async channelsFor(ids: readonly string[]) {
      if (ids.length === 0) return [];
      return db
        .selectFrom("slo_channels as sc")
        .innerJoin("notification_channels as c", "c.id", "sc.channel_id")
        .select(["c.id", "c.name", "c.type", "sc.slo_id"])
        .where("sc.slo_id", "in", ids)
        .orderBy("c.created_at")
        .orderBy("c.id")
        .execute();
    },

    async insertEvent(row: Insertable<SloEventsTable>): Promise<void> {
      await db.insertInto("slo_events").values(row).execute();
    },

    async eventsPage(
      sloId: string,
      { limit, offset }: { limit: number; offset: number },
    ): Promise<{ rows: SloEventRow[]; total: number }> {
      const [rows, total] = await Promise.all([
        db
          .selectFrom("slo_events")
          .selectAll()
          .where("slo_id", "=", sloId)
          .orderBy("id", "desc")
          .limit(limit)
          .offset(offset)
          .execute(),
        db
          .selectFrom("slo_events")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("slo_id", "=", sloId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    async deliveriesOf(eventIds: readonly string[]): Promise<SloDeliveryRow[]> {
      if (eventIds.length === 0) return [];
      return db
        .selectFrom("notification_deliveries")
        .selectAll()
        .where("slo_event_id", "in", eventIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
  };
}

export type SlosRepo = ReturnType<typeof createSlosRepo>;
