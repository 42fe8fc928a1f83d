// HTTP to a Sightline's public API (/api/v1) for the CLI: query strings from typed queries,
// bearer token, and every failure turned into a CliError with the exit code scripts branch on
// and the server's problem+json detail as the message.
import type { Problem } from "@sightline/contracts";
import { SERVER_VERSION } from "../version.js";
import { CliError, EXIT, type ExitCode } from "./exit-codes.js";

type QueryValue = string | number | boolean | undefined | null | readonly string[];
export type QueryParams = { readonly [name: string]: QueryValue };

export class HttpClient {
  constructor(
    /** Normalised base URL (see connection.ts). */
    readonly url: string,
    private readonly token?: string,
  ) {}

  /** This client with another bearer token (login holds a session token before it has a PAT). */
  withToken(token: string): HttpClient {
    return new HttpClient(this.url, token);
  }

  async getJson<T>(path: string, query: QueryParams = {}): Promise<T> {
    const response = await this.send("GET", path, query);
    return (await readJson(response)) as T;
  }

  async postJson<T>(path: string, body: unknown): Promise<T> {
    const response = await this.send("POST", path, {}, body);
    return (await readJson(response)) as T;
  }

  /** A successful response whose body the caller streams (exports). */
  async download(path: string, query: QueryParams): Promise<Response> {
    return this.send("GET", path, query, undefined, "*/*");
  }

  private async send(
    method: string,
    path: string,
    query: QueryParams,
    body?: unknown,
    accept = "application/json",
  ): Promise<Response> {
    const target = `${this.url}/api/v1${path}${queryString(query)}`;
    const headers: Record<string, string> = {
      accept,
      "user-agent": `sightline-cli/${SERVER_VERSION}`,
    };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(target, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new CliError(EXIT.server, `cannot reach ${this.url}: ${cause}`);
    }
    if (!response.ok) throw await failureOf(response);
    return response;
  }
}

/** `?a=1&b=x`: undefined and null dropped, booleans as true/false, arrays repeat the name. */
export function queryString(query: QueryParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) search.append(name, item);
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(EXIT.server, `the server answered ${response.status} with something that is not JSON`);
  }
}

function exitCodeOf(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 400 || status === 422) return EXIT.usage;
  return EXIT.server;
}

async function failureOf(response: Response): Promise<CliError> {
  const text = await response.text().catch(() => "");
  let problem: Partial<Problem> | undefined;
  try {
    problem = JSON.parse(text) as Partial<Problem>;
  } catch {
    problem = undefined;
  }
  const parts = [problem?.detail ?? problem?.title ?? `HTTP ${response.status}`];
  for (const field of problem?.errors ?? []) {
    // `#/query/since` reads better as `since`: the user typed an option, not a query string.
    parts.push(`  ${field.pointer.replace(/^#\/query\//, "")}: ${field.message}`);
  }
  if (response.status === 401) parts.push("Sign in again with `sightline login`, or check SIGHTLINE_TOKEN.");
  if (response.status === 429) {
    const retry = response.headers.get("retry-after");
    if (retry !== null) parts.push(`Retry in ${retry} s.`);
  }
  return new CliError(exitCodeOf(response.status), parts.join("\n"));
}
