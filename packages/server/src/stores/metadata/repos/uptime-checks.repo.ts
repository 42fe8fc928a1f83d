// Uptime checks in the metadata store: their definitions per project, the checks due to run,
// and each run's outcome (state, consecutive failures, next due time) written back.
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { MetadataTables, UptimeChecksTable } from "../schema.js";

export type UptimeCheckRow = Selectable<UptimeChecksTable>;

/** A due check with its project's slug and name (for notifications and links). */
export type DueUptimeCheckRow = UptimeCheckRow & { project_slug: string; project_name: string };

/** What one run changes on its check. */
export interface UptimeRunUpdate {
  readonly state: string;
  readonly state_since: string | null;
  readonly consecutive_failures: number;
  readonly last_checked_at: string;
  readonly last_error: string | null;
  readonly next_check_at: string;
}

export function createUptimeChecksRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<UptimeChecksTable>): Promise<void> {
      await db.insertInto("uptime_checks").values(row).execute();
    },

    async count(projectId: string): Promise<number> {
      const row = await db
        .selectFrom("uptime_checks")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async list(projectId: string): Promise<UptimeCheckRow[]> {
      return db
        .selectFrom("uptime_checks")
        .selectAll()
        .where("project_id", "=", projectId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    async find(projectId: string, id: string): Promise<UptimeCheckRow | undefined> {
      return db
        .selectFrom("uptime_checks")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    async update(projectId: string, id: string, patch: Updateable<UptimeChecksTable>): Promise<void> {
      await db
        .updateTable("uptime_checks")
        .set(patch)
        .where("project_id", "=", projectId)
        .where("id", "=", id)
        .execute();
    },

    async delete(projectId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("uptime_checks")
        .where("project_id", "=", projectId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Enabled checks due by `now`, longest overdue first, of projects not being deleted. */
    async listDue(now: string, limit: number): Promise<DueUptimeCheckRow[]> {
      return db
        .selectFrom("uptime_checks")
        .innerJoin("projects", "projects.id", "uptime_checks.project_id")
        .selectAll("uptime_checks")
        .select(["projects.slug as project_slug", "projects.name as project_name"])
        .where("uptime_checks.enabled", "=", 1)
        .where("uptime_checks.next_check_at", "<=", now)
        .where("projects.deleted_at", "is", null)
        .orderBy("uptime_checks.next_check_at")
        .orderBy("uptime_checks.id")
        .limit(limit)
        .execute();
    },

    /** Records a run, unless the check was changed meanwhile (`updatedAt` no longer matches). */
    async saveRun(id: string, updatedAt: string, run: UptimeRunUpdate): Promise<boolean> {
      const result = await db
        .updateTable("uptime_checks")
        .set({ ...run })
        .where("id", "=", id)
        .where("updated_at", "=", updatedAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
