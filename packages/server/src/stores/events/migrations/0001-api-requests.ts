// Events migration 1: api_requests as declared in ../tables/api-requests.table.ts (the columns
// that existed at version 1; later columns are added by their own migrations).
import { API_REQUESTS, createTableStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const apiRequestsMigration: EventsMigration = {
  version: 1,
  name: "api_requests",
  statements: ({ database, topology }) => createTableStatements(topology, API_REQUESTS, database, 1),
};
