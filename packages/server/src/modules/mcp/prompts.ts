// MCP prompts: ready-made investigations an agent (or its user) can start from, written in the
// tools' terms so the agent knows which calls answer each step.
import { ErrorCode, type GetPromptResult, McpError } from "@modelcontextprotocol/sdk/types.js";

export const PROMPTS = [
  {
    name: "investigate_incident",
    title: "Investigate an incident on an endpoint",
    description: "Find out what went wrong on one endpoint since a given time, and for whom.",
    arguments: [
      { name: "project", description: "The project's slug.", required: true },
      { name: "endpoint", description: 'The endpoint, "METHOD /route/{template}".', required: true },
      { name: "since", description: "When the incident started (ISO 8601, UTC).", required: true },
      { name: "app", description: "The app's slug, if known.", required: false },
    ],
  },
  {
    name: "consumer_report",
    title: "Report on one consumer",
    description: "How one API consumer's usage and errors changed over a window.",
    arguments: [
      { name: "project", description: "The project's slug.", required: true },
      { name: "consumer", description: "The consumer_id.", required: true },
      {
        name: "since",
        description: "Window start (ISO 8601, UTC); default the last 24 hours.",
        required: false,
      },
    ],
  },
];

function text(value: string): GetPromptResult["messages"][number] {
  return { role: "user", content: { type: "text", text: value } };
}

export function getPrompt(name: string, args: Record<string, string>): GetPromptResult {
  const need = (key: string) => {
    const value = args[key]?.trim();
    if (value === undefined || value === "")
      throw new McpError(ErrorCode.InvalidParams, `Prompt ${name} needs the argument "${key}".`);
    return value;
  };
  switch (name) {
    case "investigate_incident": {
      const [project, endpoint, since] = [need("project"), need("endpoint"), need("since")];
      const app = args.app?.trim();
      return {
        description: `Investigate ${endpoint} in ${project} since ${since}`,
        messages: [
          text(
            `Investigate an incident on ${endpoint}${app ? ` (app ${app})` : ""} in Sightline project ` +
              `"${project}", starting ${since}. Use the Sightline tools:\n` +
              `1. what_changed with since=${since}: did errors, latency or traffic move, on which endpoints, ` +
              "for which consumers, with which status codes?\n" +
              `2. endpoint_detail for ${endpoint}${app ? ` with app=${app}` : " (list_projects gives the app)"} ` +
              `and since=${since}: its figures against the window before, status codes, top consumers.\n` +
              "3. list_error_groups narrowed to the endpoint (q) to find when each failure was first seen; " +
              "consumer_usage for the consumers most affected.\n" +
              "4. search_requests (status_classes=5xx, the route) for examples, get_request and get_trace " +
              "on one of them, search_logs with its trace_id.\n" +
              "Report: what changed, since when (to the minute), who is affected, and the evidence (request " +
              "ids, trace ids).",
          ),
        ],
      };
    }
    case "consumer_report": {
      const [project, consumer] = [need("project"), need("consumer")];
      const since = args.since?.trim();
      const window = since ? `since=${since}` : "the default window (last 24 hours)";
      return {
        description: `Report on consumer ${consumer} in ${project}`,
        messages: [
          text(
            `Report on API consumer "${consumer}" in Sightline project "${project}" over ${window}. ` +
              "Call consumer_usage (traffic against the previous window, endpoints, error groups), then " +
              "search_requests with consumer and status_classes=4xx,5xx for examples. Say how its volume, " +
              "error rate and latency changed, which endpoints it depends on, and what fails for it.",
          ),
        ],
      };
    }
    default:
      throw new McpError(ErrorCode.InvalidParams, `No prompt named "${name.slice(0, 100)}".`);
  }
}
