// Events migration 8: the error-grouping fingerprint of a log record (type, normalised message,
// top in-app frames), written at ingest so grouping reads one short column, not every stack.
import { API_LOGS, addColumnsStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const logFingerprintsMigration: EventsMigration = {
  version: 8,
  name: "log_fingerprints",
  statements: ({ database, topology }) => [...addColumnsStatements(topology, API_LOGS, database, 8)],
};
