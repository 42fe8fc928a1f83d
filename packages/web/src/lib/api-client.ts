// The one way the dashboard talks to the server: same-origin fetch with the session cookie,
// the CSRF header on every write, and problem+json answers turned into ApiError. Response
// types come from @sightline/contracts (types only: nothing of the server ships here).
import type { FieldError, Problem } from "@sightline/contracts";

export const API_BASE = "/api/v1";
const CSRF_HEADER = "X-Sightline-CSRF";

/** A non-2xx answer (or no answer at all: status 0) with what a person needs to see. */
export class ApiError extends Error {
  readonly status: number;
  /** The catalogue code (`validation_error`, `rate_limited`…); `network_error` without an answer. */
  readonly code: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  readonly fieldErrors: readonly FieldError[];
  /** Seconds from Retry-After, when the server sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    requestId?: string | undefined;
    fieldErrors?: readonly FieldError[];
    retryAfterSeconds?: number | undefined;
  }) {
    super(init.detail);
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.fieldErrors = init.fieldErrors ?? [];
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** The message for one body field (`/name`), if the server named it. */
  fieldMessage(pointer: string): string | undefined {
    return this.fieldErrors.find((error) => error.pointer === pointer)?.message;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** True when the session behind the cookie is gone (signed out elsewhere, expired, revoked). */
export function isSessionEnded(error: unknown): boolean {
  return isApiError(error) && error.status === 401;
}

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RequestOptions {
  readonly body?: unknown;
  /** With a string body: send it raw with this media type. */
  readonly contentType?: string;
  readonly signal?: AbortSignal | undefined;
  /** Query parameters; undefined values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
}

/** Listeners told about every 401, so the app can send the person to sign-in once. */
const unauthorizedListeners = new Set<(error: ApiError) => void>();

export function onUnauthorized(listener: (error: ApiError) => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export function buildUrl(path: string, query?: RequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search === "" ? "" : `?${search}`}`;
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (typeof options.body === "string" && options.contentType !== undefined) {
    // A document sent as it is (an uploaded OpenAPI file), not wrapped in JSON.
    headers["content-type"] = options.contentType;
    body = options.body;
  } else if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  if (method !== "GET") headers[CSRF_HEADER] = "1";

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError({
      status: 0,
      code: "network_error",
      detail: "The server could not be reached. Check that Sightline is running, then try again.",
    });
  }
  if (!response.ok) {
    const error = await toApiError(response);
    if (error.status === 401) for (const listener of unauthorizedListeners) listener(error);
    throw error;
  }
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export async function toApiError(response: Response): Promise<ApiError> {
  const requestId = response.headers.get("x-request-id") ?? undefined;
  const retryAfter = Number(response.headers.get("retry-after"));
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  let problem: Partial<Problem> = {};
  try {
    problem = (await response.json()) as Partial<Problem>;
  } catch {
    // Not JSON (a proxy's error page): keep the status alone.
  }
  return new ApiError({
    status: response.status,
    code: typeof problem.error === "string" ? problem.error : `http_${response.status}`,
    detail:
      typeof problem.detail === "string" && problem.detail !== ""
        ? problem.detail
        : `The server answered ${response.status} ${response.statusText}.`.replace(/ \.$/, "."),
    requestId: typeof problem.request_id === "string" ? problem.request_id : requestId,
    fieldErrors: Array.isArray(problem.errors) ? problem.errors : [],
    retryAfterSeconds,
  });
}

type Query = RequestOptions["query"];

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, "body">) => request<T>("GET", path, options),
  post: <T>(path: string, body?: unknown, query?: Query) => request<T>("POST", path, { body, query }),
  patch: <T>(path: string, body: unknown, query?: Query) => request<T>("PATCH", path, { body, query }),
  delete: <T>(path: string, query?: Query) => request<T>("DELETE", path, { query }),
  postText: <T>(path: string, text: string, contentType: string, query?: Query) =>
    request<T>("POST", path, { body: text, contentType, query }),
};
