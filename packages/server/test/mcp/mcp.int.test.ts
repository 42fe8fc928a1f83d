// The MCP server end to end: the SDK's own client over both transports — streamable HTTP to
// POST /api/v1/mcp on a real port, and stdio through the real `sightline mcp` process that
// forwards there — against real ingested data with planted changes, asserting the figures every
// tool answers; then who may call what (read-only, project-limited, bad and session tokens) and
// that the log lines of tool calls carry no record contents.
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import { CLI_PATH, cleanEnv, runTs } from "../support/process.js";
import {
  createQueryFixture,
  ingest,
  log,
  NOW,
  type QueryFixture,
  request,
} from "../support/query-fixture.js";

const SINCE = "2026-03-30T11:00:00.000Z";
const UNTIL = NOW.toISOString();
const WINDOW = { since: SINCE, until: UNTIL };
const BASELINE = { since: "2026-03-30T09:59:59.999Z", until: "2026-03-30T10:59:59.999Z" };
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SECRET = "secret-payload-xyz";
const SERVER_DIR = fileURLToPath(new URL("../..", import.meta.url));

const at = (hhmm: string, plusMinutes = 0) =>
  new Date(new Date(`2026-03-30T${hhmm}:00.000Z`).getTime() + plusMinutes * 60_000);
const times = (count: number, hhmm: string, stepMinutes: number) =>
  Array.from({ length: count }, (_, index) => at(hhmm, index * stepMinutes));

const acme = { consumer_id: "acme", consumer_name: "Acme Corp" };
const globex = { consumer_id: "globex", consumer_name: "Globex" };
const initech = { consumer_id: "initech", consumer_name: "Initech" };

/** The planted traffic: /orders starts failing for Acme at 11:30, /reports appears, Globex goes. */
function plantedRequests(): Record<string, unknown>[] {
  const users = { method: "GET", path: "/users/42", status_code: 200, response_time_ms: 20, ...acme };
  const orders = { method: "POST", path: "/orders", status_code: 201, response_time_ms: 50, ...acme };
  return [
    // Baseline hour (10:00–11:00).
    ...times(10, "10:10", 1).map((t) => request(t, users)),
    ...times(10, "10:15", 1).map((t) => request(t, orders)),
    ...times(5, "10:20", 1).map((t) =>
      request(t, { method: "GET", path: "/legacy", status_code: 200, response_time_ms: 30, ...globex }),
    ),
    // Window hour (11:00–12:00).
    ...times(20, "11:05", 2).map((t) => request(t, users)),
    ...times(5, "11:10", 1).map((t) => request(t, orders)),
    ...times(5, "11:30", 1).map((t, index) =>
      request(t, {
        ...orders,
        status_code: 503,
        response_time_ms: 80,
        ...(index === 0 ? { trace_id: TRACE, span_id: "b7ad6b7169203331", request_payload: SECRET } : {}),
      }),
    ),
    ...times(4, "11:40", 1).map((t) =>
      request(t, { method: "GET", path: "/reports", status_code: 200, response_time_ms: 400, ...initech }),
    ),
  ];
}

interface Holder {
  readonly id: string;
  readonly token: string;
}

type Transport = "http" | "stdio";

/** A log sink keeping every line the server writes. */
function logSink(): { stream: Writable; lines: () => string[] } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString("utf8");
      done();
    },
  });
  return { stream, lines: () => text.split("\n").filter((line) => line !== "") };
}

