// Set-up of the data and analytics suites, through the production path only: a signed-in owner
// creates a project with two apps and a key over HTTP, records go through POST /ingest/*, and a
// stranger (another user) owns a project of their own. The clock is fixed, so "the last 24 hours"
// and every relative timestamp are stable; retention is ten years so the fixed dates are accepted
// (TTL arithmetic is DateTime: 36500 days from now would overflow past 2106 and expire at once).
import { expect } from "vitest";
import { createTestContext, type TestContext, type TestContextOptions } from "./app.js";
import { signIn } from "./auth.js";
import { type Client, clientFor } from "./client.js";
import { type ManualClock, manualClock } from "./clock.js";
import type { EventsBackend } from "./events.js";
import type { MetadataBackend } from "./metadata.js";

/** The fixed "now" of every query suite: the Monday after Europe's 2026 spring-forward. */
export const NOW = new Date("2026-03-30T12:00:00.000Z");

export const minutesBefore = (minutes: number, from: Date = NOW): Date =>
  new Date(from.getTime() - minutes * 60_000);

export interface AppInfo {
  readonly id: string;
  readonly slug: string;
}

export interface QueryFixture {
  readonly ctx: TestContext;
  /** Starts at NOW; moving it moves rate-limit windows, not the records' fixed dates. */
  readonly clock: ManualClock;
  /** The owner's bearer client, and its headers for requests it cannot shape. */
  readonly owner: Client;
  readonly ownerHeaders: Readonly<Record<string, string>>;
  /** Another user, who owns a project `elsewhere` with an app `checkout` of their own. */
  readonly stranger: Client;
  readonly project: { readonly id: string; readonly slug: string };
  readonly checkout: AppInfo;
  readonly billing: AppInfo;
  /** The stranger's project and app, with its own records (see ingest helpers below). */
  readonly elsewhere: {
    readonly id: string;
    readonly slug: string;
    readonly app: AppInfo;
    readonly key: string;
  };
  /** A project key of the owner's project. */
  readonly key: string;
}

export async function createQueryFixture(
  backend: EventsBackend,
  metadata: MetadataBackend = { name: "sqlite" },
  extra: Pick<TestContextOptions, "wrapEvents" | "logDestination"> & {
    env?: Readonly<Record<string, string>>;
  } = {},
): Promise<QueryFixture> {
  const clock = manualClock(NOW);
  const { env: extraEnv, ...options } = extra;
  const ctx = await createTestContext({
    ...options,
    metadata,
    clock,
    env: {
      ...extraEnv,
      REQUESTS_RETENTION_DAYS: "3650",
      LOGS_RETENTION_DAYS: "3650",
      SPANS_RETENTION_DAYS: "3650",
      ...(backend.options.clickhouseUrl === undefined
        ? {}
        : { CLICKHOUSE_URL: backend.options.clickhouseUrl }),
    },
  });
  const ownerHeaders = (await signIn(ctx, "owner@example.com")).headers;
  const owner = clientFor(ctx.app, ownerHeaders);
  const stranger = clientFor(ctx.app, (await signIn(ctx, "stranger@example.com")).headers);
  const created = async <T>(client: Client, url: string, body: unknown): Promise<T> => {
    const response = await client.post(url, body);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
    return response.json<T>();
  };
  const project = await created<{ id: string; slug: string }>(owner, "/api/v1/projects", {
    name: "Shop",
    slug: "shop",
  });
  const checkout = await created<AppInfo>(owner, "/api/v1/projects/shop/apps", {
    name: "Checkout",
    slug: "checkout",
  });
  const billing = await created<AppInfo>(owner, "/api/v1/projects/shop/apps", {
    name: "Billing",
    slug: "billing",
  });
  const key = (await created<{ key: string }>(owner, "/api/v1/projects/shop/api-keys", { name: "ingest" }))
    .key;

  const other = await created<{ id: string; slug: string }>(stranger, "/api/v1/projects", {
    name: "Elsewhere",
    slug: "elsewhere",
  });
  const otherApp = await created<AppInfo>(stranger, "/api/v1/projects/elsewhere/apps", {
    name: "Checkout",
    slug: "checkout",
  });
  const otherKey = (
    await created<{ key: string }>(stranger, "/api/v1/projects/elsewhere/api-keys", { name: "k" })
  ).key;
  return {
    ctx,
    clock,
    owner,
    ownerHeaders,
    stranger,
    project: { id: project.id, slug: project.slug },
    checkout: { id: checkout.id, slug: checkout.slug },
    billing: { id: billing.id, slug: billing.slug },
    elsewhere: {
      id: other.id,
      slug: other.slug,
      app: { id: otherApp.id, slug: otherApp.slug },
      key: otherKey,
    },
    key,
  };
}

/** A request record at `at` with fields overridden (app `checkout` unless said otherwise). */
export function request(at: Date, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: at.toISOString(),
    environment: "production",
    method: "GET",
    path: "/users/42",
    status_code: 200,
    response_time_ms: 10,
    ...fields,
  };
}

/** A log record at `at` with fields overridden. */
export function log(at: Date, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: at.toISOString(),
    environment: "production",
    level: "INFO",
    message: "order placed",
    ...fields,
  };
}

/** Posts records through the real ingest route in batches; every record must be accepted. */
export async function ingest(
  ctx: TestContext,
  kind: "requests" | "logs" | "traces",
  records: readonly Record<string, unknown>[],
  key: string,
): Promise<void> {
  for (let start = 0; start < records.length; start += 1000) {
    const batch = records.slice(start, start + 1000);
    const response = await ctx.app.inject({
      method: "POST",
      url: `/api/v1/ingest/${kind}`,
      headers: { "content-type": "application/json", "x-api-key": key },
      payload: JSON.stringify({ [kind === "traces" ? "spans" : kind]: batch }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ accepted: number }>().accepted, response.body).toBe(batch.length);
  }
}

/** `?a=1&b=x` from an object, skipping undefined values; arrays repeat the key. */
export function qs(params: Record<string, string | number | readonly string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}
