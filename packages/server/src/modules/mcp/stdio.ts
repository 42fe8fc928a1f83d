// `sightline mcp`: an MCP server on standard input and output for local agents, which forwards
// every request to a Sightline server's POST /api/v1/mcp with the SDK's client — one tool
// implementation (the server's) answers both transports, authorized by the caller's token there.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import { SERVER_VERSION } from "../../version.js";

export interface McpStdioOptions {
  /** The Sightline server: its base URL (`https://sightline.example.com`) or its `/api/v1` URL. */
  readonly url: string;
  /** A personal access token (`sl_pat_…`) or an access token. */
  readonly token: string;
  /** Standard input and output unless given (tests). */
  readonly input?: Readable;
  readonly output?: Writable;
}

/** The MCP endpoint of a server given by its base or API URL. */
export function mcpEndpoint(url: string): URL {
  const base = url.trim().replace(/\/+$/, "");
  return new URL(base.endsWith("/api/v1") ? `${base}/mcp` : `${base}/api/v1/mcp`);
}

/**
 * Connects to the remote server first (a bad URL or token fails here, before the agent is
 * served), then serves stdio until its input ends. Resolves when the session is over.
 */
export async function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const client = new Client({ name: "sightline-mcp-stdio", version: SERVER_VERSION });
  await client.connect(
    new StreamableHTTPClientTransport(mcpEndpoint(options.url), {
      requestInit: { headers: { authorization: `Bearer ${options.token}` } },
    }),
  );
  const remote = client.getServerVersion();
  const instructions = client.getInstructions();
  const server = new Server(
    { name: remote?.name ?? "sightline", version: remote?.version ?? SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      ...(instructions === undefined ? {} : { instructions }),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => client.listResources(request.params));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
    client.listResourceTemplates(request.params),
  );
  server.setRequestHandler(ReadResourceRequestSchema, (request) => client.readResource(request.params));
  server.setRequestHandler(ListPromptsRequestSchema, (request) => client.listPrompts(request.params));
  server.setRequestHandler(GetPromptRequestSchema, (request) => client.getPrompt(request.params));

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport(options.input, options.output));
  const input = options.input ?? process.stdin;
  input.once("end", () => void server.close());
  await closed;
  await client.close();
}
