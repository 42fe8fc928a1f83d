// Sightline on a real two-shard ClickHouse cluster (test/support/clickhouse-cluster.ts), over real
// HTTP: the same records ingested into the cluster and into the run's single server answer every
// analytics and data route with the same figures, the rows really lie on both shards, and a shard
// that goes away is a clear 503 until it returns. The cluster has no Keeper, so its schema is the
// per-node DDL (CLICKHOUSE_CLUSTER_DDL=per-node), applied to each node; ON CLUSTER and Replicated
// engines are checked on their text only (src/stores/events/migrations/ddl-text.test.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type EventsExecutor, migrateEvents, openEventsExecutor } from "../../src/stores/events/index.js";
import { storedRowIds } from "../../src/stores/events/queries/ingest/stored-rows.js";
import { type RemoteIngest, setUpRemoteIngest } from "../ingest/remote.js";
import { type ClickhouseCluster, startClickhouseCluster } from "../support/clickhouse-cluster.js";
import { testChdbPath, uniqueDatabaseName } from "../support/events.js";
import { type Child, cleanEnv, startCliOnFreePort } from "../support/process.js";

const clickhouseUrl = inject("clickhouseUrl");
const onServer = describe.runIf(clickhouseUrl !== undefined && clickhouseUrl !== "");

const HOUR = 3_600_000;
/** Whole hours, so both stores bucket the records alike whenever the test runs. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
const WINDOW = `since=${new Date(BASE - HOUR).toISOString()}&until=${new Date(BASE + 4 * HOUR).toISOString()}`;
/** Three days back: whole UTC days, which the daily rollup tiers answer. */
const WIDE = `since=${new Date(BASE - 72 * HOUR).toISOString()}&until=${new Date(BASE + 4 * HOUR).toISOString()}`;
const ROUTES = ["/orders/{id}", "/orders", "/users/{id}", "/health", "/search"];
const STATUSES = [200, 200, 200, 201, 204, 301, 400, 404, 422, 500, 503];
const TRACES = 10;

interface Sightline {
  readonly child: Child;
  readonly baseUrl: string;
  readonly dataDir: string;
  remote: RemoteIngest;
}

