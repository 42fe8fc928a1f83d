// The audit log of each project: append-only rows, read newest first one page at a time with
// the actor's current account (an anonymised actor shows an empty e-mail).
import type { Insertable, Kysely, Selectable } from "kysely";
import type { AuditEventsTable, MetadataTables } from "../schema.js";

export type AuditEventRow = Selectable<AuditEventsTable>;

export interface AuditEventWithActorRow extends AuditEventRow {
  actor_email: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
}

export function createAuditEventsRepo(db: Kysely<MetadataTables>) {
  return {
    async insert(row: Insertable<AuditEventsTable>): Promise<void> {
      await db.insertInto("audit_events").values(row).execute();
    },

    /** One page of a project's events, newest first (ties: id), with the total. */
    async page(
      projectId: string,
      window: { limit: number; offset: number },
    ): Promise<{ rows: AuditEventWithActorRow[]; total: number }> {
      const rows = await db
        .selectFrom("audit_events as e")
        .leftJoin("users as u", "u.id", "e.actor_id")
        .selectAll("e")
        .select([
          "u.email as actor_email",
          "u.first_name as actor_first_name",
          "u.last_name as actor_last_name",
        ])
        .where("e.project_id", "=", projectId)
        .orderBy("e.created_at", "desc")
        .orderBy("e.id", "desc")
        .limit(window.limit)
        .offset(window.offset)
        .execute();
      const count = await db
        .selectFrom("audit_events")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirstOrThrow();
      return { rows, total: Number(count.n) };
    },
  };
}

export type AuditEventsRepo = ReturnType<typeof createAuditEventsRepo>;
