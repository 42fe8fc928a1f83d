// The MCP server one caller talks to: built per caller (the HTTP route builds one per request,
// stateless), it lists the tools, resources and prompts, and runs each tool call as the REST
// routes run a request — arguments checked against the tool's schema, the project it names
// authorized for the tool's permission through the access model, and one log line (tool,
// project, user, token, duration, outcome; never arguments beyond the project, never results).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../../errors.js";
import { compileArgumentsValidator } from "../../http/validation.js";
import { SERVER_VERSION } from "../../version.js";
import type { Principal } from "../access/index.js";
import { getPrompt, PROMPTS } from "./prompts.js";
import { listResources, readResource, RESOURCE_TEMPLATES } from "./resources.js";
import type { McpServices } from "./services.js";
import type { McpTool } from "./tool.js";
import { TOOLS } from "./tools/index.js";

export const MCP_SERVER_NAME = "sightline";

const INSTRUCTIONS =
  "Sightline observes HTTP APIs: request records grouped by endpoint (app + METHOD /route " +
  "template) and consumer (consumer_id), logs, traces and alerts. Start with list_projects; " +
  "for an incident, what_changed and traffic_summary compare a window with the one before it, " +
  "then endpoint_detail, consumer_usage, list_error_groups and search_requests narrow it down. " +
  "Times are ISO 8601 UTC; every answer echoes the window it used.";

const compiled = new Map(
  TOOLS.map((tool) => [tool.name, { tool, validate: compileArgumentsValidator(tool.input) }]),
);

/** What the agent sees of a failed call: the API's problem code and detail, never internals. */
function failure(error: unknown): CallToolResult {
  const body =
    error instanceof AppError
      ? {
          error: error.code,
          status: error.status,
          detail: error.detail,
          ...(error.options.errors === undefined ? {} : { errors: error.options.errors }),
        }
      : { error: "internal_error", status: 500, detail: "The tool failed; the server logged why." };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

async function runTool(
  services: McpServices,
  principal: Principal,
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<unknown> {
  if (tool.target === "user") return tool.run({ principal, args, services });
  const scope = await services.access.resolveProject(principal, args.project as string, tool.permission);
  return tool.run({ scope, args, services });
}

/** Runs one tool call and logs it; errors become an `isError` result, as MCP tools report them. */
export async function callTool(
  services: McpServices,
  principal: Principal,
  name: string,
  rawArgs: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const started = performance.now();
  const entry = compiled.get(name);
  const args = structuredClone(rawArgs ?? {});
  const project = typeof args.project === "string" ? args.project.slice(0, 200) : null;
  const log = (outcome: string, extra: Record<string, unknown> = {}) =>
    services.logger.info(
      {
        mcp_tool: entry === undefined ? "unknown" : name,
        project,
        user_id: principal.userId,
        token_prefix: principal.grant?.prefix ?? null,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        outcome,
        ...extra,
      },
      "mcp tool call",
    );
  try {
    if (entry === undefined) throw new AppError("not_found", `No tool named "${name.slice(0, 100)}".`);
    const problems = entry.validate(args);
    if (problems.length > 0) {
      const shown = problems.slice(0, 3).map((problem) => `${problem.pointer} ${problem.message}`);
      throw new AppError("validation_error", `Invalid arguments: ${shown.join("; ")}.`, { errors: problems });
    }
    const result = await runTool(services, principal, entry.tool, args);
    log("ok");
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  } catch (error) {
    if (error instanceof AppError) log("error", { error_code: error.code });
    else {
      log("error", { error_code: "internal_error" });
      services.logger.error({ err: error, mcp_tool: name }, "mcp tool failed");
    }
    return failure(error);
  }
}

/** The tool list as MCP shows it: each tool's JSON Schema is its TypeBox input schema. */
export function toolList() {
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.input as unknown as { type: "object"; properties?: Record<string, object> },
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false },
  }));
}

/** A low-level SDK server for one caller; connect it to a transport. */
export function createMcpServer(services: McpServices, principal: Principal): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(services, principal, request.params.name, request.params.arguments),
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await listResources(services, principal),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) =>
    readResource(services, principal, request.params.uri),
  );
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    getPrompt(request.params.name, request.params.arguments ?? {}),
  );
  return server;
}
