import { describe, expect, it } from "vitest";
import { mcpEndpoint } from "./stdio.js";

describe("the stdio bridge", () => {
  it("finds the MCP endpoint from a base URL or an API URL", () => {
    expect(mcpEndpoint("https://s.example/").href).toBe("https://s.example/api/v1/mcp");
    expect(mcpEndpoint("https://s.example/api/v1").href).toBe("https://s.example/api/v1/mcp");
    expect(mcpEndpoint("https://s.example/sightline").href).toBe("https://s.example/sightline/api/v1/mcp");
  });
});
