// Migration 0004: remembered Idempotency-Key answers of ingest, so a retried batch is answered
// again instead of stored twice, across restarts and instances (24-hour window).
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ingest_idempotency_keys")
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    // Which route the key was used on: `requests` or `logs`.
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    // SHA-256 of the decompressed body: the same key with another body is a client error.
    .addColumn("body_hash", "text", (col) => col.notNull())
    // `pending` while the batch is being stored, `done` once its answer is final.
    .addColumn("state", "text", (col) => col.notNull())
    // The server instance working on a pending batch.
    .addColumn("owner", "text", (col) => col.notNull())
    // JSON of the answer: {status, accepted, rejected, errors}.
    .addColumn("answer", "text", (col) => col.notNull())
    // JSON {id, timestamp_ms} of the batch's first row, or null when it stores no row.
    .addColumn("probe", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("expires_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("ingest_idempotency_keys_pk", ["project_id", "kind", "idempotency_key"])
    .execute();
  await db.schema
    .createIndex("ingest_idempotency_keys_expires_at")
    .on("ingest_idempotency_keys")
    .column("expires_at")
    .execute();
}
