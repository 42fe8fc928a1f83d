// Where `sightline mcp` finds its server and token: SIGHTLINE_URL and SIGHTLINE_TOKEN, else the
// CLI login's file ${XDG_CONFIG_HOME:-~/.config}/sightline/credentials.json ({ "url", "token" }),
// each variable overriding the file's value.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface Credentials {
  readonly url: string;
  readonly token: string;
}

export function credentialsPath(env: NodeJS.ProcessEnv): string {
  const base =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ""
      ? env.XDG_CONFIG_HOME
      : join(homedir(), ".config");
  return join(base, "sightline", "credentials.json");
}

/** The stored file's url and token; empty when there is no file. A malformed file is an error. */
function readFile(path: string): Partial<Credentials> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null) throw new Error(`${path} is not a JSON object`);
  const { url, token } = parsed as Record<string, unknown>;
  return {
    ...(typeof url === "string" ? { url } : {}),
    ...(typeof token === "string" ? { token } : {}),
  };
}

/** The credentials, or a sentence saying what is missing. */
export function readCredentials(env: NodeJS.ProcessEnv): Credentials | string {
  const path = credentialsPath(env);
  const stored = readFile(path);
  const url = env.SIGHTLINE_URL !== undefined && env.SIGHTLINE_URL !== "" ? env.SIGHTLINE_URL : stored.url;
  const token =
    env.SIGHTLINE_TOKEN !== undefined && env.SIGHTLINE_TOKEN !== "" ? env.SIGHTLINE_TOKEN : stored.token;
  if (url === undefined || token === undefined) {
    const missing = [url === undefined ? "server URL" : null, token === undefined ? "token" : null].filter(
      Boolean,
    );
    return `no ${missing.join(" and ")}: set SIGHTLINE_URL and SIGHTLINE_TOKEN, or run \`sightline login\` (${path})`;
  }
  return { url, token };
}
