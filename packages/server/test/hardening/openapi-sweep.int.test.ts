// The sweep: every operation of the app's own OpenAPI document, sent malformed JSON, wrong types,
// nulls, missing and unknown members, huge strings and numbers, NaN/Infinity, lone surrogates and
// control characters, bad dates and zones, injection strings, and path parameters with `..`,
// `%00` and 10 KB — with a real signed-in owner of a project, app, key, environment and endpoint
// (so requests get past authentication into validation and the services), and without. No answer
// may be 5xx; every 4xx is problem+json carrying the request id. The amplification class sends
// every route that takes a body the smallest bodies that decode to the most items, and bounds the
// work each costs (time to answer, RSS growth). New routes are swept without edits: cases come
// from the document (test/support/openapi-cases.ts, test/support/amplification.ts).
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import type { HTTPMethods } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT } from "../../src/app.js";
import { createTestContext, type TestContext } from "../support/app.js";
import { signIn } from "../support/auth.js";
import { type Client, clientFor } from "../support/client.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";
import {
  amplificationCasesOf,
  casesOf,
  type KnownValues,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type SweepCase,
  unboundedNumbers,
} from "../support/openapi-cases.js";

/** Requests in flight at once; after each group, the fixture is checked if a write succeeded. */
const CONCURRENCY = 6;

/** Bounds on one amplification request, generous for a loaded 2-core machine: before the item
 *  caps, 4.5 M empty OTLP spans took 9–18 s and 2.3 GiB, 10 MiB of `{}` records 3 s and 280 MB. */
const AMPLIFICATION_MS = 5_000;
const AMPLIFICATION_RSS = 200 * 1024 * 1024;
/** INGEST_MAX_BODY's default, less room for the envelope: ingest and OTLP bodies reach the service. */
const INGEST_BUDGET = 10 * 1024 * 1024 - 1024;

interface Fixture {
  readonly known: KnownValues;
  readonly bearer: { authorization: string };
  readonly apiKey: string;
  readonly owner: Client;
}

interface Failure {
  readonly operation: string;
  readonly case: string;
  readonly authenticated: boolean;
  readonly status: number;
  readonly problem: string;
  readonly body: string;
}

