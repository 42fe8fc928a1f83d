// The days a project keeps each kind of raw record and its rollups: its own setting, bounded by the
// server's variable (which also stands for an unset value). Pure; used by ingest, the records
// lists, analytics and the retention settings alike (docs/adr/0023-partitions-and-retention.md).
import type { RetentionKind } from "@sightline/contracts";

/** The server's days per kind: REQUESTS/LOGS/SPANS_RETENTION_DAYS and ROLLUPS_RETENTION_DAYS. */
export interface RetentionMaxima {
  readonly requestsDays: number;
  readonly logsDays: number;
  readonly spansDays: number;
  readonly rollupsDays: number;
}

/** A project's stored setting per kind; null follows the server's days. */
export type StoredRetention = Readonly<Partial<Record<RetentionKind, number | null>>>;

/** The days kept: the stored value, never more than the server's maximum. */
export function keptDays(stored: number | null | undefined, maximum: number): number {
  return stored === null || stored === undefined ? maximum : Math.min(stored, maximum);
}

export function maximumOf(maxima: RetentionMaxima, kind: RetentionKind): number {
  switch (kind) {
    case "requests":
      return maxima.requestsDays;
    case "logs":
      return maxima.logsDays;
    case "spans":
      return maxima.spansDays;
    case "rollups":
      return maxima.rollupsDays;
  }
}

/** A project row's stored settings, by kind. */
export function storedRetentionOf(row: {
  readonly requests_retention_days: number | null;
  readonly logs_retention_days: number | null;
  readonly spans_retention_days: number | null;
  readonly rollups_retention_days: number | null;
}): StoredRetention {
  return {
    requests: row.requests_retention_days,
    logs: row.logs_retention_days,
    spans: row.spans_retention_days,
    rollups: row.rollups_retention_days,
  };
}
