// Shared set-up of the ingest suites, built through the production path: a signed-in owner
// creates a project, two apps and their keys over HTTP; records are posted to the real routes
// and read back from the real events store.
import { gzipSync } from "node:zlib";
import type { TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";

export interface AppInfo {
  readonly id: string;
  readonly slug: string;
}

export interface IngestFixture {
  /** The owner's bearer client for resource routes. */
  readonly api: Client;
  readonly project: { readonly id: string; readonly slug: string };
  readonly checkout: AppInfo;
  readonly billing: AppInfo;
  /** A project key: may write to every app of the project. */
  readonly projectKey: string;
  /** An app key of `checkout`: may write to checkout only. */
  readonly appKey: string;
}

export async function createIngestFixture(
  ctx: TestContext,
  email = "owner@example.com",
): Promise<IngestFixture> {
  const api = clientFor(ctx.app, (await signIn(ctx, email)).headers);
  const project = (await api.post("/api/v1/projects", { name: "Shop" })).json<{ id: string; slug: string }>();
  const checkout = (
    await api.post(`/api/v1/projects/${project.slug}/apps`, { name: "Checkout" })
  ).json<AppInfo>();
  const billing = (
    await api.post(`/api/v1/projects/${project.slug}/apps`, { name: "Billing" })
  ).json<AppInfo>();
  const projectKey = (await api.post(`/api/v1/projects/${project.slug}/api-keys`, { name: "ingest" })).json<{
    key: string;
  }>().key;
  const appKey = (await api.post(`/api/v1/apps/${checkout.slug}/api-keys`, { name: "checkout" })).json<{
    key: string;
  }>().key;
  return {
    api,
    project: { id: project.id, slug: project.slug },
    checkout: { id: checkout.id, slug: checkout.slug },
    billing: { id: billing.id, slug: billing.slug },
    projectKey,
    appKey,
  };
}

/** A valid request record at `at` (default: now), with fields overridden. */
export function requestRecord(
  overrides: Record<string, unknown> = {},
  at: Date = new Date(),
): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: at.toISOString(),
    environment: "production",
    method: "GET",
    path: "/users/42",
    status_code: 200,
    response_time_ms: 12.5,
    ...overrides,
  };
}

/** A valid log record at `at` (default: now), with fields overridden. */
export function logRecord(
  overrides: Record<string, unknown> = {},
  at: Date = new Date(),
): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: at.toISOString(),
    environment: "production",
    level: "INFO",
    message: "order placed",
    ...overrides,
  };
}

/** A valid span in the APILens SDK's shape, started at `at` (default: now), with fields overridden. */
export function spanRecord(
  overrides: Record<string, unknown> = {},
  at: Date = new Date(),
): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: at.toISOString(),
    environment: "production",
    trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    span_id: "00f067aa0ba902b7",
    parent_span_id: "",
    name: "GET /users/{id}",
    kind: "server",
    service_name: "checkout-api",
    duration_ms: 12.5,
    status: "ok",
    status_code: 200,
    attributes: {},
    ...overrides,
  };
}

export interface PostOptions {
  readonly key?: string | undefined;
  readonly headers?: Record<string, string>;
  readonly gzip?: boolean;
}

/** POSTs a JSON body (gzip-coded on request) to /api/v1/ingest/<kind>. */
export function postIngest(
  ctx: TestContext,
  kind: "requests" | "logs" | "traces",
  body: unknown,
  options: PostOptions = {},
) {
  const json = Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  return ctx.app.inject({
    method: "POST",
    url: `/api/v1/ingest/${kind}`,
    headers: {
      "content-type": "application/json",
      ...(options.key === undefined ? {} : { "x-api-key": options.key }),
      ...(options.gzip === true ? { "content-encoding": "gzip" } : {}),
      ...options.headers,
    },
    payload: options.gzip === true ? gzipSync(json) : json,
  });
}

/** Rows of an events table, oldest first, as the store returns them. */
export async function storedRows<Row = Record<string, unknown>>(
  ctx: TestContext,
  table: "api_requests" | "api_logs" | "api_spans",
  where = "1",
): Promise<Row[]> {
  return ctx.deps.events.query<Row>(
    `SELECT * FROM ${ctx.deps.events.database}.${table} WHERE ${where} ORDER BY timestamp, id`,
  );
}

export async function storedCount(
  ctx: TestContext,
  table: "api_requests" | "api_logs" | "api_spans",
): Promise<number> {
  const [row] = await ctx.deps.events.query<{ n: number }>(
    `SELECT count() AS n FROM ${ctx.deps.events.database}.${table}`,
  );
  return row?.n ?? 0;
}