async function startSightline(env: Record<string, string>): Promise<Sightline> {
  const dataDir = await mkdtemp(join(tmpdir(), "sightline-cluster-"));
  const { child, port } = await startCliOnFreePort(
    (free) =>
      cleanEnv({
        DATA_DIR: dataDir,
        PORT: String(free),
        LOG_LEVEL: "warn",
        CLICKHOUSE_DASHBOARD_TIMEOUT: "10",
        ...env,
      }),
    90_000,
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  return { child, baseUrl, dataDir, remote: await setUpRemoteIngest(baseUrl, join(dataDir, "outbox")) };
}

/** The same records for both stores, placed deterministically in three whole hours. */
function dataset(app: string) {
  const at = (i: number, count: number) => new Date(BASE + Math.floor((i * 3 * HOUR) / count)).toISOString();
  const requests = Array.from({ length: 600 }, (_, i) => ({
    app_id: app,
    timestamp: at(i, 600),
    environment: i % 4 === 0 ? "staging" : "production",
    method: i % 3 === 0 ? "POST" : "GET",
    path: (ROUTES[i % ROUTES.length] ?? "/").replace("{id}", String(i % 17)),
    route: ROUTES[i % ROUTES.length],
    status_code: STATUSES[(i * 7) % STATUSES.length],
    response_time_ms: ((i * 37) % 900) + 0.5,
    request_size: (i * 13) % 4000,
    response_size: (i * 29) % 20000,
    consumer_id: i % 5 === 0 ? "" : `customer-${i % 9}`,
    consumer_name: `Customer ${i % 9}`,
    consumer_group: i % 2 === 0 ? "enterprise" : "free",
    ...(i < TRACES ? { trace_id: traceId(i), span_id: spanId(i, 0) } : {}),
  }));
  const logs = Array.from({ length: 90 }, (_, i) => ({
    app_id: app,
    timestamp: at(i, 90),
    level: ["info", "warn", "error"][i % 3],
    message: `order ${i % 7} ${i % 3 === 2 ? "failed" : "handled"}`,
    logger_name: "app.orders",
    consumer_id: `customer-${i % 9}`,
  }));
  const spans = Array.from({ length: TRACES * 3 }, (_, i) => {
    const trace = Math.floor(i / 3);
    const position = i % 3;
    return {
      app_id: app,
      timestamp: at(trace, TRACES),
      trace_id: traceId(trace),
      span_id: spanId(trace, position),
      ...(position === 0 ? {} : { parent_span_id: spanId(trace, 0) }),
      name: position === 0 ? "GET /orders/{id}" : `step ${position}`,
      kind: position === 0 ? "server" : "internal",
      duration_ms: 5 + trace + position,
    };
  });
  return { requests, logs, spans };
}
const traceId = (i: number) => i.toString(16).padStart(32, "a");
const spanId = (trace: number, position: number) => `${trace.toString(16)}${position}`.padStart(16, "b");

/** Answers without what differs between two installations by design: ids assigned at ingest,
 *  the project's and app's own ids, and the instant each page was served. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !["id", "project_id", "app_id", "next_cursor", "generated_at"].includes(key))
        .map(([key, inner]) => [key, comparable(inner)]),
    );
  }
  return value;
}

onServer("Sightline on a two-shard ClickHouse cluster", () => {
  const database = uniqueDatabaseName("cluster");
  let cluster: ClickhouseCluster;
  const nodes: EventsExecutor[] = [];
  let clustered: Sightline | undefined;
  let single: Sightline | undefined;

  async function get(on: Sightline, path: string): Promise<{ status: number; type: string; body: unknown }> {
    const response = await fetch(`${on.baseUrl}/api/v1${path}`, {
      headers: { authorization: `Bearer ${on.remote.accessToken}` },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get("content-type") ?? "",
      body: JSON.parse(text),
    };
  }

  async function post(on: Sightline, path: string, body: unknown): Promise<void> {
    const response = await fetch(`${on.baseUrl}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": on.remote.key },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${path}: ${text}`).toBe(200);
    expect(JSON.parse(text), path).toMatchObject({ rejected: 0 });
    expect(JSON.parse(text), path).not.toHaveProperty("ignored_fields");
  }

  beforeAll(async () => {
    cluster = await startClickhouseCluster();
    const clusterOption = { name: cluster.name, ddl: "per-node" } as const;
    // Per-node DDL: the schema goes onto each node; the serving instance then finds it current.
    for (const url of cluster.urls) {
      const node = await openEventsExecutor({
        clickhouseUrl: url,
        chdbPath: testChdbPath(),
        database,
        cluster: clusterOption,
      });
      await migrateEvents(node);
      nodes.push(node);
    }
    [clustered, single] = await Promise.all([
      startSightline({
        CLICKHOUSE_URL: cluster.urls[0] ?? "",
        CLICKHOUSE_DATABASE: database,
        CLICKHOUSE_CLUSTER: cluster.name,
        CLICKHOUSE_CLUSTER_DDL: "per-node",
        EVENTS_DDL: "off",
      }),
      startSightline({ CLICKHOUSE_URL: clickhouseUrl, CLICKHOUSE_DATABASE: database }),
    ]);
    for (const on of [clustered, single]) {
      const { requests, logs, spans } = dataset(on.remote.appSlug);
      await post(on, "/ingest/requests", { requests });
      await post(on, "/ingest/logs", { logs });
      await post(on, "/ingest/traces", { spans });
    }
  }, 240_000);

  afterAll(async () => {
    for (const on of [clustered, single]) {
      if (on === undefined) continue;
      if (on.child.process.exitCode === null) on.child.process.kill("SIGTERM");
      await on.child.exited();
      await rm(on.dataDir, { recursive: true, force: true });
    }
    await Promise.all(nodes.map((node) => node.close()));
    const server = await openEventsExecutor({ clickhouseUrl, chdbPath: testChdbPath(), database });
    await server.command(`DROP DATABASE IF EXISTS ${database}`);
    await server.close();
    await cluster?.stop();
  }, 60_000);

  const routes = (on: Sightline): string[] => {
    const project = `/projects/${on.remote.projectSlug}`;
    const app = `/apps/${on.remote.appSlug}`;
    const scope = `project=${on.remote.projectSlug}&${WINDOW}`;
    const endpoint = `method=GET&path=${encodeURIComponent("/orders/{id}")}`;
    return [
      `${project}/analytics/summary?${WINDOW}`,
      `${project}/analytics/timeseries?${WINDOW}&interval=15m`,
      `${project}/analytics/environments`,
      `${project}/analytics/endpoints?${WINDOW}`,
      `${project}/analytics/consumers?${WINDOW}`,
      `${project}/analytics/errors?${WINDOW}`,
      `${project}/analytics/summary?${WIDE}`,
      `${project}/analytics/endpoints?${WIDE}`,
      `${project}/analytics/errors?${WIDE}`,
      `${project}/analytics/error-issues?${WINDOW}`,
      `${app}/analytics/summary?${scope}`,
      `${app}/analytics/timeseries?${scope}&interval=1h`,
      `${app}/endpoint-stats?${scope}`,
      `${app}/consumers?${scope}`,
      `${app}/analytics/endpoint-detail?${scope}&${endpoint}`,
      `${app}/analytics/endpoint-timeseries?${scope}&${endpoint}`,
      `${app}/analytics/endpoint-consumers?${scope}&${endpoint}`,
      `${app}/analytics/endpoint-status-codes?${scope}&${endpoint}`,
      `${project}/data/requests?${WINDOW}&page_size=1000`,
      `${project}/data/logs?${WINDOW}&page_size=1000`,
      `${project}/data/traces?${WINDOW}`,
      `${project}/data/traces/${traceId(3)}`,
    ];
  };

  it("answers every analytics and data route with the figures of one node", async () => {
    if (clustered === undefined || single === undefined) throw new Error("not started");
    const on = [clustered, single] as const;
    const [clusterRoutes, singleRoutes] = [routes(clustered), routes(single)];
    for (const [index, path] of clusterRoutes.entries()) {
      const [fromCluster, fromSingle] = await Promise.all([
        get(on[0], path),
        get(on[1], singleRoutes[index] ?? ""),
      ]);
      // Soft: one run reports every route that differs.
      expect.soft(fromCluster.status, `${path}: ${JSON.stringify(fromCluster.body)}`).toBe(200);
      expect.soft(fromSingle.status, `${path}: ${JSON.stringify(fromSingle.body)}`).toBe(200);
      expect.soft(comparable(fromCluster.body), path).toEqual(comparable(fromSingle.body));
    }
    // Not vacuous: the window holds the records.
    const summary = await get(
      clustered,
      `/projects/${clustered.remote.projectSlug}/analytics/summary?${WINDOW}`,
    );
    expect(summary.body).toMatchObject({ total_requests: 600 });
  });

  it("spreads one project's rows over both shards", async () => {
    for (const table of ["api_requests", "api_logs", "api_spans"]) {
      const counts = await Promise.all(
        nodes.map(async (node) => {
          const [row] = await node.query<{ n: number }>(
            `SELECT count() AS n FROM ${database}.${table}_local`,
          );
          return row?.n ?? 0;
        }),
      );
      const expected = { api_requests: 600, api_logs: 90, api_spans: TRACES * 3 }[table];
      expect(
        counts.reduce((sum, n) => sum + n, 0),
        table,
      ).toBe(expected);
      for (const n of counts) expect(n, `${table} per shard: ${counts.join("/")}`).toBeGreaterThan(0);
    }
    // Each shard's view rolled up its own rows; the Distributed rollup merges them.
    const rolledUp = await Promise.all(
      nodes.map(async (node) => {
        const [row] = await node.query<{ n: number }>(
          `SELECT sum(requests) AS n FROM ${database}.api_requests_hourly_local`,
        );
        return row?.n ?? 0;
      }),
    );
    for (const n of rolledUp) expect(n, `hourly rollup per shard: ${rolledUp.join("/")}`).toBeGreaterThan(0);
    const [whole] = await (nodes[0] as EventsExecutor).query<{ n: number }>(
      `SELECT sum(requests) AS n FROM ${database}.api_requests_hourly`,
    );
    expect(whole?.n).toBe(600);
    // The tiers: the daily rollups fed on each shard from its hourly rollup's local table.
    for (const table of ["api_endpoints_hourly", "api_requests_daily"]) {
      const perShard = await Promise.all(
        nodes.map(async (node) => {
          const [row] = await node.query<{ n: number }>(
            `SELECT sum(requests) AS n FROM ${database}.${table}_local`,
          );
          return row?.n ?? 0;
        }),
      );
      for (const n of perShard) expect(n, `${table} per shard: ${perShard.join("/")}`).toBeGreaterThan(0);
      expect(
        perShard.reduce((sum, n) => sum + n, 0),
        table,
      ).toBe(600);
    }
    // Migration 10 reads api_requests' partitions through the Distributed table on a cluster.
    const partitions = await (nodes[0] as EventsExecutor).query<{ id: string }>(
      `SELECT DISTINCT _partition_id AS id FROM ${database}.api_requests`,
    );
    expect(partitions.length).toBeGreaterThan(0);
    // Ingest's idempotency probe (select_sequential_consistency = 1) through the Distributed table
    // finds rows of both shards.
    const stored = await (nodes[0] as EventsExecutor).query<{
      id: string;
      project_id: string;
      at: string;
      shard: number;
    }>(
      `SELECT toString(id) AS id, project_id, timestamp AS at, _shard_num AS shard FROM ${database}.api_requests ` +
        "ORDER BY timestamp, id LIMIT 1 BY _shard_num",
    );
    expect(new Set(stored.map((row) => row.shard)).size).toBe(2);
    const keys = stored.map((row) => ({ id: row.id, timestampMs: Date.parse(row.at) }));
    const found = await storedRowIds(
      nodes[0] as EventsExecutor,
      "api_requests",
      stored[0]?.project_id ?? "",
      [...keys, { id: "00000000-0000-4000-8000-000000000000", timestampMs: keys[0]?.timestampMs ?? 0 }],
    );
    expect(found).toEqual(new Set(stored.map((row) => row.id)));
  });

  it("refuses, on a cluster, a database created for one node", async () => {
    const url = cluster.urls[0] ?? "";
    const plain = uniqueDatabaseName("plain");
    const node = await openEventsExecutor({ clickhouseUrl: url, chdbPath: testChdbPath(), database: plain });
    try {
      await migrateEvents(node);
      const clustered = await openEventsExecutor({
        clickhouseUrl: url,
        chdbPath: testChdbPath(),
        database: plain,
        cluster: { name: cluster.name, ddl: "per-node" },
      });
      await expect(migrateEvents(clustered)).rejects.toThrow(
        /created for one node .*MergeTree, not Distributed/,
      );
      await clustered.close();
    } finally {
      await node.command(`DROP DATABASE IF EXISTS ${plain}`);
      await node.close();
    }
  });

  it("answers 503 problem+json while a shard is down, and recovers when it returns", async () => {
    if (clustered === undefined) throw new Error("not started");
    const path = `/projects/${clustered.remote.projectSlug}/analytics/summary?${WINDOW}`;
    await cluster.pause(1);
    const started = Date.now();
    const down = await get(clustered, path);
    expect(down.status, JSON.stringify(down.body)).toBe(503);
    expect(down.type).toContain("application/problem+json");
    expect(down.body).toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(20_000);
    // Ingest too: a batch the shards cannot all store is refused, never acknowledged.
    const log = {
      app_id: clustered.remote.appSlug,
      timestamp: new Date(BASE).toISOString(),
      level: "info",
      message: "x",
    };
    const logs = Array.from({ length: 8 }, (_, i) => ({ ...log, message: `during outage ${i}` }));
    const ingest = await fetch(`${clustered.baseUrl}/api/v1/ingest/logs`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": clustered.remote.key },
      body: JSON.stringify({ logs }),
      signal: AbortSignal.timeout(60_000),
    });
    const ingestBody = await ingest.text();
    expect(ingest.status, ingestBody).toBe(503);
    expect(ingest.headers.get("content-type")).toContain("application/problem+json");
    await cluster.resume(1);
    const up = await get(clustered, path);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ total_requests: 600 });
    await post(clustered, "/ingest/logs", { logs });
  }, 120_000);
});
