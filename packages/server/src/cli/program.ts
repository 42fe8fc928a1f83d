// The `sightline` command line: one commander program with the global options, every command
// registered by its module in cli/commands, and each way of ending mapped to a stable exit code.
import { Command, CommanderError } from "commander";
import type { CliEnvironment } from "../config/index.js";
import { SERVER_VERSION } from "../version.js";
import { COMMANDS } from "./commands/index.js";
import { CliError, EXIT } from "./exit-codes.js";
import type { OutputStreams } from "./output.js";

export interface CliContext {
  readonly env: CliEnvironment;
  readonly stdin: NodeJS.ReadableStream;
  readonly streams: OutputStreams;
}

/** Adds one command (or a family) to the program: what each module of cli/commands exports. */
export type RegisterCommand = (program: Command, context: CliContext) => void;

/** The options every command accepts (commander hands them over via optsWithGlobals()). */
export interface GlobalOptions {
  readonly url?: string;
  readonly json?: boolean;
  readonly color: boolean;
}

export function buildProgram(context: CliContext, commands: readonly RegisterCommand[] = COMMANDS): Command {
  const { stdout, stderr } = context.streams;
  // Settings before commands: commander copies them into each subcommand as it is created.
  const program = new Command("sightline")
    .description("Serve Sightline (start, migrate), or query any Sightline from a terminal or a script.")
    .addHelpText(
      "after",
      "\nClient commands call the public API at --url (or SIGHTLINE_URL) with SIGHTLINE_TOKEN or the\n" +
        "token `sightline login` stored; --project (or SIGHTLINE_PROJECT) picks the project.\n" +
        "Exit codes: 0 ok, 1 usage, 2 auth, 3 not found, 4 server.",
    )
    .option("--url <url>", "the Sightline to call (default: SIGHTLINE_URL, else the stored login's)")
    .option("--json", "machine-readable output (NDJSON for lists); the default when piped")
    .option("--no-color", "no colours (also off when NO_COLOR is set or output is not a terminal)")
    .version(SERVER_VERSION, "-V, --version", "print the version")
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
    })
    .showHelpAfterError()
    .exitOverride();
  for (const register of commands) register(program, context);
  return program;
}

/** Runs one command line; resolves with the exit code (server commands resolve when stopped). */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  // `sightline` alone serves, as it always has (container images run it so).
  const args = argv.length === 0 ? ["start"] : [...argv];
  const program = buildProgram(context);
  try {
    await program.parseAsync(args, { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with 0; every parsing error is a usage error (already printed).
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      context.streams.stderr.write(`sightline: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
