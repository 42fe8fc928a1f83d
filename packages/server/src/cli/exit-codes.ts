// The CLI's stable exit codes and the one error type commands throw to end with one of them.
// Scripts branch on these numbers: they never change meaning.
export const EXIT = {
  ok: 0,
  /** Bad arguments, or a value the server refused as invalid (422). */
  usage: 1,
  /** No token, or the server refused it (401, 403). */
  auth: 2,
  notFound: 3,
  /** The server failed, is unreachable, or answered something the CLI cannot read. */
  server: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export const usageError = (message: string) => new CliError(EXIT.usage, message);
