// `sightline mcp`: serves a Sightline's MCP tools on standard input and output for local AI
// agents, forwarding every call to its POST /api/v1/mcp with the token of the connection (the
// same --url / SIGHTLINE_URL / SIGHTLINE_TOKEN / stored login as every client command).
import type { Command } from "commander";
import { resolveConnection } from "../connection.js";
import { CliError, EXIT } from "../exit-codes.js";
import type { CliContext, GlobalOptions } from "../program.js";

export function registerMcpCommand(program: Command, context: CliContext): void {
  program
    .command("mcp")
    .description("serve the Sightline's MCP tools on stdin/stdout, for local AI agents (see README)")
    .action(async (_flags: unknown, command: Command) => {
      const connection = await resolveConnection(command.optsWithGlobals<GlobalOptions>().url, context.env);
      const { runMcpStdio } = await import("../../modules/mcp/index.js");
      try {
        await runMcpStdio(connection);
      } catch (error) {
        throw failureOf(error, connection.url);
      }
    });
}

/** The exit code of a failed start: the server refused the token (2), or could not be used (4). */
function failureOf(error: unknown, url: string): CliError {
  const status = (error as { code?: unknown }).code;
  if (status === 401 || status === 403) {
    return new CliError(
      EXIT.auth,
      `${url} refused the token: run \`sightline login\` or set SIGHTLINE_TOKEN`,
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new CliError(EXIT.server, `cannot serve MCP from ${url}: ${reason}`);
}
