// Migration 0001: fixed-window counters shared by every server instance (rate limits live in
// the metadata store so that several processes enforce one limit, and restarts do not reset it).
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("rate_limit_counters")
    .addColumn("bucket", "text", (col) => col.notNull())
    .addColumn("window_start", "text", (col) => col.notNull())
    .addColumn("hits", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("rate_limit_counters_pk", ["bucket", "window_start"])
    .execute();
  await db.schema
    .createIndex("rate_limit_counters_expires_at")
    .on("rate_limit_counters")
    .column("expires_at")
    .execute();
}
