// A migration that adds api_requests' projections declared `since` its version: ADD PROJECTION,
// then MATERIALIZE PROJECTION over the stored parts (a background mutation; ADR 0027).
import { API_REQUESTS, projectionStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export function projectionMigration(name: string, version: number): EventsMigration {
  return {
    version,
    name,
    statements: ({ database, topology }) => projectionStatements(topology, API_REQUESTS, database, version),
  };
}
