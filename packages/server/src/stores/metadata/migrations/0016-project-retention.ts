// Migration 0016: a project's own retention per kind of raw record, in days (docs/adr/0023).
// Null follows the server's variable (REQUESTS/LOGS/SPANS_RETENTION_DAYS), which is also each
// value's maximum; existing projects start there.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ["requests_retention_days", "logs_retention_days", "spans_retention_days"]) {
    await db.schema.alterTable("projects").addColumn(column, "integer").execute();
  }
}
