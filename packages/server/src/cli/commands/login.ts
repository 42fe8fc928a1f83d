// `sightline login` and `logout`. Login runs the e-mailed sign-in in the terminal through the
// public routes (POST /auth/magic-link, the code or link pasted back to POST /auth/verify), mints
// a personal access token named after this host with the short session, ends that session, and
// stores only the token. Logout forgets the stored token.
import { hostname } from "node:os";
import { createInterface } from "node:readline";
import { TOKEN_MAX_EXPIRY_DAYS, TOKEN_SCOPES, type TokenScope } from "@sightline/contracts";
import { type Command, Option } from "commander";
import { sightlineApi } from "../api.js";
import { outputFor } from "../client-run.js";
import { resolveUrl } from "../connection.js";
import { credentialsPath, removeStoredCredentials, writeStoredCredentials } from "../credentials.js";
import { CliError, EXIT, usageError } from "../exit-codes.js";
import { HttpClient } from "../http-client.js";
import { integerValue } from "../options.js";
import type { CliContext, GlobalOptions } from "../program.js";
import { formatInstant } from "../output.js";

interface LoginFlags {
  readonly email?: string;
  readonly scope: TokenScope;
  readonly expiresInDays: number;
}

export function registerLoginCommands(program: Command, context: CliContext): void {
  program
    .command("login")
    .summary("sign in by e-mail and store a personal access token")
    .description(
      "Sign in by e-mail: Sightline mails you a code and a link; paste either here. A personal access " +
        `token named after this host is created and stored in ${credentialsPath(context.env)} (mode 0600).`,
    )
    .option("--email <address>", "your e-mail address (asked for when not given)")
    .addOption(
      new Option("--scope <scope>", "what the token may do: read (every read of your role) or read-write")
        .choices(TOKEN_SCOPES)
        .default("read"),
    )
    .option(
      "--expires-in-days <days>",
      `token lifetime in days, 1–${TOKEN_MAX_EXPIRY_DAYS}, 0 for never`,
      integerValue(0, TOKEN_MAX_EXPIRY_DAYS),
      90,
    )
    .addHelpText(
      "after",
      "\nExample:\n  sightline login --url https://sightline.example.com --email me@example.com",
    )
    .action(async (flags: LoginFlags, command: Command) => login(flags, command, context));

  program
    .command("logout")
    .summary("forget the stored token")
    .description(
      "Forget the stored token. The token stays valid until it expires: revoke it in the dashboard " +
        "(Account → Tokens) to end it at once.",
    )
    .action(async (_flags: unknown, command: Command) => {
      const output = outputFor(command, context);
      const removed = await removeStoredCredentials(context.env);
      output.note(removed ? `Removed ${credentialsPath(context.env)}.` : "Not signed in: nothing to remove.");
    });
}

async function login(flags: LoginFlags, command: Command, context: CliContext): Promise<void> {
  const output = outputFor(command, context);
  const url = await resolveUrl(command.optsWithGlobals<GlobalOptions>().url, context.env);
  const http = new HttpClient(url);
  const api = sightlineApi(http);
  const lines = lineReader(context.stdin, context.streams.stderr);
  try {
    const email = flags.email ?? (await lines.ask("E-mail: "));
    await api.requestMagicLink({ email });
    output.note(`A sign-in e-mail is on its way to ${email}. Paste the code or the whole link from it.`);
    const magicToken = magicTokenOf(await lines.ask("Code or link: "));
    const device = `sightline CLI on ${hostname()}`.slice(0, 100);
    const pair = await api
      .verifyMagicLink({ token: magicToken, device_info: device, remember_me: false })
      .catch((error: unknown) => {
        if (error instanceof CliError && error.exitCode === EXIT.auth) {
          throw new CliError(EXIT.auth, "that code is unknown, used or expired: run `sightline login` again");
        }
        throw error;
      });
    // The session only mints the token: it is signed out whatever happens next.
    const created = await sightlineApi(http.withToken(pair.access_token))
      .createPersonalToken({
        name: device,
        scope: flags.scope,
        expires_in_days: flags.expiresInDays === 0 ? null : flags.expiresInDays,
      })
      .finally(() => api.logout({ refresh_token: pair.refresh_token }).catch(() => undefined));
    const path = await writeStoredCredentials({ url, token: created.token }, context.env);
    const summary = {
      url,
      email,
      token_name: created.name,
      token_prefix: created.prefix,
      scope: created.scope,
      expires_at: created.expires_at,
      credentials_path: path,
    };
    output.document(
      summary,
      () =>
        `Signed in to ${url} as ${email}.\n` +
        `Token "${created.name}" (${created.prefix}…, ${created.scope === "read" ? "read-only" : "read-write"}, ` +
        `${created.expires_at === null ? "never expires" : `expires ${formatInstant(created.expires_at)} UTC`}) ` +
        `stored in ${path}.\n`,
    );
  } finally {
    lines.close();
  }
}

/** The sign-in token from what the user pasted: the code itself, or the link carrying it. */
export function magicTokenOf(pasted: string): string {
  const text = pasted.trim();
  const fromLink = /[?&]token=([^&#\s]+)/.exec(text);
  const token = fromLink === null ? text : decodeURIComponent(fromLink[1] as string);
  if (!/^[A-Za-z0-9_-]{16,512}$/.test(token)) {
    throw usageError("that is neither the code nor the link from the sign-in e-mail");
  }
  return token;
}

/** Lines typed or piped on standard input, each asked for with a prompt on standard error. */
function lineReader(stdin: NodeJS.ReadableStream, prompts: NodeJS.WritableStream) {
  const reader = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  // The iterator buffers lines that arrive before they are asked for (a pipe delivers at once).
  const iterator = reader[Symbol.asyncIterator]();
  return {
    async ask(prompt: string): Promise<string> {
      prompts.write(prompt);
      const next = await iterator.next();
      const answer = next.done === true ? "" : String(next.value).trim();
      if (answer === "") throw usageError(`no answer to "${prompt.replace(/:\s*$/, "")}"`);
      return answer;
    },
    close: () => reader.close(),
  };
}
