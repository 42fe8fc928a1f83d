// Uptime checks end to end, through the routes and the runner's lease-holding scheduler ticked by
// hand on the manual clock: checks against a real local HTTP server (up, down, wrong status, body
// text missing, timeout), results stored in the events store (chDB, and the run's ClickHouse
// server) with exact uptime percentages, the SSRF guard refusing private targets, and the alert
// firing after N consecutive failures and resolving on recovery at a real webhook receiver (the
// alerts' signature checked) — on SQLite and PostgreSQL metadata.
import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { UptimeCheck, UptimeCheckWithUptime, UptimeResults } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probe } from "../../src/modules/uptime/uptime-probe.js";
import { type AlertsFixture, createAlertsFixture, created } from "../alerts/helpers.js";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import type { ReceivedRequest } from "../support/http-receiver.js";
import { type MetadataBackend, metadataBackends } from "../support/metadata.js";

const MINUTE = 60_000;

/** A target whose answers the test sets per path: status and body, or no answer at all. */
interface Target {
  readonly url: string;
  answer(path: string, status: number, body?: string): void;
  hang(path: string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

async function startTarget(): Promise<Target> {
  const answers = new Map<string, { status: number; body: string } | "hang">();
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path) ?? { status: 404, body: "no such path" };
    if (answer === "hang") return;
    response.writeHead(answer.status, { "content-type": "text/plain" });
    response.end(answer.body);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answer: (path, status, body = "") => answers.set(path, { status, body }),
    hang: (path) => answers.set(path, "hang"),
    hits: (path) => hits.get(path) ?? 0,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

function verifySignature(request: ReceivedRequest, secret: string): boolean {
  const timestamp = String(request.headers["x-sightline-timestamp"]);
  const expected = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${request.body}`).digest("hex")}`;
  const given = String(request.headers["x-sightline-signature"]);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** SQLite with chDB always; PostgreSQL and the ClickHouse server when the run has them. */
function backends(): Array<{ name: string; metadata: MetadataBackend; events: EventsBackend }> {
  const [sqlite, postgres] = metadataBackends() as [MetadataBackend, MetadataBackend | undefined];
  const [chdb, server] = eventsBackends() as [EventsBackend, EventsBackend | undefined];
  const cases = [{ name: "sqlite + chdb", metadata: sqlite, events: chdb }];
  if (server !== undefined) {
    cases.push({
      name: `${(postgres ?? sqlite).name} + clickhouse`,
      metadata: postgres ?? sqlite,
      events: server,
    });
  } else if (postgres !== undefined) {
    cases.push({ name: "postgres + chdb", metadata: postgres, events: chdb });
  }
  return cases;
}

describe.each(backends())("uptime checks on $name", ({ metadata, events }) => {
  let fx: AlertsFixture;
  let target: Target;
  const P = "/api/v1/projects/shop/uptime-checks";

  beforeAll(async () => {
    target = await startTarget();
    fx = await createAlertsFixture(
      metadata,
      events.options.clickhouseUrl === undefined ? {} : { CLICKHOUSE_URL: events.options.clickhouseUrl },
    );
  });
  afterAll(async () => {
    await fx?.close();
    await target?.close();
  });

  const check = (body: Record<string, unknown>) => created<UptimeCheck>(fx.owner, P, body);
  const tick = async () => {
    const summary = await fx.ctx.deps.uptime.scheduler.tick();
    await fx.ctx.deps.alerts.deliveries.runDue();
    return summary;
  };
  const read = async (id: string) => {
    const response = await fx.owner.get(`${P}/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UptimeCheckWithUptime>();
  };
  const results = async (id: string, query = "") => {
    const response = await fx.owner.get(`${P}/${id}/results${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UptimeResults>().items;
  };

  it("runs checks against a real server and tells up, wrong status, missing body text, timeout and no server apart", async () => {
    target.answer("/health", 200, '{"status":"ok"}');
    target.answer("/broken", 503, "down for maintenance");
    target.answer("/plain", 200, "hello");
    target.hang("/slow");
    const closed = await startTarget();
    const closedUrl = closed.url;
    await closed.close();

    const up = await check({ name: "Health", url: `${target.url}/health`, body_contains: '"status":"ok"' });
    const broken = await check({ name: "Broken", url: `${target.url}/broken` });
    const bodyless = await check({ name: "Plain", url: `${target.url}/plain`, body_contains: "ok" });
    const slow = await check({ name: "Slow", url: `${target.url}/slow`, timeout_ms: 300 });
    const gone = await check({ name: "Gone", url: `${closedUrl}/health` });
    expect(up).toMatchObject({ method: "GET", interval_seconds: 60, expected_status: 200, state: "unknown" });

    const summary = await tick();
    expect(summary?.checks).toBe(5);

    const [upResult] = await results(up.id);
    expect(upResult).toMatchObject({ ok: true, status_code: 200, error: null });
    expect(upResult?.timestamp).toBe(fx.clock.now().toISOString());
    expect((await read(up.id)).check).toMatchObject({
      state: "up",
      consecutive_failures: 0,
      last_error: null,
    });

    expect((await results(broken.id))[0]).toMatchObject({
      ok: false,
      status_code: 503,
      error: "answered HTTP 503, expected 200",
    });
    expect((await results(bodyless.id))[0]).toMatchObject({
      ok: false,
      status_code: 200,
      error: "the answer's body does not contain the expected text",
    });
    const [slowResult] = await results(slow.id);
    expect(slowResult).toMatchObject({ ok: false, status_code: null, error: "no answer within 300 ms" });
    expect(slowResult?.latency_ms).toBeGreaterThanOrEqual(290);
    expect((await results(gone.id))[0]).toMatchObject({ ok: false, status_code: null });
    expect((await results(gone.id))[0]?.error).toContain("ECONNREFUSED");
    // One failure of the default three: not down yet.
    expect((await read(broken.id)).check).toMatchObject({ state: "unknown", consecutive_failures: 1 });

    // Not due again before its interval.
    const hits = target.hits("/health");
    expect((await tick())?.checks).toBe(0);
    expect(target.hits("/health")).toBe(hits);

    for (const id of [broken.id, bodyless.id, slow.id, gone.id]) {
      expect((await fx.owner.delete(`${P}/${id}`)).statusCode).toBe(200);
    }
    // The list carries the percentages; a check with one good run is 100 % up.
    const listed = (await fx.owner.get(P)).json<UptimeCheckWithUptime[]>();
    expect(listed.map((item) => item.check.id)).toEqual([up.id]);
    expect(listed[0]?.uptime).toEqual({ last_24h: 100, last_7d: 100, last_30d: 100 });
    expect((await fx.owner.delete(`${P}/${up.id}`)).statusCode).toBe(200);
  });

  it("computes exact uptime percentages over 24 hours, 7 days and 30 days", async () => {
    target.answer("/flaky", 200, "ok");
    const flaky = await check({ name: "Flaky", url: `${target.url}/flaky`, interval_seconds: 3600 });
    // 20 days ago: 3 good runs, 1 bad; 3 days ago: 2 good, 2 bad; in the last hours: 3 good, 1 bad.
    const plan: Array<[number, boolean[]]> = [
      [20 * 24 * 60, [true, true, true, false]],
      [3 * 24 * 60, [true, true, false, false]],
      [4 * 60, [true, false, true, true]],
    ];
    const start = fx.clock.now().getTime();
    const end = start + plan[0]![0] * MINUTE;
    for (const [minutesBeforeEnd, runs] of plan) {
      for (const ok of runs) {
        const at = end - minutesBeforeEnd * MINUTE;
        fx.clock.advance(Math.max(0, at - fx.clock.now().getTime()));
        target.answer("/flaky", ok ? 200 : 500, "ok");
        expect((await tick())?.checks).toBe(1);
        fx.clock.advance(60 * MINUTE);
      }
    }
    fx.clock.advance(end - fx.clock.now().getTime());
    const { uptime } = await read(flaky.id);
    // 24 h: 3 of 4 = 75 %; 7 d: 5 of 8 = 62.5 %; 30 d: 8 of 12 = 66.667 %.
    expect(uptime).toEqual({ last_24h: 75, last_7d: 62.5, last_30d: 66.667 });
    const failures = await results(flaky.id, `?since=${new Date(start).toISOString()}&failures_only=true`);
    expect(failures).toHaveLength(4);
    expect(failures.every((result) => !result.ok && result.status_code === 500)).toBe(true);
    expect((await fx.owner.delete(`${P}/${flaky.id}`)).statusCode).toBe(200);
  });

  it("fires after N consecutive failures and resolves on recovery, through a signed webhook", async () => {
    const hook = await created<{ id: string; secret: string }>(
      fx.owner,
      "/api/v1/projects/shop/notification-channels",
      {
        name: "uptime hook",
        type: "webhook",
        url: `${fx.receiver.url}/hooks/uptime`,
      },
    );
    target.answer("/api", 200, "fine");
    const api = await check({
      name: "Public API",
      url: `${target.url}/api`,
      interval_seconds: 30,
      failure_threshold: 2,
      channel_ids: [hook.id],
    });
    const run = async () => {
      await tick();
      fx.clock.advance(30_000);
    };
    await run();
    expect((await read(api.id)).check.state).toBe("up");

    target.answer("/api", 502, "bad gateway");
    await run();
    expect((await read(api.id)).check).toMatchObject({ state: "up", consecutive_failures: 1 });
    expect(fx.receiver.on("/hooks/uptime")).toHaveLength(0);
    await run();
    expect((await read(api.id)).check).toMatchObject({ state: "down", consecutive_failures: 2 });
    const calls = fx.receiver.on("/hooks/uptime");
    expect(calls).toHaveLength(1);
    expect(verifySignature(calls[0] as ReceivedRequest, hook.secret)).toBe(true);
    expect(calls[0]?.headers["x-sightline-event"]).toBe("uptime.firing");
    expect(JSON.parse(calls[0]?.body ?? "null")).toMatchObject({
      type: "uptime.firing",
      subject: "uptime",
      kind: "firing",
      project: { slug: "shop", name: "Shop" },
      check: { id: api.id, name: "Public API", method: "GET", failure_threshold: 2 },
      consecutive_failures: 2,
      result: { status_code: 502, error: "answered HTTP 502, expected 200" },
      links: { check: `https://sightline.example.com/projects/shop/uptime/${api.id}` },
    });
    // Still down: no further notification.
    await run();
    expect(fx.receiver.on("/hooks/uptime")).toHaveLength(1);

    target.answer("/api", 200, "fine");
    await run();
    expect((await read(api.id)).check).toMatchObject({ state: "up", consecutive_failures: 0 });
    const after = fx.receiver.on("/hooks/uptime");
    expect(after).toHaveLength(2);
    expect(after[1]?.headers["x-sightline-event"]).toBe("uptime.resolved");
    expect(verifySignature(after[1] as ReceivedRequest, hook.secret)).toBe(true);
    expect(JSON.parse(after[1]?.body ?? "null")).toMatchObject({
      kind: "resolved",
      result: { status_code: 200 },
    });
  });

  it("refuses bad input with field errors", async () => {
    const refused = await fx.owner.post(P, { name: "x", url: "ftp://example.com/" });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain("/url");
    const short = await fx.owner.post(P, { name: "x", url: "https://example.com", interval_seconds: 10 });
    expect(short.statusCode).toBe(422);
    // A header name that is not an HTTP token is refused when saved, naming the headers field.
    const header = await fx.owner.post(P, {
      name: "x",
      url: "https://example.com",
      headers: { "Bad Header": "x" },
    });
    expect(header.statusCode).toBe(422);
    expect(
      header.json<{ errors: Array<{ pointer: string }> }>().errors.map((error) => error.pointer),
    ).toEqual([expect.stringMatching(/^\/headers/)]);
    const timeout = await fx.owner.post(P, {
      name: "x",
      url: "https://example.com",
      interval_seconds: 30,
      timeout_ms: 30_000,
    });
    expect(timeout.statusCode).toBe(201);
    const missing = await fx.owner.get(`${P}/0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21`);
    expect(missing.statusCode).toBe(404);
    expect((await fx.owner.delete(`${P}/${timeout.json<UptimeCheck>().id}`)).statusCode).toBe(200);
  });
});

describe("the SSRF guard on uptime checks", () => {
  let fx: AlertsFixture;
  let target: Target;
  beforeAll(async () => {
    target = await startTarget();
    fx = await createAlertsFixture({ name: "sqlite" }, { ALERTS_ALLOW_PRIVATE_TARGETS: "false" });
  });
  afterAll(async () => {
    await fx?.close();
    await target?.close();
  });

  it("refuses loopback, private and localhost URLs when saved", async () => {
    for (const url of [
      `${target.url}/health`,
      "http://10.0.0.8/",
      "http://localhost:8080/",
      "http://[::1]/",
    ]) {
      const response = await fx.owner.post("/api/v1/projects/shop/uptime-checks", { name: "internal", url });
      expect(response.statusCode, url).toBe(422);
      expect(response.body).toContain("ALERTS_ALLOW_PRIVATE_TARGETS");
    }
  });

  it("refuses a private address at run time without connecting", async () => {
    target.answer("/health", 200, "ok");
    const result = await probe(
      {
        url: `${target.url}/health`,
        method: "GET",
        headers: {},
        timeoutMs: 1000,
        expectedStatus: 200,
        bodyContains: null,
      },
      false,
    );
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).toContain("must not point at a loopback");
    expect(target.hits("/health")).toBe(0);
    // The same target with private targets allowed answers.
    const allowed = await probe(
      {
        url: `${target.url}/health`,
        method: "GET",
        headers: { "x-probe": "1" },
        timeoutMs: 1000,
        expectedStatus: 200,
        bodyContains: "ok",
      },
      true,
    );
    expect(allowed).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(target.hits("/health")).toBe(1);
  });
});
