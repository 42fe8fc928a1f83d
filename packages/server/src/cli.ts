#!/usr/bin/env node
// The `sightline` binary: serves Sightline (`start`, `migrate`) or queries one over HTTP (login,
// requests, logs, …). The commands live in cli/commands; this file only wires the process in.
import { runCli } from "./cli/program.js";
import { loadCliEnvironment } from "./config/index.js";

// `sightline logs | head` closes the pipe early: that is the reader's choice, not a failure.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

/** Exits once what was written to standard output has been handed to the OS. */
function exit(code: number): void {
  process.stdout.write("", () => process.exit(code));
}

runCli(process.argv.slice(2), {
  env: loadCliEnvironment(process.env),
  stdin: process.stdin,
  streams: { stdout: process.stdout, stderr: process.stderr },
}).then(exit, (error: unknown) => {
  process.stderr.write(`sightline: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof Error && error.cause !== undefined) {
    process.stderr.write(`  cause: ${String((error.cause as Error).message ?? error.cause)}\n`);
  }
  exit(1);
});
