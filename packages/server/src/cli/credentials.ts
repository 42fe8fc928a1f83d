// The login `sightline login` stores: `<config dir>/credentials.json`, `{ "url", "token" }`,
// readable by its owner only (file 0600, directory 0700). Read by every client command and by
// `sightline mcp`; written only by login, removed by logout.
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type CliEnvironment, loadCliEnvironment } from "../config/index.js";
import { CliError, EXIT } from "./exit-codes.js";

export interface StoredCredentials {
  /** The Sightline the token belongs to, normalised (no trailing slash, no /api/v1). */
  readonly url: string;
  /** A personal access token, `sl_pat_…`. */
  readonly token: string;
}

export const credentialsPath = (env: CliEnvironment = loadCliEnvironment()): string =>
  join(env.configDir, "credentials.json");

/** The stored login, or undefined when there is none; throws CliError (auth) on a damaged file. */
export async function readStoredCredentials(
  env: CliEnvironment = loadCliEnvironment(),
): Promise<StoredCredentials | undefined> {
  const path = credentialsPath(env);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(EXIT.auth, `cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    typeof (parsed as Record<string, unknown>).url !== "string" ||
    typeof (parsed as Record<string, unknown>).token !== "string"
  ) {
    throw new CliError(EXIT.auth, `${path} is damaged: run \`sightline login\` again`);
  }
  const { url, token } = parsed as { url: string; token: string };
  return { url, token };
}

/** Replaces the stored login atomically; the token never exists in a file others may read. */
export async function writeStoredCredentials(
  credentials: StoredCredentials,
  env: CliEnvironment = loadCliEnvironment(),
): Promise<string> {
  await mkdir(env.configDir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode alone: tighten it, it only holds our files.
  await chmod(env.configDir, 0o700);
  const path = credentialsPath(env);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(
    temporary,
    `${JSON.stringify({ url: credentials.url, token: credentials.token }, null, 2)}\n`,
    {
      mode: 0o600,
      flag: "w",
    },
  );
  await chmod(temporary, 0o600);
  await rename(temporary, path);
  return path;
}

/** Removes the stored login; false when there was none. */
export async function removeStoredCredentials(env: CliEnvironment = loadCliEnvironment()): Promise<boolean> {
  const path = credentialsPath(env);
  const existed = await stat(path).then(
    () => true,
    () => false,
  );
  await rm(path, { force: true });
  return existed;
}
