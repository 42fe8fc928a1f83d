// Test data through the real API, as the signed-in browser context (cookie + CSRF header): a
// project with apps, environments and keys, and request records sent with a real API key.
import type { CreatedApiKey } from "@sightline/contracts";
import type { APIRequestContext } from "playwright-core";
import { sameOriginHeaders } from "./browser";
import type { Sightline } from "./server";

export interface Api {
  post<T>(path: string, data?: unknown): Promise<T>;
  patch<T>(path: string, data: unknown): Promise<T>;
  get<T>(path: string): Promise<T>;
}

export function apiAs(request: APIRequestContext, server: Sightline): Api {
  const call = async <T>(method: "GET" | "POST" | "PATCH", path: string, data?: unknown): Promise<T> => {
    const response = await request.fetch(`/api/v1${path}`, {
      method,
      ...(data === undefined ? {} : { data }),
      headers: method === "GET" ? {} : sameOriginHeaders(server),
    });
    if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    post: (path, data) => call("POST", path, data ?? {}),
    patch: (path, data) => call("PATCH", path, data),
    get: (path) => call("GET", path),
  };
}

type Records = ReadonlyArray<Record<string, unknown>>;
type Ingested = { accepted: number; rejected: number };

/** Posts records of one kind with an API key, the way an instrumented app does. */
async function ingestKind(
  request: APIRequestContext,
  key: string,
  kind: "requests" | "logs",
  records: Records,
): Promise<Ingested> {
  const response = await request.post(`/api/v1/ingest/${kind}`, {
    data: { [kind]: records },
    headers: { "x-api-key": key },
  });
  if (!response.ok()) throw new Error(`ingest ${kind}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as Ingested;
}

/** Sends request records, as the SDK's middleware does. */
export const ingest = (request: APIRequestContext, key: string, records: Records): Promise<Ingested> =>
  ingestKind(request, key, "requests", records);

/** Sends log records, as the SDK's log integrations do. */
export const ingestLogs = (request: APIRequestContext, key: string, logs: Records): Promise<Ingested> =>
  ingestKind(request, key, "logs", logs);

/** What every record carries: its app, now, and the production environment. */
const recordBase = (app: string) => ({
  app_id: app,
  timestamp: new Date().toISOString(),
  environment: "production",
});

export function record(app: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...recordBase(app),
    method: "GET",
    path: "/orders/42",
    route: "/orders/{id}",
    status_code: 200,
    response_time_ms: 18.4,
    ...overrides,
  };
}

/** `count` requests of the checkout app, 20 s apart before `now`: every third answered 500, the rest 200. */
export function everyThirdFailing(now: number, count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) =>
    record("checkout-api", {
      timestamp: new Date(now - (index + 1) * 20_000).toISOString(),
      path: `/orders/${index}`,
      status_code: index % 3 === 0 ? 500 : 200,
    }),
  );
}

export function logRecord(app: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...recordBase(app),
    level: "INFO",
    message: "ok",
    ...overrides,
  };
}

/**
 * What most page tests start from: the project "Shop" with the app "Checkout API" (and any
 * `more` apps), and a key for the checkout app.
 */
export async function seedCheckout(
  api: Api,
  options: {
    framework?: string;
    keyName?: string;
    more?: ReadonlyArray<{ name: string; framework: string }>;
  } = {},
): Promise<CreatedApiKey> {
  await api.post("/projects", { name: "Shop" });
  await api.post("/projects/shop/apps", { name: "Checkout API", framework: options.framework ?? "fastify" });
  for (const app of options.more ?? []) await api.post("/projects/shop/apps", app);
  return api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", {
    name: options.keyName ?? "ingest",
  });
}

/** A project that looks lived-in: two apps, environments, keys, endpoints from traffic. */
export async function seedShop(api: Api, request: APIRequestContext): Promise<{ key: CreatedApiKey }> {
  await api.post("/projects", {
    name: "Shop",
    description: "Public REST API of the shop and its billing service.",
  });
  await api.post("/projects/shop/apps", { name: "Checkout API", framework: "fastify" });
  await api.post("/projects/shop/apps", { name: "Billing", framework: "django" });
  for (const [name, color] of [
    ["production", "#22c55e"],
    ["staging", "#f59e0b"],
  ] as const) {
    await api.post("/apps/checkout-api/environments?project=shop", { name, color });
  }
  const key = await api.post<CreatedApiKey>("/apps/checkout-api/api-keys?project=shop", {
    name: "Checkout production",
  });
  await api.post("/projects/shop/api-keys", { name: "CI smoke tests" });
  await ingest(request, key.key, [
    record("checkout-api"),
    record("checkout-api", { method: "POST", path: "/orders", route: "/orders", status_code: 201 }),
    record("checkout-api", { method: "GET", path: "/health", route: "/health" }),
    record("checkout-api", { method: "DELETE", path: "/orders/42", route: "/orders/{id}", status_code: 204 }),
  ]);
  return { key };
}