describe.each(eventsBackends())("the MCP server on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  let baseUrl: string;
  let sink: ReturnType<typeof logSink>;
  let full: Holder;
  let readOnly: Holder;
  let limited: Holder;
  let alertId: string;
  let configHome: string;
  const clients: Client[] = [];

  const tokenOf = async (body: Record<string, unknown>): Promise<Holder> => {
    const made = await fx.owner.post("/api/v1/users/me/tokens", { name: `mcp ${clients.length}`, ...body });
    expect(made.statusCode, made.body).toBe(201);
    return made.json<Holder>();
  };

  async function connect(kind: Transport, token: string): Promise<Client> {
    const client = new Client({ name: "mcp-test", version: "1.0.0" });
    if (kind === "http") {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
    } else {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ["--import", "tsx", CLI_PATH, "mcp"],
          cwd: SERVER_DIR,
          env: cleanEnv({
            SIGHTLINE_URL: baseUrl,
            SIGHTLINE_TOKEN: token,
            XDG_CONFIG_HOME: configHome,
          }) as Record<string, string>,
          stderr: "pipe",
        }),
      );
    }
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    sink = logSink();
    fx = await createQueryFixture(
      backend,
      { name: "sqlite" },
      {
        logDestination: sink.stream,
        env: { LOG_LEVEL: "info" },
      },
    );
    configHome = await mkdtemp(join(tmpdir(), "sightline-config-"));
    await ingest(fx.ctx, "requests", plantedRequests(), fx.key);
    await ingest(
      fx.ctx,
      "logs",
      [
        log(at("11:30"), { level: "ERROR", message: "payment gateway timeout", trace_id: TRACE }),
        log(at("11:31"), { level: "ERROR", message: "payment gateway timeout again", trace_id: TRACE }),
        log(at("11:32"), { level: "INFO", message: "order placed" }),
      ],
      fx.key,
    );
    const span = (offsetMs: number, fields: Record<string, unknown>) => ({
      app_id: "checkout",
      timestamp: new Date(at("11:30").getTime() + offsetMs).toISOString(),
      environment: "production",
      trace_id: TRACE,
      service_name: "checkout-api",
      status_code: 0,
      ...fields,
    });
    await ingest(
      fx.ctx,
      "traces",
      [
        span(0, {
          span_id: "b7ad6b7169203331",
          parent_span_id: "",
          name: "POST /orders",
          kind: "server",
          duration_ms: 120,
          status: "error",
          status_code: 503,
        }),
        span(10, {
          span_id: "00f067aa0ba902b7",
          parent_span_id: "b7ad6b7169203331",
          name: "charge card",
          kind: "http",
          duration_ms: 100,
          status: "error",
          status_code: 504,
        }),
      ],
      fx.key,
    );
    const rule = await fx.owner.post("/api/v1/projects/shop/alerts", {
      name: "Checkout failing",
      metric: "error_rate",
      comparator: "gt",
      threshold: 5,
      window_seconds: 3600,
      min_requests: 1,
      for_evaluations: 1,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    alertId = rule.json<{ id: string }>().id;
    await fx.ctx.deps.alerts.scheduler.tick();
    // The contract: one inference pass over the baseline hour, one over the window hour, whose new
    // operation (GET /reports) and new status (503 on POST /orders) make version 2.
    await fx.ctx.deps.contract.job.run(at("11:00", 1));
    await fx.ctx.deps.contract.job.run(at("12:00", 1));
    const declared = await fx.ctx.app.inject({
      method: "POST",
      url: "/api/v1/projects/shop/api/declared?app=checkout",
      headers: { ...fx.ownerHeaders, "content-type": "application/yaml" },
      payload: [
        "openapi: 3.1.0",
        "info: { title: Checkout, version: '1' }",
        "paths:",
        "  /users/{id}:",
        "    get:",
        "      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]",
        "      responses: { '200': { description: ok } }",
        "  /health:",
        "    get:",
        "      responses: { '200': { description: ok } }",
        "",
      ].join("\n"),
    });
    expect(declared.statusCode, declared.body).toBe(200);

    const side = await fx.owner.post("/api/v1/projects", { name: "Side", slug: "side" });
    expect(side.statusCode, side.body).toBe(201);
    full = await tokenOf({ scope: "read-write", expires_in_days: 1 });
    readOnly = await tokenOf({ scope: "read", expires_in_days: 1 });
    limited = await tokenOf({ scope: "read-write", expires_in_days: 1, project_slugs: ["side"] });

    await fx.ctx.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `http://127.0.0.1:${(fx.ctx.app.server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    await fx?.ctx.close();
    if (configHome !== undefined) await rm(configHome, { recursive: true, force: true });
  });

  async function call<T = Record<string, unknown>>(
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ): Promise<T> {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text: string }>;
    expect(result.isError, content[0]?.text).not.toBe(true);
    return JSON.parse(content[0]?.text as string) as T;
  }

  async function refused(client: Client, name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    return JSON.parse((result.content as Array<{ text: string }>)[0]?.text as string) as {
      error: string;
      status: number;
      detail: string;
    };
  }

  describe.each(["http", "stdio"] as const)("over %s", (kind: Transport) => {
    let client: Client;
    const shop = { project: "shop" };

    beforeAll(async () => {
      client = await connect(kind, full.token);
    }, 60_000);

    it("lists every tool with a JSON schema, the resources and the prompts", async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        "list_projects",
        "list_environments",
        "traffic_summary",
        "what_changed",
        "top_endpoints",
        "endpoint_detail",
        "list_consumers",
        "consumer_usage",
        "list_error_groups",
        "search_requests",
        "get_request",
        "search_logs",
        "search_traces",
        "get_trace",
        "list_alerts",
        "alert_events",
        "get_api_contract",
        "list_contract_changes",
        "contract_report",
      ]);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.description?.length).toBeGreaterThan(40);
      }
      const traffic = tools.find((tool) => tool.name === "traffic_summary");
      expect(traffic?.inputSchema.required).toEqual(["project"]);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual([
        "sightline://openapi",
        "sightline://projects/shop/alert-rules",
        "sightline://projects/side/alert-rules",
      ]);
      const { prompts } = await client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(["investigate_incident", "consumer_report"]);
    });

    it("lists projects with their apps, and the environments with data", async () => {
      const { projects } = await call<{
        projects: Array<{ slug: string; role: string; apps: Array<{ slug: string }> }>;
      }>(client, "list_projects", {});
      const rows = projects.map((project) => [
        project.slug,
        project.role,
        project.apps.map((app) => app.slug).sort(),
      ]);
      expect(rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
        ["shop", "owner", ["billing", "checkout"]],
        ["side", "owner", []],
      ]);
      expect(await call(client, "list_environments", shop)).toEqual({ environments: ["production"] });
    });

    it("summarises a window against the one before", async () => {
      const answer = await call<Record<string, Record<string, unknown>>>(client, "traffic_summary", {
        ...shop,
        ...WINDOW,
      });
      expect(answer.window).toEqual(WINDOW);
      expect(answer.baseline).toEqual(BASELINE);
      expect(answer.current).toMatchObject({
        total_requests: 34,
        error_count: 5,
        server_errors_5xx: 5,
        client_errors_4xx: 0,
        p95_response_time_ms: 400,
        unique_endpoints: 3,
        unique_consumers: 2,
      });
      expect(answer.current?.error_rate_pct).toBeCloseTo((5 / 34) * 100, 9);
      expect(answer.current?.avg_response_time_ms).toBeCloseTo(2650 / 34, 6);
      expect(answer.previous).toMatchObject({ total_requests: 25, error_count: 0, p95_response_time_ms: 50 });
      expect(answer.change).toMatchObject({
        total_requests: 9,
        total_requests_pct: 36,
        error_count: 5,
        server_errors_5xx: 5,
        error_rate_pct_points: 14.71,
        p95_response_time_ms: 350,
      });
      const acmeOnly = await call<Record<string, Record<string, unknown>>>(client, "traffic_summary", {
        ...shop,
        ...WINDOW,
        consumer: "acme",
      });
      expect(acmeOnly.current).toMatchObject({ total_requests: 30, error_count: 5 });
    });

    it("ranks endpoints by requests, errors, latency and change, with a paging cursor", async () => {
      type Page = { items: Array<Record<string, unknown>>; total_count: number; next_cursor: string | null };
      const byRequests = await call<Page>(client, "top_endpoints", { ...shop, ...WINDOW, limit: 2 });
      expect(byRequests.items.map((item) => [item.endpoint, item.total_requests])).toEqual([
        ["GET /users/{id}", 20],
        ["POST /orders", 10],
      ]);
      expect(byRequests.total_count).toBe(3);
      const rest = await call<Page>(client, "top_endpoints", {
        ...shop,
        ...WINDOW,
        limit: 2,
        cursor: byRequests.next_cursor,
      });
      expect(rest.items.map((item) => item.endpoint)).toEqual(["GET /reports"]);
      expect(rest.next_cursor).toBeNull();
      const byErrors = await call<Page>(client, "top_endpoints", {
        ...shop,
        ...WINDOW,
        by: "errors",
        limit: 1,
      });
      expect(byErrors.items[0]).toMatchObject({
        app: "checkout",
        endpoint: "POST /orders",
        error_count: 5,
        error_rate_pct: 50,
      });
      const byLatency = await call<Page>(client, "top_endpoints", {
        ...shop,
        ...WINDOW,
        by: "latency",
        limit: 1,
      });
      expect(byLatency.items[0]).toMatchObject({ endpoint: "GET /reports", p95_response_time_ms: 400 });
      const byChange = await call<Page>(client, "top_endpoints", { ...shop, ...WINDOW, by: "change" });
      expect(
        byChange.items.map((item) => [
          item.endpoint,
          (item.change as { total_requests: number }).total_requests,
        ]),
      ).toEqual([
        ["GET /users/{id}", 10],
        ["GET /legacy", -5],
        ["GET /reports", 4],
        ["POST /orders", 0],
      ]);
    });

    it("details one endpoint: figures against the baseline, status codes, consumers", async () => {
      const detail = await call<Record<string, unknown>>(client, "endpoint_detail", {
        ...shop,
        app: "checkout",
        endpoint: "POST /orders",
        ...WINDOW,
      });
      expect(detail).toMatchObject({
        endpoint: "POST /orders",
        current: {
          total_requests: 10,
          error_count: 5,
          server_errors_5xx: 5,
          error_rate_pct: 50,
          p95_response_time_ms: 80,
        },
        previous: { total_requests: 10, error_count: 0, p95_response_time_ms: 50 },
        change: { total_requests: 0, error_rate_pct_points: 50, p95_response_time_ms: 30 },
        top_consumers: [{ consumer_id: "acme", consumer: "Acme Corp", total_requests: 10, error_count: 5 }],
      });
      expect(detail.status_codes).toEqual(
        expect.arrayContaining([
          { status_code: 201, requests: 5 },
          { status_code: 503, requests: 5 },
        ]),
      );
      const missing = await refused(client, "endpoint_detail", { ...shop, app: "nope", endpoint: "GET /x" });
      expect(missing.error).toBe("not_found");
      const malformed = await refused(client, "endpoint_detail", {
        ...shop,
        app: "checkout",
        endpoint: "orders",
      });
      expect(malformed.error).toBe("validation_error");
    });

    it("searches and ranks consumers and reads one consumer's usage", async () => {
      type Page = { items: Array<Record<string, unknown>>; total_count: number };
      const byErrors = await call<Page>(client, "list_consumers", { ...shop, ...WINDOW, by: "errors" });
      expect(byErrors.items.map((item) => [item.consumer_id, item.total_requests, item.error_count])).toEqual(
        [
          ["acme", 30, 5],
          ["initech", 4, 0],
        ],
      );
      const found = await call<Page>(client, "list_consumers", { ...shop, ...WINDOW, q: "INIT" });
      expect(found.items.map((item) => item.consumer)).toEqual(["Initech"]);
      const usage = await call<Record<string, unknown>>(client, "consumer_usage", {
        ...shop,
        consumer: "acme",
        ...WINDOW,
      });
      expect(usage).toMatchObject({
        consumer_id: "acme",
        current: { total_requests: 30, error_count: 5 },
        previous: { total_requests: 20, error_count: 0 },
        change: { total_requests: 10, total_requests_pct: 50 },
        endpoints_total: 2,
        error_groups: [
          { endpoint: "POST /orders", status_code: 503, count: 5, first_seen_at: "2026-03-30T11:30:00.000Z" },
        ],
      });
      expect((usage.endpoints as Array<{ endpoint: string }>).map((row) => row.endpoint)).toEqual([
        "GET /users/{id}",
        "POST /orders",
      ]);
    });

    it("lists error groups with their first occurrence", async () => {
      const groups = await call<{ items: unknown[]; total_count: number }>(client, "list_error_groups", {
        ...shop,
        ...WINDOW,
      });
      expect(groups.total_count).toBe(1);
      expect(groups.items).toEqual([
        {
          app: "checkout",
          endpoint: "POST /orders",
          status_code: 503,
          count: 5,
          affected_consumers: 1,
          first_seen_at: "2026-03-30T11:30:00.000Z",
          last_seen_at: "2026-03-30T11:34:00.000Z",
          is_new: true,
        },
      ]);
    });

    it("searches requests with the data route's filters and reads one in full", async () => {
      type Page = { items: Array<Record<string, unknown>>; total_count: number; next_cursor: string | null };
      const failed = await call<Page>(client, "search_requests", {
        ...shop,
        status_classes: "5xx",
        consumer: "acme",
        route: "/orders",
        limit: 2,
      });
      expect(failed.total_count).toBe(5);
      expect(failed.items.map((item) => item.timestamp)).toEqual([
        "2026-03-30T11:34:00.000Z",
        "2026-03-30T11:33:00.000Z",
      ]);
      const last = await call<Page>(client, "search_requests", {
        ...shop,
        status_classes: "5xx",
        limit: 2,
        cursor: (
          await call<Page>(client, "search_requests", {
            ...shop,
            status_classes: "5xx",
            limit: 2,
            cursor: failed.next_cursor,
          })
        ).next_cursor,
      });
      expect(last.items.map((item) => item.timestamp)).toEqual(["2026-03-30T11:30:00.000Z"]);
      expect(last.next_cursor).toBeNull();
      const slow = await call<Page>(client, "search_requests", { ...shop, min_response_time_ms: 300 });
      expect(slow.total_count).toBe(4);
      const traced = await call<Page>(client, "search_requests", { ...shop, trace_id: TRACE });
      expect(traced.items).toHaveLength(1);
      const one = await call<Record<string, unknown>>(client, "get_request", {
        ...shop,
        id: traced.items[0]?.id,
      });
      expect(one).toMatchObject({
        app: "checkout",
        method: "POST",
        route: "/orders",
        status_code: 503,
        response_time_ms: 80,
        consumer_id: "acme",
        request_payload: SECRET,
      });
      const bad = await refused(client, "search_requests", { ...shop, cursor: "not-a-cursor" });
      expect(bad.error).toBe("validation_error");
    });

    it("searches logs and traces and reads one trace", async () => {
      const logs = await call<{ items: Array<Record<string, unknown>>; total_count: number }>(
        client,
        "search_logs",
        {
          ...shop,
          levels: "error",
        },
      );
      expect(logs.total_count).toBe(2);
      expect(logs.items.map((item) => item.message)).toEqual([
        "payment gateway timeout again",
        "payment gateway timeout",
      ]);
      const traces = await call<{ items: Array<Record<string, unknown>> }>(client, "search_traces", shop);
      expect(traces.items).toEqual([
        {
          trace_id: TRACE,
          started_at: "2026-03-30T11:30:00.000Z",
          duration_ms: 120,
          span_count: 2,
          error: true,
          root: "checkout-api: POST /orders",
        },
      ]);
      const trace = await call<Record<string, unknown[]>>(client, "get_trace", { ...shop, trace_id: TRACE });
      expect(trace.spans?.map((span) => (span as { name: string; depth: number }).name)).toEqual([
        "POST /orders",
        "charge card",
      ]);
      expect(trace.requests).toHaveLength(1);
      expect(trace.logs).toHaveLength(2);
    });

    it("reports alert rules, their state and their events", async () => {
      const alerts = await call<{ items: Array<Record<string, unknown>> }>(client, "list_alerts", shop);
      expect(alerts.items).toHaveLength(1);
      expect(alerts.items[0]).toMatchObject({
        id: alertId,
        name: "Checkout failing",
        state: "firing",
        condition: "error_rate gt 5",
      });
      expect(alerts.items[0]?.last_value as number).toBeCloseTo((5 / 34) * 100, 2);
      const events = await call<{ items: Array<Record<string, unknown>> }>(client, "alert_events", {
        ...shop,
        alert_id: alertId,
      });
      expect(events.items).toHaveLength(1);
      expect(events.items[0]).toMatchObject({ from_state: "ok", to_state: "firing", request_count: 34 });
      const rules = await client.readResource({ uri: "sightline://projects/shop/alert-rules" });
      const text = (rules.contents[0] as { text: string }).text;
      expect(JSON.parse(text)).toMatchObject({ project: "shop", rules: [{ id: alertId, state: "firing" }] });
      const openApi = await client.readResource({ uri: "sightline://openapi" });
      const doc = JSON.parse((openApi.contents[0] as { text: string }).text) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(doc.paths)).toContain("/api/v1/mcp");
    });

    it("reads the inferred contract, its changes with affected consumers, and the report", async () => {
      const scope = { ...shop, app: "checkout", environment: "production" };
      const contract = await call<{
        version: number;
        operation_count: number;
        operations: Array<Record<string, unknown>>;
      }>(client, "get_api_contract", scope);
      expect(contract.version).toBe(2);
      expect(contract.operations.map((op) => [op.method, op.path, op.status_codes])).toEqual([
        ["GET", "/legacy", ["200"]],
        ["POST", "/orders", ["201"]],
        ["GET", "/reports", ["200"]],
        ["GET", "/users/{id}", ["200"]],
      ]);
      expect(contract.operations[3]?.parameters).toEqual([
        { name: "id", in: "path", required: true, type: "integer" },
      ]);
      const first = await call<{ version: number; operation_count: number }>(client, "get_api_contract", {
        ...scope,
        version: 1,
      });
      expect([first.version, first.operation_count]).toEqual([1, 3]);
      const one = await call<{ operation: Record<string, unknown> }>(client, "get_api_contract", {
        ...scope,
        method: "get",
        path: "/users/{id}",
      });
      expect(one.operation).toMatchObject({
        method: "GET",
        path: "/users/{id}",
        request_body: null,
        responses: { "200": { description: "Observed 200 response." } },
      });
      expect(
        (await refused(client, "get_api_contract", { ...scope, method: "GET", path: "/nope" })).error,
      ).toBe("not_found");

      const changes = await call<{
        items: Array<Record<string, unknown>>;
        total_count: number;
        next_cursor: string | null;
      }>(client, "list_contract_changes", shop);
      expect(changes.total_count).toBe(1);
      expect(changes.next_cursor).toBeNull();
      expect(changes.items[0]).toMatchObject({
        app: "checkout",
        environment: "production",
        version: 2,
        class: "non-breaking",
        kind: "operation_added",
        operation: "GET /reports",
        affected_consumers_total: 1,
        affected_consumers: [{ consumer_id: "initech", consumer_name: "Initech", requests: 4 }],
      });
      const breaking = await call<{ total_count: number }>(client, "list_contract_changes", {
        ...shop,
        breaking: true,
      });
      expect(breaking.total_count).toBe(0);

      const report = await call<{
        undocumented: Array<Record<string, unknown>>;
        unused: Array<Record<string, unknown>>;
        conformance: Array<Record<string, unknown>>;
      }>(client, "contract_report", scope);
      expect(report.undocumented.map((row) => [row.method, row.path, row.requests])).toEqual(
        expect.arrayContaining([
          ["POST", "/orders", 20],
          ["GET", "/reports", 4],
          ["GET", "/legacy", 5],
        ]),
      );
      expect(report.undocumented).toHaveLength(3);
      expect(report.unused.map((row) => [row.method, row.path, row.requests])).toEqual([
        ["GET", "/health", 0],
      ]);
      expect(report.conformance.map((row) => row.operation)).toContain("GET /users/{id}");

      const resource = await client.readResource({ uri: "sightline://projects/shop/apps/checkout/contract" });
      const document = JSON.parse((resource.contents[0] as { text: string }).text) as {
        openapi: string;
        paths: Record<string, unknown>;
      };
      expect(document.openapi).toBe("3.1.0");
      expect(Object.keys(document.paths).sort()).toEqual(["/legacy", "/orders", "/reports", "/users/{id}"]);
      const older = await client.readResource({
        uri: "sightline://projects/shop/apps/checkout/contract?environment=production&version=1",
      });
      expect(
        Object.keys(JSON.parse((older.contents[0] as { text: string }).text).paths as object),
      ).toHaveLength(3);
      await expect(
        client.readResource({ uri: "sightline://projects/shop/apps/checkout/contract?environment=staging" }),
      ).rejects.toThrow(/No contract inferred yet/);
    });

    it("says what changed between two windows", async () => {
      type Item = Record<string, unknown> & { change: Record<string, number> };
      type Lists = Record<"new" | "vanished" | "requests" | "error_rate" | "latency", Item[]> & {
        complete: boolean;
      };
      const changed = await call<{
        endpoints: Lists;
        consumers: Lists;
        status_codes: { items: unknown[] };
      }>(client, "what_changed", { ...shop, ...WINDOW });
      const names = (items: Item[]) => items.map((item) => item.endpoint ?? item.consumer_id);
      expect(changed.endpoints.complete).toBe(true);
      expect(names(changed.endpoints.new)).toEqual(["GET /reports"]);
      expect(names(changed.endpoints.vanished)).toEqual(["GET /legacy"]);
      expect(names(changed.endpoints.requests)).toEqual(["GET /users/{id}"]);
      expect(
        changed.endpoints.error_rate.map((item) => [item.endpoint, item.change.error_rate_pct_points]),
      ).toEqual([["POST /orders", 50]]);
      expect(
        changed.endpoints.latency.map((item) => [item.endpoint, item.change.p95_response_time_ms]),
      ).toEqual([["POST /orders", 30]]);
      expect(names(changed.consumers.new)).toEqual(["initech"]);
      expect(names(changed.consumers.vanished)).toEqual(["globex"]);
      expect(changed.consumers.vanished[0]).toMatchObject({ baseline_total_requests: 5, total_requests: 0 });
      expect(
        changed.consumers.error_rate.map((item) => [item.consumer_id, item.change.error_rate_pct_points]),
      ).toEqual([["acme", 16.67]]);
      expect(changed.status_codes.items).toEqual([
        { status_code: 503, count: 5, baseline_count: 0, change: 5 },
      ]);
    });

    it("offers an investigation prompt", async () => {
      const prompt = await client.getPrompt({
        name: "investigate_incident",
        arguments: { project: "shop", endpoint: "POST /orders", since: SINCE },
      });
      const text = (prompt.messages[0]?.content as { text: string }).text;
      expect(text).toContain("POST /orders");
      expect(text).toContain(`what_changed with since=${SINCE}`);
    });

    it("answers validation errors and unknown projects as the API does", async () => {
      expect((await refused(client, "traffic_summary", {})).error).toBe("validation_error");
      expect((await refused(client, "traffic_summary", { ...shop, since: "yesterday" })).error).toBe(
        "validation_error",
      );
      expect((await refused(client, "traffic_summary", { project: "elsewhere" })).error).toBe("not_found");
    });
  });

  describe("who may call", () => {
    it("serves a read-only token every tool (they only read) with the same figures", async () => {
      const client = await connect("http", readOnly.token);
      const answer = await call<{ current: { total_requests: number } }>(client, "traffic_summary", {
        project: "shop",
        ...WINDOW,
      });
      expect(answer.current.total_requests).toBe(34);
      const changed = await call<{ consumers: { vanished: unknown[] } }>(client, "what_changed", {
        project: "shop",
        ...WINDOW,
      });
      expect(changed.consumers.vanished).toHaveLength(1);
    });

    it("limits a token to its projects: others are filtered out of lists and not found", async () => {
      const client = await connect("http", limited.token);
      const { projects } = await call<{ projects: Array<{ slug: string }> }>(client, "list_projects", {});
      expect(projects.map((project) => project.slug)).toEqual(["side"]);
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).not.toContain(
        "sightline://projects/shop/alert-rules",
      );
      for (const [name, args] of [
        ["traffic_summary", { project: "shop" }],
        ["search_requests", { project: "shop" }],
        ["list_alerts", { project: "shop" }],
        ["list_contract_changes", { project: "shop" }],
      ] as const) {
        const problem = await refused(client, name, args);
        expect({ name, error: problem.error }).toEqual({ name, error: "not_found" });
      }
      await expect(client.readResource({ uri: "sightline://projects/shop/alert-rules" })).rejects.toThrow(
        /not found/i,
      );
      await expect(
        client.readResource({ uri: "sightline://projects/shop/apps/checkout/contract" }),
      ).rejects.toThrow(/not found/i);
    });

    it("refuses a bad or revoked token at the transport, and accepts a session's access token", async () => {
      await expect(connect("http", "sl_pat_nottherealtoken0000000000000000")).rejects.toThrow();
      const revoked = await tokenOf({ scope: "read", expires_in_days: 1 });
      expect((await fx.owner.delete(`/api/v1/users/me/tokens/${revoked.id}`)).statusCode).toBe(200);
      await expect(connect("http", revoked.token)).rejects.toThrow();
      const jwt = (fx.ownerHeaders.authorization as string).replace(/^Bearer /, "");
      const client = await connect("http", jwt);
      const { projects } = await call<{ projects: unknown[] }>(client, "list_projects", {});
      expect(projects).toHaveLength(2);
    });

    it("answers GET and DELETE with 405: the transport is stateless", async () => {
      for (const method of ["GET", "DELETE"]) {
        const response = await fetch(`${baseUrl}/api/v1/mcp`, {
          method,
          headers: { authorization: `Bearer ${full.token}`, accept: "text/event-stream" },
        });
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("POST");
        expect(response.headers.get("content-type")).toContain("application/problem+json");
      }
    });

    it("ends `sightline mcp` with the CLI's exit codes: no URL 1, no or a refused token 2", async () => {
      const run = async (env: Record<string, string>) => {
        const child = runTs(CLI_PATH, ["mcp"], cleanEnv({ XDG_CONFIG_HOME: configHome, ...env }));
        return { code: (await child.exited()).code, stderr: child.stderr() };
      };
      expect(await run({})).toMatchObject({ code: 1, stderr: expect.stringContaining("no Sightline URL") });
      expect(await run({ SIGHTLINE_URL: baseUrl })).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("not signed in"),
      });
      expect(
        await run({ SIGHTLINE_URL: baseUrl, SIGHTLINE_TOKEN: "sl_pat_nottherealtoken0000000000000000" }),
      ).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("refused the token"),
      });
    }, 90_000);

    it("refuses an unauthenticated POST", async () => {
      const response = await fetch(`${baseUrl}/api/v1/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(response.status).toBe(401);
    });

    it("answers a raw JSON-RPC POST with the request id and security headers every answer carries", async () => {
      const response = await fetch(`${baseUrl}/api/v1/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${readOnly.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-request-id")).toMatch(/.+/);
      const body = (await response.json()) as { id: number; result: { tools: unknown[] } };
      expect(body.id).toBe(7);
      expect(body.result.tools).toHaveLength(19);
      const refused = await fetch(`${baseUrl}/api/v1/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${readOnly.token}`, "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }),
      });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    });
  });

  it("logs each tool call (tool, project, user, duration) and never a record's contents", () => {
    const lines = sink.lines();
    const calls = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === "mcp tool call");
    const tools = new Set(calls.map((entry) => entry.mcp_tool));
    for (const tool of [
      "traffic_summary",
      "what_changed",
      "search_requests",
      "get_request",
      "search_logs",
      "get_trace",
    ])
      expect(tools).toContain(tool);
    for (const entry of calls) {
      expect(typeof entry.duration_ms).toBe("number");
      expect(typeof entry.user_id).toBe("string");
      expect(["ok", "error"]).toContain(entry.outcome);
    }
    const summary = calls.find((entry) => entry.mcp_tool === "traffic_summary" && entry.outcome === "ok");
    expect(summary).toMatchObject({ project: "shop" });
    expect(
      calls.some(
        (entry) =>
          entry.mcp_tool === "traffic_summary" &&
          entry.outcome === "error" &&
          entry.error_code === "not_found",
      ),
    ).toBe(true);
    // The tool answers held all of these; no log line may.
    const text = lines.join("\n");
    for (const content of [SECRET, "Acme Corp", "payment gateway timeout", "/users/42", "Initech"])
      expect({ content, logged: text.includes(content) }).toEqual({ content, logged: false });
  });
});
