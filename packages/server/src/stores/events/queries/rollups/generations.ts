// The rollup generations: each events migration that added rollups took its own snapshot of the
// rows stored before its views existed and tracks its own backfill, so the rollups of a later
// migration are complete (and read) independently of the earlier ones.
import {
  BACKFILL_SNAPSHOT,
  type EventsTable,
  HOURLY_ROLLUPS,
  LATENCY_BACKFILL_SNAPSHOT,
  LATENCY_CLASSES_VERSION,
  LATENCY_ROLLUP_STATE,
  LATENCY_ROLLUPS,
  LIST_ROLLUPS,
  LISTS_BACKFILL_SNAPSHOT,
  LISTS_ROLLUP_STATE,
  type Rollup,
  ROLLUP_STATE,
  STATUS_ROLLUPS,
  STATUSES_BACKFILL_SNAPSHOT,
  STATUSES_ROLLUP_STATE,
  STATUSES_VERSION,
  TIER_ROLLUPS,
  TIERS_BACKFILL_SNAPSHOT,
  TIERS_ROLLUP_STATE,
  TIERS_VERSION,
} from "../../tables/index.js";

export interface RollupGeneration {
  /** The events migration that created the rollups, the views and the snapshot. */
  readonly version: number;
  readonly rollups: readonly Rollup[];
  /** The snapshot of api_requests the backfill rolls up, dropped at its end. */
  readonly snapshot: string;
  /** The days of the snapshot already rolled up. */
  readonly state: EventsTable;
}

/** Events migration 12's: the rollup tiers. */
export const TIERS_GENERATION: RollupGeneration = {
  version: TIERS_VERSION,
  rollups: TIER_ROLLUPS,
  snapshot: TIERS_BACKFILL_SNAPSHOT,
  state: TIERS_ROLLUP_STATE,
};

/** Events migration 14's: an endpoint's status codes. */
export const STATUSES_GENERATION: RollupGeneration = {
  version: STATUSES_VERSION,
  rollups: STATUS_ROLLUPS,
  snapshot: STATUSES_BACKFILL_SNAPSHOT,
  state: STATUSES_ROLLUP_STATE,
};

/** Events migration 16's: the requests page's latency histogram. */
export const LATENCY_GENERATION: RollupGeneration = {
  version: LATENCY_CLASSES_VERSION,
  rollups: LATENCY_ROLLUPS,
  snapshot: LATENCY_BACKFILL_SNAPSHOT,
  state: LATENCY_ROLLUP_STATE,
};

export const ROLLUP_GENERATIONS: readonly RollupGeneration[] = [
  { version: 6, rollups: HOURLY_ROLLUPS, snapshot: BACKFILL_SNAPSHOT, state: ROLLUP_STATE },
  { version: 10, rollups: LIST_ROLLUPS, snapshot: LISTS_BACKFILL_SNAPSHOT, state: LISTS_ROLLUP_STATE },
  TIERS_GENERATION,
  STATUSES_GENERATION,
  LATENCY_GENERATION,
];

export const FIRST_GENERATION = ROLLUP_GENERATIONS[0] as RollupGeneration;

/** The generation a rollup belongs to. */
export function generationOf(rollup: Rollup): RollupGeneration {
  const found = ROLLUP_GENERATIONS.find((generation) => generation.rollups.includes(rollup));
  if (found === undefined) throw new Error(`${rollup.table.name} belongs to no rollup generation`);
  return found;
}
