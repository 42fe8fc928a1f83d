// Events migration 2: api_logs as declared in ../tables/api-logs.table.ts (the columns that
// existed at version 2; later columns are added by their own migrations).
import { API_LOGS, createTableStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const apiLogsMigration: EventsMigration = {
  version: 2,
  name: "api_logs",
  statements: ({ database, topology }) => createTableStatements(topology, API_LOGS, database, 2),
};
