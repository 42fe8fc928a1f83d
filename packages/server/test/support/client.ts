// A terse client over app.inject for route suites: JSON in, parsed JSON out, with a caller's
// bearer headers applied to every request.
import type { App } from "../../src/http/types.js";

export interface Reply {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  readonly body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface Client {
  get(url: string): Promise<Reply>;
  post(url: string, body?: unknown): Promise<Reply>;
  patch(url: string, body?: unknown): Promise<Reply>;
  delete(url: string): Promise<Reply>;
}

export function clientFor(app: App, headers: Record<string, string> = {}): Client {
  const send = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers,
      ...(body === undefined ? {} : { payload: body as object }),
    }) as Promise<Reply>;
  return {
    get: (url) => send("GET", url),
    post: (url, body) => send("POST", url, body ?? {}),
    patch: (url, body) => send("PATCH", url, body ?? {}),
    delete: (url) => send("DELETE", url),
  };
}
