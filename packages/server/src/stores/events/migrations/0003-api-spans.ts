// Events migration 3: api_spans as declared in ../tables/api-spans.table.ts.
import { API_SPANS, createTableStatement } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const apiSpansMigration: EventsMigration = {
  version: 3,
  name: "api_spans",
  statements: ({ database }) => [createTableStatement(API_SPANS, database, 3)],
};
