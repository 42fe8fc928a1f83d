// The API section's URL state: the app and environment in view, and the change log's filters.
import { optionalString, positiveInt } from "../../lib/search";

export interface ApiSearch {
  readonly app?: string | undefined;
  readonly environment?: string | undefined;
  /** The change log's class filter. */
  readonly breaking?: "breaking" | "non-breaking" | undefined;
  readonly page?: number | undefined;
}

export function validateApiSearch(search: Record<string, unknown>): ApiSearch {
  const breaking = search.breaking;
  return {
    app: optionalString(search.app, 100),
    environment: optionalString(search.environment, 100),
    breaking: breaking === "breaking" || breaking === "non-breaking" ? breaking : undefined,
    page: positiveInt(search.page),
  };
}
