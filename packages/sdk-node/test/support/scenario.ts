// The suite every adapter runs: a real app of the framework, instrumented with the SDK, serving
// the same five routes on an ephemeral port and sending to a real Sightline; what arrives is
// read back through the query routes. Each adapter's test file only builds its app.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSightline, type Sightline, type SightlineOptions } from "../../src/index.js";
import {
  eventually,
  type RealSightline,
  type StoredLog,
  type StoredRequest,
  startSightline,
} from "./sightline.js";

/** What each framework's test app serves (and how):
 *  GET  /orders/:id                     200 {"id": id}; setConsumer from the x-customer header
 *  POST /orders                         201 {"ok": true, "token": "t0p-s3cret"} (JSON body parsed)
 *  GET  /boom                           throws Error("kaboom") (the framework answers 500)
 *  GET  /nested/:tenant/items/:itemId   200, served by a mounted router/prefix where the framework has one
 *  anything else                        the framework's 404 */
export interface ServedApp {
  readonly url: string;
  close(): Promise<void>;
}

export interface AdapterSuiteOptions {
  /** Starts the app in this process, instrumented with the given client. */
  readonly start?: (sightline: Sightline) => Promise<ServedApp>;
  /** Starts an app that runs in its own process with its own client (Next.js), sending to `target`. */
  readonly startExternal?: (target: RealSightline) => Promise<ServedApp>;
  /** Whether requests no route matched pass through the instrumentation (not in Next.js). Default: true. */
  readonly unmatched?: boolean;
  /** Milliseconds the app may take to start (a `next build` takes a while). Default: the config's. */
  readonly startTimeoutMs?: number;
  /** Route template the nested route is recorded under (frameworks differ in what they know). */
  readonly nestedRoute?: string;
  /** The framework parses JSON request bodies, so the request payload can be captured. */
  readonly requestBodies?: boolean;
  /** Extra SDK options. */
  readonly sdk?: SightlineOptions;
}

export const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

