// Migration 0013: the newest heartbeat of each running instance of an app (SDK version, runtime,
// process CPU and memory), so the apps list can tell which apps are alive. Bounded per app.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("app_heartbeats")
    .addColumn("app_id", "text", (col) => col.notNull().references("apps.id").onDelete("cascade"))
    // Random per process start, chosen by the SDK.
    .addColumn("instance_id", "text", (col) => col.notNull())
    .addColumn("environment", "text", (col) => col.notNull())
    .addColumn("sdk", "text", (col) => col.notNull())
    .addColumn("sdk_version", "text", (col) => col.notNull())
    .addColumn("runtime", "text", (col) => col.notNull())
    .addColumn("uptime_s", "double precision")
    .addColumn("cpu_percent", "double precision")
    // Double rather than bigint: node-postgres returns bigint as text; bytes fit a double exactly.
    .addColumn("memory_rss_bytes", "double precision")
    .addColumn("memory_heap_used_bytes", "double precision")
    .addColumn("interval_s", "integer")
    .addColumn("received_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("app_heartbeats_pk", ["app_id", "instance_id"])
    .execute();
  await db.schema
    .createIndex("app_heartbeats_app_received")
    .on("app_heartbeats")
    .columns(["app_id", "received_at"])
    .execute();
}
