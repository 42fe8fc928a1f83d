// Kysely table types of the metadata store. Timestamps are ISO 8601 UTC text with
// milliseconds in both dialects (see docs/adr/0002-metadata-timestamps.md); ids are UUID text.
import type { Generated } from "kysely";

export interface RateLimitCountersTable {
  /** What is limited and for whom, e.g. `magic-link:email:a@b.c`. */
  bucket: string;
  /** Start of the fixed window, ISO text. */
  window_start: string;
  hits: Generated<number>;
  /** When this row may be deleted, ISO text. */
  expires_at: string;
}

export interface MetadataTables {
  rate_limit_counters: RateLimitCountersTable;
}
