// Migration 0012: anomaly alert rules (ADR 0020) — a rule kind (existing rules are threshold
// rules), the anomaly settings, the band of the last evaluation, and the band on history rows.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // threshold | anomaly. Anomaly rules keep comparator 'gt' and threshold 0 in the columns 0008
  // made NOT NULL (SQLite cannot relax that without rebuilding the table); the API shows null.
  await db.schema
    .alterTable("alert_rules")
    .addColumn("kind", "text", (col) => col.notNull().defaultTo("threshold"))
    .execute();
  // low | medium | high, and both | up | down; null for threshold rules.
  await db.schema.alterTable("alert_rules").addColumn("sensitivity", "text").execute();
  await db.schema.alterTable("alert_rules").addColumn("direction", "text").execute();
  // JSON {status, expected, lower, upper, score, weeks_used} of the last evaluation.
  await db.schema.alterTable("alert_rules").addColumn("last_band", "text").execute();
  await db.schema.alterTable("alert_events").addColumn("expected", "double precision").execute();
  await db.schema.alterTable("alert_events").addColumn("lower", "double precision").execute();
  await db.schema.alterTable("alert_events").addColumn("upper", "double precision").execute();
}
