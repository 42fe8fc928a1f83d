// Argument schemas shared by the MCP tools, worded for an agent: what each value is, its form,
// and what its absence means.
import { Type } from "typebox";

export const ProjectArg = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "The project's slug, as list_projects returns it.",
});
export const AppSlugsArg = Type.String({
  maxLength: 4096,
  description: "Comma-separated app slugs to narrow to; default every app of the project.",
});
export const EnvironmentArg = Type.String({
  maxLength: 256,
  description: "One environment (e.g. production); default every environment.",
});
export const ConsumerArg = Type.String({
  maxLength: 256,
  description: "One consumer's consumer_id, exactly as the consumer tools return it.",
});
const instant = (what: string) =>
  Type.String({
    maxLength: 64,
    description: `${what}: ISO 8601 date-time (no offset means UTC), inclusive.`,
  });
export const windowArgs = {
  since: Type.Optional(instant("Window start; default 24 hours before `until`")),
  until: Type.Optional(instant("Window end; default now")),
};
export const baselineArgs = {
  baseline_since: Type.Optional(
    instant("Baseline start; default: the window of the same length right before `since`"),
  ),
  baseline_until: Type.Optional(instant("Baseline end; default 1 ms before `since`")),
};
/** Record searches are unbounded in time unless asked, as the data routes are. */
export const recordWindowArgs = {
  since: Type.Optional(instant("Earliest record; default no bound")),
  until: Type.Optional(instant("Latest record; default no bound")),
};
export const CursorArg = Type.String({
  maxLength: 64,
  description: "The `next_cursor` of the previous answer, to read the next page.",
});
export const limitArg = (fallback: number, max: number, what: string) =>
  Type.Integer({
    minimum: 1,
    maximum: max,
    description: `How many ${what} (default ${fallback}, at most ${max}).`,
  });
