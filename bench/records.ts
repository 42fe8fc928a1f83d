// The bench's records: deterministic request records and spans like the baseline measurements'
// (4 routes with ids in the path, a status mix, exponential latencies, 5,000 consumers, 13% with a
// payload), spans, and request records as OTLP/HTTP protobuf exports of SERVER spans; shared by
// bench:ingest and bench:engine so both measure the same rows.
import { OTLP_MESSAGES } from "../packages/server/src/modules/otlp/otlp.decode.js";

/** Records per posted batch. */
export const BATCH = 100;

const METHODS = ["GET", "GET", "GET", "GET", "POST", "PUT", "DELETE"];
const ROUTES = ["/api/v1/orders/{id}", "/api/v1/users/{id}", "/api/v1/products", "/api/v1/cart/{id}/items"];
const STATUSES = [200, 200, 200, 200, 200, 201, 204, 304, 400, 401, 404, 500, 503];

/** Deterministic pseudo-random numbers: the same bodies on every run. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

/** `count` request records: a 100-record batch is about 45 KB of JSON. */
export function requestRecords(seed: number, appSlug: string, count = BATCH): Record<string, unknown>[] {
  const random = generator(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const now = Date.now();
  return Array.from({ length: count }, () => {
    const consumer = Math.floor(random() * 5000);
    const route = pick(ROUTES);
    return {
      app_id: appSlug,
      timestamp: new Date(now - Math.floor(random() * 600_000)).toISOString(),
      environment: random() < 0.8 ? "production" : "staging",
      method: pick(METHODS),
      path: route.replace("{id}", String(Math.floor(random() * 100_000))),
      status_code: pick(STATUSES),
      response_time_ms: Math.round(-Math.log(1 - random()) * 120 * 100) / 100,
      request_size: Math.floor(random() * 4096),
      response_size: Math.floor(random() * 65_536),
      ip_address: `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`,
      user_agent:
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      consumer_id: `consumer-${consumer}`,
      consumer_name: `Consumer ${consumer}`,
      consumer_group: `group-${consumer % 10}`,
      ...(random() < 0.13
        ? { request_payload: `{"sku":"A-${Math.floor(random() * 1000)}","quantity":2}` }
        : {}),
    };
  });
}

const SPAN_NAMES = ["GET /api/v1/orders/{id}", "SELECT orders", "charge card", "POST psp", "render"];
const SPAN_KINDS = ["server", "db", "internal", "http", "internal"];

/** One 100-span batch: ten traces of ten spans (a server root and its children), as the APILens
 *  SDK sends them, with a few attributes each. */
export function spanRecords(seed: number, appSlug: string): Record<string, unknown>[] {
  const random = generator(seed);
  const hex = (digits: number) =>
    Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join("");
  const now = Date.now();
  const spans: Record<string, unknown>[] = [];
  for (let trace = 0; trace < BATCH / 10; trace++) {
    const traceId = hex(32);
    const rootId = hex(16);
    const start = now - Math.floor(random() * 600_000);
    for (let i = 0; i < 10; i++) {
      const kind = i === 0 ? 0 : 1 + Math.floor(random() * 4);
      const failed = random() < 0.03;
      spans.push({
        app_id: appSlug,
        timestamp: new Date(start + i * 3).toISOString(),
        environment: random() < 0.8 ? "production" : "staging",
        trace_id: traceId,
        span_id: i === 0 ? rootId : hex(16),
        parent_span_id: i === 0 ? "" : rootId,
        name: SPAN_NAMES[kind],
        kind: SPAN_KINDS[kind],
        service_name: "checkout-api",
        duration_ms: Math.round(-Math.log(1 - random()) * (i === 0 ? 120 : 15) * 100) / 100,
        status: failed ? "error" : "ok",
        status_code: i === 0 ? (failed ? 500 : 200) : 0,
        attributes: {
          "http.method": "GET",
          "db.rows": Math.floor(random() * 50),
          "cache.hit": random() < 0.5,
        },
      });
    }
  }
  return spans;
}

/** Unix nanoseconds as OTLP carries them. */
function nanos(ms: number): string {
  return `${BigInt(Math.round(ms * 1000)) * 1000n}`;
}

/** The same records as one protobuf ExportTraceServiceRequest: one SERVER span per record,
 *  with the HTTP semantic-convention attributes an instrumentation library sets. */
export function otlpBody(batch: readonly Record<string, unknown>[], appSlug: string, seed: number): Buffer {
  const random = generator(seed * 7919);
  const hex = (digits: number) =>
    Array.from({ length: digits }, () => Math.floor(random() * 16).toString(16)).join("");
  const attribute = (key: string, value: unknown) => ({
    key,
    value: typeof value === "number" ? { intValue: value } : { stringValue: String(value) },
  });
  const byEnvironment = new Map<string, Record<string, unknown>[]>();
  for (const record of batch) {
    const environment = String(record.environment);
    byEnvironment.set(environment, [...(byEnvironment.get(environment) ?? []), record]);
  }
  const { request } = OTLP_MESSAGES.traces;
  return Buffer.from(
    request
      .encode(
        request.fromObject({
          resourceSpans: [...byEnvironment].map(([environment, records]) => ({
            resource: {
              attributes: [
                attribute("service.name", appSlug),
                attribute("deployment.environment.name", environment),
              ],
            },
            scopeSpans: [
              {
                scope: { name: "@opentelemetry/instrumentation-http" },
                spans: records.map((record) => {
                  const start = Date.parse(String(record.timestamp));
                  const path = String(record.path);
                  return {
                    traceId: Buffer.from(hex(32), "hex"),
                    spanId: Buffer.from(hex(16), "hex"),
                    name: `${String(record.method)} ${path}`,
                    kind: 2,
                    startTimeUnixNano: nanos(start),
                    endTimeUnixNano: nanos(start + Number(record.response_time_ms)),
                    attributes: [
                      attribute("http.request.method", record.method),
                      attribute("url.path", path),
                      attribute("http.response.status_code", record.status_code),
                      attribute("http.request.body.size", record.request_size),
                      attribute("http.response.body.size", record.response_size),
                      attribute("client.address", record.ip_address),
                      attribute("user_agent.original", record.user_agent),
                      attribute("enduser.id", record.consumer_id),
                      attribute("user.name", record.consumer_name),
                    ],
                  };
                }),
              },
            ],
          })),
        }),
      )
      .finish(),
  );
}

/** Where each span's trace id lies in a protobuf export `otlpBody` made. */
const traceIdOffsets = new WeakMap<Buffer, readonly number[]>();

/**
 * A copy of an `otlpBody` export whose spans are new ones: `send` is written into the first four
 * bytes of every trace id. Spans are named by their trace and span ids and a resent export is
 * stored once, so a bench that posts the same bodies over and over must make each send new, as
 * real exporters' spans are.
 */
export function freshOtlpBody(body: Buffer, send: number): Buffer {
  let offsets = traceIdOffsets.get(body);
  if (offsets === undefined) {
    const { request } = OTLP_MESSAGES.traces;
    const decoded = request.toObject(request.decode(body), { bytes: Buffer }) as {
      resourceSpans: { scopeSpans: { spans: { traceId: Buffer }[] }[] }[];
    };
    const ids = decoded.resourceSpans.flatMap((group) =>
      group.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.traceId)),
    );
    offsets = ids.map((id) => body.indexOf(id));
    traceIdOffsets.set(body, offsets);
  }
  const copy = Buffer.from(body);
  for (const offset of offsets) copy.writeUInt32BE((copy.readUInt32BE(offset) ^ send) >>> 0, offset);
  return copy;
}
