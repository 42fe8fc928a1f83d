// Events migration 4: what the original APILens clients send beyond Sightline's first shape:
// a request's base URL and query string, a log's consumer name and group.
import { API_LOGS, API_REQUESTS, addColumnsStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const clientFieldsMigration: EventsMigration = {
  version: 4,
  name: "client_fields",
  statements: ({ database, topology }) => [
    ...addColumnsStatements(topology, API_REQUESTS, database, 4),
    ...addColumnsStatements(topology, API_LOGS, database, 4),
  ],
};
