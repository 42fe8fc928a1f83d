// Public surface of the MCP module: the HTTP route, the per-caller server (for tests and the
// stdio bridge), the services it answers from, and the stdio command.
export { callTool, createMcpServer, MCP_SERVER_NAME, toolList } from "./mcp.server.js";
export { mcpRoutes } from "./mcp.routes.js";
export type { McpServices } from "./services.js";
export { TOOLS } from "./tools/index.js";
export { mcpEndpoint, type McpStdioOptions, runMcpStdio } from "./stdio.js";