describe.each(metadataBackends())("the OpenAPI sweep on $name", (backend: MetadataBackend) => {
  let ctx: TestContext;
  let doc: OpenApiDocument;
  let fixture: Fixture;
  let generation = 0;

  beforeAll(async () => {
    // Inserts start at once: the sweep is sequential, and the default 50 ms of group commit
    // would be most of its run time.
    ctx = await createTestContext({ metadata: backend, env: { INGEST_FLUSH_INTERVAL_MS: "1" } });
    doc = (await ctx.app.inject({ url: "/api/v1/openapi.json" })).json<OpenApiDocument>();
    fixture = await createFixture();
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A fresh owner (own address and client address, so sign-in limits never bite) with a
   *  project, an app, a key, an environment, an endpoint and one stored request. */
  async function createFixture(): Promise<Fixture> {
    generation += 1;
    const ip = `198.18.${Math.floor(generation / 250)}.${(generation % 250) + 1}`;
    const user = await signIn(ctx, `sweep-${generation}@example.com`, { ip });
    const owner = clientFor(ctx.app, user.headers);
    const ok = async (response: Promise<{ statusCode: number; body: string }>, what: string) => {
      const answer = await response;
      if (answer.statusCode >= 300)
        throw new Error(`fixture: ${what} answered ${answer.statusCode}: ${answer.body}`);
      return JSON.parse(answer.body) as Record<string, unknown>;
    };
    const project = await ok(owner.post("/api/v1/projects", { name: `Sweep ${generation}` }), "project");
    const slug = String(project.slug);
    const app = await ok(owner.post(`/api/v1/projects/${slug}/apps`, { name: "Checkout" }), "app");
    const appSlug = String(app.slug);
    const key = await ok(owner.post(`/api/v1/projects/${slug}/api-keys`, { name: "sweep" }), "key");
    const environment = await ok(
      owner.post(`/api/v1/apps/${appSlug}/environments?project=${slug}`, { name: "production" }),
      "environment",
    );
    const endpoint = await ok(
      owner.post(`/api/v1/apps/${appSlug}/endpoints?project=${slug}`, { method: "GET", path: "/users/{id}" }),
      "endpoint",
    );
    const apiKey = String(key.key);
    const ingested = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/ingest/requests",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      payload: {
        requests: [
          {
            app_id: appSlug,
            timestamp: new Date().toISOString(),
            environment: "production",
            method: "GET",
            path: "/users/42",
            status_code: 200,
            response_time_ms: 12.5,
          },
        ],
      },
    });
    if (ingested.statusCode !== 200) throw new Error(`fixture: ingest answered ${ingested.body}`);
    const page = await ok(owner.get(`/api/v1/projects/${slug}/data/requests`), "requests");
    const requestId = String((page.items as Array<{ id: string }>)[0]?.id);
    const claims = JSON.parse(Buffer.from(user.accessToken.split(".")[1] ?? "", "base64url").toString()) as {
      sid: string;
    };
    return {
      owner,
      bearer: user.headers,
      apiKey,
      known: {
        project_slug: slug,
        app_slug: appSlug,
        app_id: appSlug,
        key_id: String(key.id),
        env_slug: String(environment.slug),
        endpoint_id: String(endpoint.id),
        session_id: claims.sid,
        user_id: user.userId,
        id: requestId,
        timestamp: new Date().toISOString(),
        project: slug,
        method: "GET",
        path: "/users/{id}",
      },
    };
  }

  /** Whether every resource of the fixture is still there (a swept DELETE may have hit it). */
  async function fixtureIntact(): Promise<boolean> {
    const { known, owner } = fixture;
    const checks = await Promise.all([
      owner.get("/api/v1/users/me"),
      owner.get(`/api/v1/projects/${known.project_slug}`),
      owner.get(
        `/api/v1/apps/${known.app_slug}/endpoints/${known.endpoint_id}?project=${known.project_slug}`,
      ),
      owner.get(`/api/v1/apps/${known.app_slug}/environments?project=${known.project_slug}`),
      ctx.app.inject({
        method: "POST",
        url: "/api/v1/ingest/logs",
        headers: { "content-type": "application/json", "x-api-key": fixture.apiKey },
        payload: { logs: [] },
      }),
    ]);
    const environments = checks[3].statusCode === 200 ? checks[3].json<Array<{ slug: string }>>() : [];
    return (
      checks.every((check) => check.statusCode === 200) &&
      environments.some((environment) => environment.slug === known.env_slug)
    );
  }

  function credentialsFor(operation: Operation): Record<string, string> | undefined {
    const headers: Record<string, string> = {};
    for (const credential of operation.credentials) {
      if (credential.kind === "bearer") Object.assign(headers, fixture.bearer);
      else if (credential.name === "x-api-key") headers[credential.name] = fixture.apiKey;
    }
    return Object.keys(headers).length === 0 ? undefined : headers;
  }

  /** The failures one answer shows, if any. */
  function judge(operation: Operation, sweepCase: SweepCase, response: Response): Failure[] {
    const failure = (problem: string): Failure => ({
      operation: operation.label,
      case: sweepCase.label,
      authenticated: sweepCase.authenticated,
      status: response.status,
      problem,
      body: response.body.slice(0, 300),
    });
    if (response.status >= 500) return [failure("server error")];
    if (response.headers["x-content-type-options"] !== "nosniff")
      return [failure("no X-Content-Type-Options")];
    if (response.status < 400) return [];
    if (!String(response.headers["content-type"]).startsWith("application/problem+json")) {
      return [failure(`4xx as ${String(response.headers["content-type"])}`)];
    }
    try {
      const body = JSON.parse(response.body) as { request_id?: unknown; status?: unknown };
      if (typeof body.request_id !== "string" || body.request_id !== response.headers["x-request-id"]) {
        return [failure("problem without the request id")];
      }
      if (body.status !== response.status) return [failure("problem status differs from HTTP status")];
    } catch {
      return [failure("problem body is not JSON")];
    }
    return [];
  }

  interface Response {
    readonly status: number;
    readonly headers: Record<string, string | string[] | number | undefined>;
    readonly body: string;
  }

  async function send(sweepCase: SweepCase): Promise<Response> {
    const response = await ctx.app.inject({
      method: sweepCase.method as HTTPMethods,
      url: sweepCase.url,
      headers: sweepCase.headers,
      ...(sweepCase.payload === undefined ? {} : { payload: sweepCase.payload }),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }

  it("leaves no client-supplied number without a maximum", () => {
    expect(unboundedNumbers(doc)).toEqual([]);
  });

  it("answers every hostile request of every operation without a 5xx, problems carrying the request id", async () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(60);
    const failures: Failure[] = [];
    let sent = 0;
    for (const operation of operations) {
      let cases = casesOf(operation, { known: fixture.known, credentials: credentialsFor });
      for (let i = 0; i < cases.length; i += CONCURRENCY) {
        const batch = cases.slice(i, i + CONCURRENCY);
        const answers = await Promise.all(batch.map(send));
        answers.forEach((answer, j) => failures.push(...judge(operation, batch[j] as SweepCase, answer)));
        sent += batch.length;
        // A write that succeeded may have deleted or renamed what later cases need: they are
        // generated again for a fresh fixture (the same cases, in the same order).
        const wrote = batch.some(
          (c, j) => c.authenticated && c.method !== "GET" && (answers[j]?.status ?? 500) < 300,
        );
        if (wrote && !(await fixtureIntact())) {
          fixture = await createFixture();
          cases = casesOf(operation, { known: fixture.known, credentials: credentialsFor });
        }
      }
    }
    expect(failures, report(failures, sent)).toEqual([]);
  }, 600_000);

  it("bounds the work of every amplification body of every operation that takes one", async () => {
    const failures: Failure[] = [];
    let sent = 0;
    for (const operation of operationsOf(doc)) {
      const cases = amplificationCasesOf(operation, {
        known: fixture.known,
        credentials: credentialsFor,
        budgetBytes: (op) =>
          /\/(ingest|otlp)\//.test(op.template) ? INGEST_BUDGET : DEFAULT_BODY_LIMIT - 1024,
      });
      for (const sweepCase of cases) {
        const rss = process.memoryUsage.rss();
        const started = performance.now();
        const response = await send(sweepCase);
        const tookMs = performance.now() - started;
        const grew = process.memoryUsage.rss() - rss;
        sent += 1;
        const judged = judge(operation, sweepCase, response);
        if (tookMs > AMPLIFICATION_MS || grew > AMPLIFICATION_RSS) {
          judged.push({
            operation: operation.label,
            case: sweepCase.label,
            authenticated: sweepCase.authenticated,
            status: response.status,
            problem: `work over bound: ${Math.round(tookMs)} ms, RSS +${Math.round(grew / 1048576)} MB`,
            body: response.body.slice(0, 200),
          });
        }
        failures.push(...judged);
      }
    }
    expect(sent).toBeGreaterThan(20);
    expect(failures, report(failures, sent)).toEqual([]);
  }, 600_000);

  it("answers a 20 KB path on every operation over a real socket with a 431 problem", async () => {
    await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const failures: string[] = [];
    for (const operation of operationsOf(doc)) {
      const path = operation.template.replace(/\{[^}]+\}/g, "a".repeat(20_000));
      const target = path === operation.template ? `${path}?pad=${"a".repeat(20_000)}` : path;
      const raw = await new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(`${operation.method} ${target} HTTP/1.1\r\nHost: x\r\n\r\n`);
        });
        socket.on("data", (chunk: Buffer) => chunks.push(chunk));
        socket.on("error", () => undefined);
        socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      });
      if (!/^HTTP\/1\.1 431 /.test(raw) || !/content-type: application\/problem\+json/i.test(raw)) {
        failures.push(`${operation.label}: ${raw.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

function report(failures: readonly Failure[], sent: number): string {
  if (failures.length === 0) return `no failures in ${sent} requests`;
  const lines = failures
    .slice(0, 60)
    .map(
      (f) =>
        `${f.operation} | ${f.case}${f.authenticated ? "" : " (no credentials)"} | ${f.status} ${f.problem} | ${f.body}`,
    );
  const more = failures.length > 60 ? `\n… and ${failures.length - 60} more` : "";
  return `${failures.length} bad answers of ${sent}:\n${lines.join("\n")}${more}`;
}
