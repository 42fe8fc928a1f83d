// What a client command starts from: the connection (URL and token), the typed API, the output
// chosen from the global options, and the project it works on.
import type { Command } from "commander";
import { sightlineApi, type SightlineApi } from "./api.js";
import { type Connection, resolveConnection } from "./connection.js";
import { usageError } from "./exit-codes.js";
import { HttpClient } from "./http-client.js";
import { Output } from "./output.js";
import type { CliContext, GlobalOptions } from "./program.js";

export interface ClientRun {
  readonly connection: Connection;
  readonly api: SightlineApi;
  readonly output: Output;
}

export function outputFor(command: Command, context: CliContext): Output {
  const globals = command.optsWithGlobals<GlobalOptions>();
  return new Output(context.streams, {
    json: globals.json === true,
    color: globals.color,
    noColorEnv: context.env.noColor,
  });
}

export async function openClient(command: Command, context: CliContext): Promise<ClientRun> {
  const output = outputFor(command, context);
  const connection = await resolveConnection(command.optsWithGlobals<GlobalOptions>().url, context.env);
  return { connection, output, api: sightlineApi(new HttpClient(connection.url, connection.token)) };
}

/** --project, else SIGHTLINE_PROJECT, else the caller's only project. */
export async function projectSlugOf(
  run: ClientRun,
  flag: string | undefined,
  context: CliContext,
): Promise<string> {
  const chosen = flag ?? context.env.project;
  if (chosen !== undefined) return chosen;
  const projects = await run.api.listProjects();
  if (projects.length === 1) return (projects[0] as { slug: string }).slug;
  if (projects.length === 0) throw usageError("you belong to no project yet");
  throw usageError(
    `you belong to ${projects.length} projects: choose one with --project or SIGHTLINE_PROJECT ` +
      `(${projects.map((project) => project.slug).join(", ")})`,
  );
}
