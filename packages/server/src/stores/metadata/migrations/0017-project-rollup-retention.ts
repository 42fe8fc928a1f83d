// Migration 0017: a project's own rollup retention, in days (docs/adr/0023). Null follows the
// server's ROLLUPS_RETENTION_DAYS, which is also its maximum; existing projects start there.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("rollups_retention_days", "integer").execute();
}
