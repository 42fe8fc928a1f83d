// Which Sightline a client command calls and with which token: `--url`, else SIGHTLINE_URL, else
// the stored login's; SIGHTLINE_TOKEN, else the stored token — but only when the stored login is
// for that same URL, so pointing `--url` elsewhere never sends your token to another host.
import type { CliEnvironment } from "../config/index.js";
import { readStoredCredentials } from "./credentials.js";
import { CliError, EXIT, usageError } from "./exit-codes.js";

export interface Connection {
  /** Normalised base URL, e.g. `https://sightline.example.com` (the API is under /api/v1). */
  readonly url: string;
  readonly token: string;
}

/** `https://host/`, `https://host/api/v1` and `https://host` are the same Sightline. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`"${raw}" is not a URL (expected e.g. https://sightline.example.com)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw usageError(`"${raw}" is not an http(s) URL`);
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  return `${url.origin}${path}`;
}

/** The URL alone (login needs no token yet). */
export async function resolveUrl(flag: string | undefined, env: CliEnvironment): Promise<string> {
  const explicit = flag ?? env.url;
  if (explicit !== undefined) return normaliseUrl(explicit);
  const stored = await readStoredCredentials(env);
  if (stored !== undefined) return stored.url;
  throw usageError("no Sightline URL: pass --url or set SIGHTLINE_URL");
}

export async function resolveConnection(flag: string | undefined, env: CliEnvironment): Promise<Connection> {
  const explicit = flag ?? env.url;
  // The file is read only when the environment leaves something to it.
  const stored =
    explicit !== undefined && env.token !== undefined ? undefined : await readStoredCredentials(env);
  const url = explicit !== undefined ? normaliseUrl(explicit) : stored?.url;
  if (url === undefined) {
    throw usageError("no Sightline URL: pass --url, set SIGHTLINE_URL, or run `sightline login`");
  }
  const token = env.token ?? (stored !== undefined && stored.url === url ? stored.token : undefined);
  if (token === undefined) {
    throw new CliError(
      EXIT.auth,
      `not signed in to ${url}: run \`sightline login --url ${url}\` or set SIGHTLINE_TOKEN`,
    );
  }
  return { url, token };
}
