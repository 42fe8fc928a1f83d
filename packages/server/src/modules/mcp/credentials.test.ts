import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialsPath, readCredentials } from "./credentials.js";
import { mcpEndpoint } from "./stdio.js";

describe("the credentials of sightline mcp", () => {
  let home: string;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "sightline-credentials-"));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("reads the login's file under XDG_CONFIG_HOME, each variable overriding its value", async () => {
    const env = { XDG_CONFIG_HOME: home };
    expect(credentialsPath(env)).toBe(join(home, "sightline", "credentials.json"));
    expect(readCredentials(env)).toMatch(/no server URL and token: set SIGHTLINE_URL/);
    await mkdir(join(home, "sightline"), { recursive: true });
    await writeFile(credentialsPath(env), JSON.stringify({ url: "https://s.example", token: "sl_pat_file" }));
    expect(readCredentials(env)).toEqual({ url: "https://s.example", token: "sl_pat_file" });
    expect(readCredentials({ ...env, SIGHTLINE_TOKEN: "sl_pat_env" })).toEqual({
      url: "https://s.example",
      token: "sl_pat_env",
    });
    expect(readCredentials({ ...env, SIGHTLINE_URL: "http://127.0.0.1:9" })).toEqual({
      url: "http://127.0.0.1:9",
      token: "sl_pat_file",
    });
  });

  it("finds the MCP endpoint from a base URL or an API URL", () => {
    expect(mcpEndpoint("https://s.example/").href).toBe("https://s.example/api/v1/mcp");
    expect(mcpEndpoint("https://s.example/api/v1").href).toBe("https://s.example/api/v1/mcp");
  });
});
