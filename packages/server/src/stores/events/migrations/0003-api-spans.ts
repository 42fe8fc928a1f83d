// Events migration 3: api_spans as declared in ../tables/api-spans.table.ts.
import { API_SPANS, createTableStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const apiSpansMigration: EventsMigration = {
  version: 3,
  name: "api_spans",
  statements: ({ database, topology }) => createTableStatements(topology, API_SPANS, database, 3),
};
