// Events migration 5: a request's scheme (http/https, for "Copy as cURL") and the validation
// errors of a refused request (field path, rule, message; never the value).
import { API_REQUESTS, addColumnsStatements } from "../tables/index.js";
import type { EventsMigration } from "./runner.js";

export const requestValidationErrorsMigration: EventsMigration = {
  version: 5,
  name: "request_validation_errors",
  statements: ({ database, topology }) => [...addColumnsStatements(topology, API_REQUESTS, database, 5)],
};
