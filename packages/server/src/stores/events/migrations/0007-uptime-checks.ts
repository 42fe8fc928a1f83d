// Events migration 7: uptime_results as declared in ../tables/uptime-results.table.ts.
import { createTableStatements, UPTIME_RESULTS } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const uptimeChecksMigration: EventsMigration = {
  version: 7,
  name: "uptime_checks",
  statements: ({ database, topology }) => createTableStatements(topology, UPTIME_RESULTS, database, 7),
};
