// /mcp: the Model Context Protocol over streamable HTTP, for AI agents. Stateless — each POST
// carries JSON-RPC messages answered in its own response by a server built for the caller — so
// any instance can answer any call and nothing outlives a request; GET (a server-to-client
// stream) and DELETE (ending a session) therefore answer 405. Authenticated like every user
// route (personal access token or access token); each tool authorizes its own project.
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Type } from "typebox";
import { AppError } from "../../errors.js";
import { requireAuth } from "../../http/bearer-auth.js";
import { problemResponses } from "../../http/schemas.js";
import { SECURITY_HEADERS } from "../../http/security-headers.js";
import type { App } from "../../http/types.js";
import { access } from "../access/index.js";
import { createMcpServer } from "./mcp.server.js";
import type { McpServices } from "./services.js";

const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal("2.0"),
    id: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 200 }),
        Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
      ]),
    ),
    method: Type.Optional(Type.String({ maxLength: 200, examples: ["tools/call"] })),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

const McpBody = Type.Union([JsonRpcMessage, Type.Array(JsonRpcMessage, { minItems: 1, maxItems: 50 })], {
  description: "A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them).",
});

const DESCRIPTION =
  "The Model Context Protocol endpoint (streamable HTTP transport, stateless, JSON responses) for AI " +
  "agents: tools over the project's traffic, endpoints, consumers, requests, logs, traces, errors " +
  "and alerts; alert rules and this API's OpenAPI document as resources; investigation prompts. " +
  "Send `Accept: application/json, text/event-stream`. Every tool call authorizes the project it " +
  "names exactly as the REST routes do and is logged (tool, project, user, duration). See README, " +
  '"AI agents (MCP)".';

const ACCEPTS = ["application/json", "text/event-stream"];

export async function mcpRoutes(app: App, { services }: { services: McpServices }): Promise<void> {
  app.post(
    "/mcp",
    {
      config: { access: access.userReads },
      schema: {
        operationId: "mcp",
        tags: ["mcp"],
        summary: "Model Context Protocol (streamable HTTP)",
        description: DESCRIPTION,
        body: McpBody,
        response: {
          200: Type.Unsafe({ type: "object", description: "The JSON-RPC response(s)." }),
          202: Type.Unsafe({ description: "Accepted: the body held only notifications or responses." }),
          ...problemResponses(400, 422),
        },
      },
    },
    async (request, reply) => {
      const caller = requireAuth(request);
      const accept = (request.headers.accept ?? "").toLowerCase();
      if (!ACCEPTS.every((type) => accept.includes(type))) {
        throw new AppError(
          "bad_request",
          `Send Accept: ${ACCEPTS.join(", ")} (the MCP streamable HTTP transport).`,
        );
      }
      const server = createMcpServer(services, { userId: caller.userId, grant: caller.token ?? null });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      // The transport writes the response itself; headers set so far (request id, security) go with it.
      // onSend hooks do not run for a hijacked reply: its security headers are set here.
      for (const [name, value] of Object.entries({ ...reply.getHeaders(), ...SECURITY_HEADERS }))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      reply.raw.on("close", () => {
        void transport.close();
        void server.close();
      });
      try {
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        request.log.error({ err: error }, "the MCP transport failed");
        if (!reply.raw.headersSent) {
          reply.raw.statusCode = 500;
          reply.raw.setHeader("content-type", "application/problem+json");
          reply.raw.end(
            JSON.stringify({
              type: "urn:sightline:error:internal_error",
              title: "Internal server error",
              status: 500,
              request_id: request.id,
            }),
          );
        }
      }
    },
  );

  const notAllowed = {
    config: { access: access.userReads },
    schema: {
      tags: ["mcp"],
      description:
        "Not offered: the MCP endpoint is stateless, so there is no server-to-client stream to open " +
        "(GET) and no session to end (DELETE). Answers 405 with `Allow: POST`.",
      response: problemResponses(405),
    },
  };
  const refuse = async () => {
    throw new AppError(
      "method_not_allowed",
      "The MCP endpoint is stateless: send JSON-RPC messages with POST.",
      {
        headers: { allow: "POST" },
      },
    );
  };
  app.get(
    "/mcp",
    {
      ...notAllowed,
      schema: { ...notAllowed.schema, operationId: "mcpStream", summary: "MCP stream (not offered)" },
    },
    refuse,
  );
  app.delete(
    "/mcp",
    {
      ...notAllowed,
      schema: {
        ...notAllowed.schema,
        operationId: "mcpEndSession",
        summary: "End an MCP session (not offered)",
      },
    },
    refuse,
  );
}
