// The time-partitioned layouts of the events tables (events migration 9): one partition per week
// — and, for raw records, per retention — so expiry drops whole parts. Why weekly, and how
// per-project retention is enforced: docs/adr/0023-partitions-and-retention.md.

/** The events migration that rebuilds the raw tables into these layouts. */
export const LAYOUT_VERSION = 9;

/** Raw records (requests, logs, spans): a partition per week of arrival and retention. Both are
 *  one value per batch (ingest groups inserts by them), so an insert stays one part. */
export const RAW_LAYOUT = {
  since: LAYOUT_VERSION,
  partitionBy: "(toMonday(stored_on), retention_days)",
  retentionColumn: "retention_days",
} as const;

/** Tables kept by one server-wide retention (uptime results): a partition per week. */
export const WEEKLY_LAYOUT = {
  since: LAYOUT_VERSION,
  partitionBy: "toMonday(timestamp)",
} as const;

/** The partition a batch's rows go to: inserts only group batches with the same one. */
export function rawPartition(storedOn: string, retentionDays: number): string {
  return `${storedOn}/${retentionDays}`;
}
