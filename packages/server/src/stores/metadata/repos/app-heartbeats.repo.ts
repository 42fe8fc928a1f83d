// Heartbeats of running app instances (migration 0013): one row per (app, instance) holding its
// newest beat, replaced on every beat; at most HEARTBEAT_LIMITS.instancesPerApp rows per app.
import { HEARTBEAT_LIMITS } from "@sightline/contracts";
import type { Kysely, Selectable } from "kysely";
import type { AppHeartbeatsTable, MetadataTables } from "../schema.js";

export type AppHeartbeatRow = Selectable<AppHeartbeatsTable>;

/** The newest heartbeat of one environment of one app. */
export interface NewestBeat {
  readonly appId: string;
  readonly appSlug: string;
  readonly environment: string;
  /** ISO text, as stored. */
  readonly receivedAt: string;
}

export function createAppHeartbeatsRepo(db: Kysely<MetadataTables>) {
  return {
    /** Stores the instance's newest beat, then forgets the app's oldest instances beyond the cap. */
    async put(row: AppHeartbeatRow): Promise<void> {
      const { app_id: _app, instance_id: _instance, ...rest } = row;
      await db
        .insertInto("app_heartbeats")
        .values(row)
        .onConflict((conflict) => conflict.columns(["app_id", "instance_id"]).doUpdateSet(rest))
        .execute();
      const cutoff = await db
        .selectFrom("app_heartbeats")
        .select("received_at")
        .where("app_id", "=", row.app_id)
        .orderBy("received_at", "desc")
        .orderBy("instance_id", "desc")
        .limit(1)
        .offset(HEARTBEAT_LIMITS.instancesPerApp - 1)
        .executeTakeFirst();
      if (cutoff === undefined) return;
      await db
        .deleteFrom("app_heartbeats")
        .where("app_id", "=", row.app_id)
        .where("received_at", "<", cutoff.received_at)
        .execute();
    },

    /** The newest beat of each app that has one (ISO text), by app id. */
    async latestByApp(appIds: readonly string[]): Promise<Map<string, string>> {
      if (appIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("app_heartbeats")
        .select(["app_id", (eb) => eb.fn.max("received_at").as("last")])
        .where("app_id", "in", appIds)
        .groupBy("app_id")
        .execute();
      return new Map(rows.map((row) => [row.app_id, String(row.last)]));
    },

    /**
     * The newest beat of each (app, environment) of the project's live apps, for silence rules:
     * one grouped read per project and evaluation pass.
     */
    async newestByEnvironment(projectId: string): Promise<NewestBeat[]> {
      const rows = await db
        .selectFrom("app_heartbeats as h")
        .innerJoin("apps as a", "a.id", "h.app_id")
        .select([
          "h.app_id",
          "a.slug as app_slug",
          "h.environment",
          (eb) => eb.fn.max("h.received_at").as("last"),
        ])
        .where("a.project_id", "=", projectId)
        .where("a.deleted_at", "is", null)
        .groupBy(["h.app_id", "a.slug", "h.environment"])
        .execute();
      return rows.map((row) => ({
        appId: row.app_id,
        appSlug: row.app_slug,
        environment: row.environment,
        receivedAt: String(row.last),
      }));
    },

    /** The app's instances, newest beat first. */
    async listForApp(appId: string): Promise<AppHeartbeatRow[]> {
      return db
        .selectFrom("app_heartbeats")
        .selectAll()
        .where("app_id", "=", appId)
        .orderBy("received_at", "desc")
        .orderBy("instance_id", "asc")
        .execute();
    },
  };
}

export type AppHeartbeatsRepo = ReturnType<typeof createAppHeartbeatsRepo>;
