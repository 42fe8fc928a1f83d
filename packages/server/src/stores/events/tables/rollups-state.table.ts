// rollup_backfill(_lists): the days of a pre-rollup snapshot already rolled up, one row per day
// (the backfill's progress, which makes it resumable and tells readers how far rollups are
// complete). One snapshot and one progress table per migration that added rollups.
import { defineEventsTable } from "./table.js";

/** The copy of api_requests taken when the rollups were created; dropped once rolled up. */
export const BACKFILL_SNAPSHOT = "api_requests_backfill";
/** The same for the list rollups (events migration 10). */
export const LISTS_BACKFILL_SNAPSHOT = "api_requests_backfill_lists";

/** The same for the rollup tiers (events migration 12). */
export const TIERS_BACKFILL_SNAPSHOT = "api_requests_backfill_tiers";

/** The same for the endpoint status rollup (events migration 14). */
export const STATUSES_BACKFILL_SNAPSHOT = "api_requests_backfill_statuses";

/** The same for the latency histogram rollup (events migration 16). */
export const LATENCY_BACKFILL_SNAPSHOT = "api_requests_backfill_latency";

const stateTable = (name: string, since: number) =>
  defineEventsTable({
    name,
    engine: "ReplacingMergeTree",
    columns: [
      /** A UTC day of the snapshot whose rows are in every rollup. */
      { name: "day", type: "Date", since },
      { name: "rows", type: "UInt64", since },
      { name: "done_at", type: "DateTime64(3, 'UTC')", since },
    ],
    indexes: [],
    orderBy: ["day"],
    defaultRetentionDays: 400,
    ttlColumn: "day",
  });

export const LISTS_ROLLUP_STATE = stateTable("rollup_backfill_lists", 10);
export const TIERS_ROLLUP_STATE = stateTable("rollup_backfill_tiers", 12);
export const STATUSES_ROLLUP_STATE = stateTable("rollup_backfill_statuses", 14);
export const LATENCY_ROLLUP_STATE = stateTable("rollup_backfill_latency", 16);

export const ROLLUP_STATE = defineEventsTable({
  name: "rollup_backfill",
  engine: "ReplacingMergeTree",
  columns: [
    /** A UTC day of the snapshot whose rows are in every rollup. */
    { name: "day", type: "Date", since: 6 },
    { name: "rows", type: "UInt64", since: 6 },
    { name: "done_at", type: "DateTime64(3, 'UTC')", since: 6 },
  ],
  indexes: [],
  orderBy: ["day"],
  defaultRetentionDays: 400,
  ttlColumn: "day",
});
