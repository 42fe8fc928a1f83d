// Events migration 13: the consumer rollup's view takes each consumer's newest name and group as
// the newest time and the value at it, not as the greatest (time, value) tuple, which it compared
// row by row at every insert (../tables/rollups.table.ts, CONSUMERS_DAILY). The stored values
// and their type are unchanged: the table is left as it is, and only the view is recreated.
import {
  API_REQUESTS,
  CONSUMER_NAMES_VERSION,
  CONSUMERS_DAILY,
  createViewStatement,
  onCluster,
} from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const consumerNamesMigration: EventsMigration = {
  version: CONSUMER_NAMES_VERSION,
  name: "consumer_names",
  statements: ({ database, topology }) => [
    // A view's SELECT cannot be altered: dropped and created again (nothing ingests while
    // migrations run, so no insert passes between the two).
    `DROP VIEW IF EXISTS ${database}.${CONSUMERS_DAILY.view}${onCluster(topology)} SYNC`,
    createViewStatement(topology, CONSUMERS_DAILY, database, API_REQUESTS.name, CONSUMER_NAMES_VERSION),
  ],
};