export function adapterSuite(name: string, options: AdapterSuiteOptions): void {
  describe(`${name} instrumented with @sightline/node, sending to a real Sightline`, () => {
    let sightline: RealSightline;
    let sdk: Sightline | undefined;
    const unmatched = options.unmatched ?? true;
    let served: ServedApp;
    let requests: StoredRequest[];
    let logs: StoredLog[];
    const answers: Record<string, number> = {};
    const warnings: string[] = [];

    // Sightline stores the query string apart from the path; compare the target as requested.
    const byPath = (path: string) =>
      requests.filter((r) => (r.query === "" ? r.path : `${r.path}?${r.query}`) === path);

    beforeAll(async () => {
      sightline = await startSightline();
      if (options.startExternal !== undefined) {
        served = await options.startExternal(sightline);
      } else {
        sdk = createSightline({
          apiKey: sightline.key,
          app: sightline.app,
          url: sightline.url,
          environment: " Staging ",
          flushIntervalMs: 50,
          captureHeaders: true,
          redactHeaders: [/^x-internal-/],
          captureBodies: true,
          logger: { warn: (message) => warnings.push(message) },
          ...options.sdk,
        });
        served = await (options.start as (client: Sightline) => Promise<ServedApp>)(sdk);
      }
      const call = async (label: string, path: string, init: RequestInit = {}) => {
        const response = await fetch(`${served.url}${path}`, init);
        await response.arrayBuffer();
        answers[label] = response.status;
      };
      await call("order", "/orders/42?expand=items&token=abc", {
        headers: {
          "x-customer": "acme",
          traceparent: TRACEPARENT,
          authorization: "Bearer do-not-store",
          "x-internal-secret": "hidden",
          "user-agent": "sdk-suite/1.0",
        },
      });
      await call("create", "/orders", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ sku: "A-1", password: "hunter2", card: { number: "4242" } }),
      });
      await call("boom", "/boom");
      await call("nested", "/nested/t-9/items/77");
      await call("missing", "/nowhere/123");
      const expected = unmatched ? 5 : 4;
      if (sdk !== undefined) {
        const stats = await sdk.close();
        expect(stats.requests.failed).toBe(0);
        expect(stats.requests.sent).toBe(expected);
      }
      // Another process's client flushes on its own timer.
      requests = await eventually(
        () => sightline.requests(),
        (items) => items.length >= expected,
      );
      logs = await eventually(
        () => sightline.logs(),
        (items) => items.some((log) => log.level === "ERROR"),
      );
    }, options.startTimeoutMs);

    afterAll(async () => {
      await served?.close();
      await sdk?.close();
      await sightline?.close();
    });

    it("leaves the app's answers as they are", () => {
      expect(answers).toEqual({ order: 200, create: 201, boom: 500, nested: 200, missing: 404 });
    });

    it("records every request once, with the framework's route template", () => {
      expect(requests).toHaveLength(unmatched ? 5 : 4);
      expect(byPath("/orders/42?expand=items&token=%5BREDACTED%5D")[0]?.route).toBe("/orders/{id}");
      expect(byPath("/orders")[0]?.route).toBe("/orders");
      expect(byPath("/boom")[0]?.route).toBe("/boom");
      expect(byPath("/nested/t-9/items/77")[0]?.route).toBe(
        options.nestedRoute ?? "/nested/{tenant}/items/{itemId}",
      );
    });

    // Next.js answers unmatched paths outside any wrapped handler: nothing to check there.
    if (unmatched)
      it("leaves unmatched requests to the server's template rules", () => {
        const [missing] = byPath("/nowhere/123");
        expect(missing?.status_code).toBe(404);
        expect(missing?.route).toBe("/nowhere/{id}");
      });

    it("records statuses, methods, sizes, timing, the environment and the client", () => {
      const [order] = byPath("/orders/42?expand=items&token=%5BREDACTED%5D");
      expect(order).toMatchObject({
        method: "GET",
        status_code: 200,
        environment: "staging",
        ip_address: "127.0.0.1",
        user_agent: "sdk-suite/1.0",
      });
      expect(order?.response_size).toBe(Buffer.byteLength(JSON.stringify({ id: "42" })));
      expect(order?.response_time_ms).toBeGreaterThan(0);
      expect(order?.response_time_ms).toBeLessThan(10_000);
      const [create] = byPath("/orders");
      expect(create).toMatchObject({ method: "POST", status_code: 201 });
      expect(create?.request_size).toBe(
        Buffer.byteLength(JSON.stringify({ sku: "A-1", password: "hunter2", card: { number: "4242" } })),
      );
      expect(byPath("/boom")[0]?.status_code).toBe(500);
    });

    it("names the consumer the app set", () => {
      const [order] = byPath("/orders/42?expand=items&token=%5BREDACTED%5D");
      expect(order).toMatchObject({
        consumer_id: "acme",
        consumer_name: "Acme Corp",
        consumer_group: "enterprise",
      });
      expect(byPath("/orders")[0]?.consumer_id).toBe("");
    });

    it("continues an incoming W3C trace and starts one otherwise", () => {
      const [order] = byPath("/orders/42?expand=items&token=%5BREDACTED%5D");
      expect(order?.trace_id).toBe(TRACE_ID);
      expect(order?.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(order?.span_id).not.toBe("00f067aa0ba902b7");
      const others = requests.filter((r) => r !== order).map((r) => r.trace_id);
      for (const trace of others) expect(trace).toMatch(/^[0-9a-f]{32}$/);
      expect(new Set(others).size).toBe(others.length);
    });

    it("redacts credentials and configured headers, masks secret body fields", async () => {
      const [order] = byPath("/orders/42?expand=items&token=%5BREDACTED%5D");
      const detail = await sightline.requestDetail(order?.id as string);
      expect(detail.request_headers.authorization).toBe("[REDACTED]");
      expect(detail.request_headers["x-internal-secret"]).toBe("[REDACTED]");
      expect(detail.request_headers["x-customer"]).toBe("acme");
      expect(JSON.stringify(detail)).not.toContain("do-not-store");
      const [create] = byPath("/orders");
      const created = await sightline.requestDetail(create?.id as string);
      expect(JSON.parse(created.response_payload)).toEqual({ ok: true, token: "[REDACTED]" });
      if (options.requestBodies !== false) {
        expect(JSON.parse(created.request_payload)).toEqual({
          sku: "A-1",
          password: "[REDACTED]",
          card: "[REDACTED]",
        });
      }
      expect(JSON.stringify(created)).not.toContain("hunter2");
      expect(JSON.stringify(created)).not.toContain("t0p-s3cret");
    });

    it("sends an unhandled error as an error log linked to its request by trace id", () => {
      const [boom] = byPath("/boom");
      const errors = logs.filter((log) => log.level === "ERROR");
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        message: "Error: kaboom",
        logger_name: "sightline.errors",
        trace_id: boom?.trace_id,
        span_id: boom?.span_id,
        environment: "staging",
      });
      expect(errors[0]?.payload).toContain("kaboom");
      expect(errors[0]?.payload).toMatch(/\n\s+at /);
    });

    // An app in its own process keeps its warnings to itself.
    if (options.startExternal === undefined)
      it("said nothing about failures", () => {
        expect(warnings).toEqual([]);
      });
  });
}

/** The consumer the test apps set from the `x-customer` header. */
export function consumerOf(header: string | string[] | null | undefined) {
  const id = Array.isArray(header) ? header[0] : header;
  return id === undefined || id === null || id === ""
    ? undefined
    : { id, name: "Acme Corp", group: "enterprise" };
}

/** The body POST /orders answers with (its token must arrive masked). */
export const CREATED = { ok: true, token: "t0p-s3cret" };
