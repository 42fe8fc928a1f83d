// The product over real HTTP with its events on the run's real ClickHouse server: the CLI in a
// child process, then ingest -> request list -> analytics summary -> an alert evaluated and
// delivered -> a trace in full.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openEventsExecutor } from "../../src/stores/events/index.js";
import { type RemoteIngest, setUpRemoteIngest } from "../ingest/remote.js";
import { testChdbPath, uniqueDatabaseName } from "../support/events.js";
import { type HttpReceiver, startHttpReceiver } from "../support/http-receiver.js";
import { type Child, cleanEnv, startCliOnFreePort } from "../support/process.js";

const clickhouseUrl = inject("clickhouseUrl");
const onServer = describe.runIf(clickhouseUrl !== undefined && clickhouseUrl !== "");
const TRACE = randomBytes(16).toString("hex");
const ROOT_SPAN = randomBytes(8).toString("hex");

onServer("Sightline on a ClickHouse server", () => {
  const database = uniqueDatabaseName("e2e");
  let dataDir: string;
  let server: Child | undefined;
  let baseUrl: string;
  let remote: RemoteIngest;
  let receiver: HttpReceiver;

  /** Calls the API as the signed-in owner, or with a project key, expecting `status`. */
  async function send(
    method: "GET" | "POST",
    path: string,
    options: { body?: unknown; key?: string; status?: number } = {},
  ): Promise<unknown> {
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.key === undefined
          ? { authorization: `Bearer ${remote.accessToken}` }
          : { "x-api-key": options.key }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    expect(response.status, `${method} ${path}: ${text}`).toBe(options.status ?? 200);
    return JSON.parse(text) as unknown;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "sightline-ch-e2e-"));
    receiver = await startHttpReceiver();
    const started = await startCliOnFreePort((port) =>
      cleanEnv({
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: "warn",
        CLICKHOUSE_URL: clickhouseUrl,
        CLICKHOUSE_DATABASE: database,
        // Evaluate every second, and let the webhook reach the loopback receiver.
        ALERTS_EVAL_INTERVAL_SECONDS: "1",
        ALERTS_ALLOW_PRIVATE_TARGETS: "true",
      }),
    );
    server = started.child;
    baseUrl = `http://127.0.0.1:${started.port}`;
    remote = await setUpRemoteIngest(baseUrl, join(dataDir, "outbox"));
  }, 120_000);

  afterAll(async () => {
    if (server?.process.exitCode === null) server.process.kill("SIGTERM");
    await server?.exited();
    const events = await openEventsExecutor({ clickhouseUrl, chdbPath: testChdbPath(), database });
    await events.command(`DROP DATABASE IF EXISTS ${database}`);
    await events.close();
    await receiver.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("stores ingested requests and spans there and answers lists, analytics, alerts and traces", async () => {
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
    const requests = [200, 201, 404, 500].map((status, i) => ({
      app_id: remote.appSlug,
      timestamp: at(60 - i),
      environment: "production",
      method: "POST",
      path: `/orders/${i}`,
      route_template: "/orders/{id}",
      status_code: status,
      response_time_ms: 10 * (i + 1),
      ...(i === 0 ? { trace_id: TRACE, span_id: ROOT_SPAN } : {}),
    }));
    const key = remote.key;
    expect(await send("POST", "/ingest/requests", { body: { requests }, key })).toMatchObject({
      accepted: 4,
    });
    const child = randomBytes(8).toString("hex");
    const spans = [
      { span_id: ROOT_SPAN, name: "POST /orders/{id}", kind: "server", duration_ms: 10 },
      { span_id: child, parent_span_id: ROOT_SPAN, name: "db insert", kind: "db", duration_ms: 4 },
    ].map((span) => ({ ...span, app_id: remote.appSlug, timestamp: at(60), trace_id: TRACE }));
    expect(await send("POST", "/ingest/traces", { body: { spans }, key })).toMatchObject({ accepted: 2 });

    const project = `/projects/${remote.projectSlug}`;
    const list = (await send("GET", `${project}/data/requests`)) as {
      total_count: number;
      items: Array<{ status_code: number }>;
    };
    expect(list.total_count).toBe(4);
    expect(list.items.map((item) => item.status_code).sort()).toEqual([200, 201, 404, 500]);

    const summary = await send("GET", `${project}/analytics/summary`);
    expect(summary).toMatchObject({ total_requests: 4, error_count: 2, client_errors: 1, server_errors: 1 });

    const hook = (await send("POST", `${project}/notification-channels`, {
      body: { name: "hook", type: "webhook", url: `${receiver.url}/alerts` },
      status: 201,
    })) as { id: string };
    const rule = {
      name: "Orders failing",
      scope: { app: remote.appSlug },
      metric: "error_rate",
      error_status_from: 500,
      comparator: "gt",
      threshold: 20,
      window_seconds: 300,
      channel_ids: [hook.id],
    };
    await send("POST", `${project}/alerts`, { body: rule, status: 201 });
    const deadline = Date.now() + 30_000;
    while (receiver.on("/alerts").length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const [delivered] = receiver.on("/alerts");
    expect(delivered, "no alert delivered within 30 s").toBeDefined();
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({ value: 25, request_count: 4 });

    const trace = (await send("GET", `${project}/data/traces/${TRACE}`)) as {
      spans: Array<{ name: string; depth: number }>;
      requests: Array<{ path: string }>;
    };
    expect(trace.spans.map((span) => [span.name, span.depth])).toEqual([
      ["POST /orders/{id}", 0],
      ["db insert", 1],
    ]);
    expect(trace.requests.map((request) => request.path)).toEqual(["/orders/0"]);

    // The rows are on the server, in the database the CLI was given.
    const events = await openEventsExecutor({ clickhouseUrl, chdbPath: testChdbPath(), database });
    try {
      const [row] = await events.query<{ n: number }>(`SELECT count() AS n FROM ${database}.api_requests`);
      expect(row?.n).toBe(4);
    } finally {
      await events.close();
    }
  });
});
