// Ready-to-paste ways to send a first request record, filled with the real key, project and
// app. Data, not code paths: a new SDK is one more entry here (the Node SDK joins when its
// package exists). Each snippet is plain text; the page renders it as text only.
export interface SnippetContext {
  /** The page's origin: where this Sightline is reached. */
  readonly baseUrl: string;
  /** The whole key when it was created on this visit; null shows a placeholder. */
  readonly apiKey: string | null;
  readonly projectSlug: string;
  readonly appSlug: string;
  readonly environment: string;
  /** Makes the curl batch's Idempotency-Key unique to this page visit. */
  readonly nonce: string;
}

export interface Snippet {
  readonly id: string;
  readonly label: string;
  readonly language: "shell" | "python";
  /** Shown above the code: what to install or where it goes. */
  readonly hint: string;
  render(context: SnippetContext): string;
}

export const API_KEY_PLACEHOLDER = "<your API key>";

const keyOf = (context: SnippetContext) => context.apiKey ?? API_KEY_PLACEHOLDER;
const apiBase = (context: SnippetContext) => `${context.baseUrl}/api/v1`;
/** The APILens SDKs' base URL: they post to `{base}/requests`, `{base}/logs` and `{base}/traces`. */
const apilensBase = (context: SnippetContext) => `${apiBase(context)}/ingest`;
/** Single-quoted for a POSIX shell: safe whatever the value holds. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'"'"'`)}'`;
/** A Python string literal. */
const py = (value: string) => JSON.stringify(value);

const curl: Snippet = {
  id: "curl",
  label: "curl",
  language: "shell",
  hint: "Sends one request record now, from any terminal.",
  render(context) {
    const body = JSON.stringify(
      {
        requests: [
          {
            app_id: context.appSlug,
            timestamp: "__NOW__",
            environment: context.environment,
            method: "GET",
            path: "/hello",
            status_code: 200,
            response_time_ms: 12.5,
          },
        ],
      },
      null,
      2,
    )
      .split("\n")
      .map((line, index) => (index === 0 ? line : `  ${line}`))
      .join("\n")
      .replaceAll("'", `'"'"'`);
    // The timestamp is the moment the command runs, filled in by the shell.
    const data = `'${body.replace('"__NOW__"', `"'"$(date -u +%Y-%m-%dT%H:%M:%SZ)"'"`)}'`;
    return [
      `curl -X POST ${shellQuote(`${apiBase(context)}/ingest/requests`)} \\`,
      `  -H ${shellQuote(`X-API-Key: ${keyOf(context)}`)} \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -H ${shellQuote(`Idempotency-Key: first-request-${context.nonce}`)} \\`,
      `  -d ${data}`,
    ].join("\n");
  },
};

const pythonFastapi: Snippet = {
  id: "python-fastapi",
  label: "Python · FastAPI",
  language: "python",
  hint: "The APILens Python SDK works with Sightline unchanged: pip install 'apilenss[fastapi]', then point base_url here.",
  render(context) {
    return [
      "from fastapi import FastAPI",
      "from apilens.fastapi import ApiLensMiddleware",
      "",
      "app = FastAPI()",
      "app.add_middleware(",
      "    ApiLensMiddleware,",
      `    api_key=${py(keyOf(context))},`,
      `    project_slug=${py(context.projectSlug)},`,
      `    app_id=${py(context.appSlug)},`,
      `    base_url=${py(apilensBase(context))},`,
      `    env=${py(context.environment)},`,
      ")",
    ].join("\n");
  },
};

const pythonClient: Snippet = {
  id: "python-client",
  label: "Python · any framework",
  language: "python",
  hint: "The APILens Python SDK's client, for Flask, Django or a script: pip install apilenss.",
  render(context) {
    return [
      "from apilens import ApiLensClient, ApiLensConfig",
      "",
      "client = ApiLensClient(",
      "    ApiLensConfig(",
      `        api_key=${py(keyOf(context))},`,
      `        project_slug=${py(context.projectSlug)},`,
      `        base_url=${py(apilensBase(context))},`,
      `        environment=${py(context.environment)},`,
      "    )",
      ")",
      "",
      "client.capture(",
      `    app_id=${py(context.appSlug)},`,
      '    method="GET",',
      '    path="/hello",',
      "    status_code=200,",
      "    response_time_ms=12.5,",
      ")",
      "client.shutdown(flush=True)",
    ].join("\n");
  },
};

export const SNIPPETS: readonly Snippet[] = [curl, pythonFastapi, pythonClient];

/** The snippet to show first for an app's declared framework. */
export function defaultSnippetFor(framework: string): Snippet {
  if (["fastapi", "starlette"].includes(framework)) return pythonFastapi;
  if (["django", "flask"].includes(framework)) return pythonClient;
  return curl;
}
