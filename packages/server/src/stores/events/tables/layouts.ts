// The time-partitioned layouts of the events tables (events migration 9): one partition per UTC
// day — and, for raw records, per retention — so expiry drops whole parts. Why daily, and how
// per-project retention is enforced: docs/adr/0023-partitions-and-retention.md.

/** The events migration that rebuilds the raw tables into these layouts. */
export const LAYOUT_VERSION = 9;

/** Raw records (requests, logs, spans): a partition per day and retention. */
export const RAW_LAYOUT = {
  since: LAYOUT_VERSION,
  partitionBy: "(toYYYYMMDD(timestamp), retention_days)",
  retentionColumn: "retention_days",
} as const;

/** Tables kept by one server-wide retention (uptime results): a partition per day. */
export const DAILY_LAYOUT = {
  since: LAYOUT_VERSION,
  partitionBy: "toYYYYMMDD(timestamp)",
} as const;
