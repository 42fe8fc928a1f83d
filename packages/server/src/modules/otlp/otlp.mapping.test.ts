// The OpenTelemetry -> record mapping on its own: resource identity, which spans are requests and
// what they carry under either naming of the HTTP conventions, log severities and bodies.
import { describe, expect, it } from "vitest";
import type { AttributeValue, OtlpLogRecord, OtlpSpan } from "./otlp.model.js";
import {
  logRecordOf,
  recordAttributes,
  requestRecordOf,
  resourceIdentity,
  spanRecordOf,
} from "./otlp.mapping.js";

const attrs = (entries: Record<string, AttributeValue>) => new Map(Object.entries(entries));
const to = { appId: "app-1", environment: "production", serviceName: "checkout" };
const START = 1_763_877_600_000_000_000n; // 2025-11-23T06:00:00Z

function span(attributes: Record<string, AttributeValue>, overrides: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: "5b8efff798038103d269b633813fc60c",
    spanId: "eee19b7ec3c1b174",
    parentSpanId: "",
    name: "GET",
    kind: 2,
    startNs: START,
    endNs: START + 12_345_678n,
    attributes: attrs(attributes),
    statusCode: 0,
    statusMessage: "",
    scope: "http",
    ...overrides,
  };
}

function log(overrides: Partial<OtlpLogRecord>): OtlpLogRecord {
  return {
    timeNs: START,
    observedNs: 0n,
    severityNumber: 0,
    severityText: "",
    body: "hello",
    attributes: attrs({}),
    traceId: "",
    spanId: "",
    eventName: "",
    scope: "",
    ...overrides,
  };
}

describe("resourceIdentity", () => {
  it("reads service.name and the environment, current name first", () => {
    expect(
      resourceIdentity(
        attrs({
          "service.name": " checkout ",
          "deployment.environment.name": "staging",
          "deployment.environment": "old",
        }),
      ),
    ).toEqual({ serviceName: "checkout", environment: "staging" });
    expect(resourceIdentity(attrs({ "deployment.environment": "qa" })).environment).toBe("qa");
  });

  it("treats the SDKs' unknown_service placeholder as no name, and defaults to production", () => {
    expect(resourceIdentity(attrs({ "service.name": "unknown_service:node" }))).toEqual({
      serviceName: "",
      environment: "production",
    });
  });
});

describe("requestRecordOf", () => {
  it("maps a SERVER span with current HTTP conventions", () => {
    expect(
      requestRecordOf(
        span({
          "http.request.method": "GET",
          "url.path": "/users/42",
          "url.query": "expand=orders",
          "http.route": "/users/:id",
          "http.response.status_code": 200,
          "client.address": "203.0.113.7",
          "user_agent.original": "curl/8",
          "http.request.body.size": 0,
          "http.response.body.size": 512,
          "enduser.id": "customer-42",
          "http.request.header.content-type": ["application/json"],
          "http.response.header.set-cookie": ["a=1", "b=2"],
        }),
        to,
      ),
    ).toEqual({
      app_id: "app-1",
      timestamp: "2025-11-23T06:00:00.000Z",
      environment: "production",
      method: "GET",
      path: "/users/42?expand=orders",
      route: "/users/:id",
      status_code: 200,
      response_time_ms: 12.345678,
      request_size: 0,
      response_size: 512,
      ip_address: "203.0.113.7",
      user_agent: "curl/8",
      consumer_id: "customer-42",
      request_headers: { "content-type": "application/json" },
      response_headers: { "set-cookie": "a=1, b=2" },
      trace_id: "5b8efff798038103d269b633813fc60c",
      span_id: "eee19b7ec3c1b174",
    });
  });

  it("maps the older names, the path taken from http.url when http.target is absent", () => {
    expect(
      requestRecordOf(
        span({
          "http.method": "POST",
          "http.url": "https://shop.example/orders?x=1",
          "http.status_code": "201",
          "net.peer.ip": "10.0.0.1",
          "http.user_agent": "legacy",
          "http.request_content_length": 17,
        }),
        to,
      ),
    ).toMatchObject({
      method: "POST",
      path: "/orders?x=1",
      status_code: 201,
      ip_address: "10.0.0.1",
      user_agent: "legacy",
      request_size: 17,
    });
  });

  it("is null for spans that are not handled HTTP requests", () => {
    const http = { "http.request.method": "GET", "url.path": "/a", "http.response.status_code": 200 };
    expect(requestRecordOf(span(http, { kind: 3 }), to)).toBeNull(); // CLIENT
    expect(requestRecordOf(span({ ...http, "http.response.status_code": null }), to)).toBeNull();
    expect(requestRecordOf(span({ "url.path": "/a", "http.response.status_code": 200 }), to)).toBeNull();
    expect(
      requestRecordOf(span({ "http.request.method": "GET", "http.response.status_code": 200 }), to),
    ).toBeNull();
  });
});

describe("spanRecordOf", () => {
  it("keeps every span: kind by name, error status, the HTTP status code, microsecond start", () => {
    expect(
      spanRecordOf(
        span(
          { "db.system": "postgresql", "http.status_code": 503 },
          {
            kind: 3,
            statusCode: 2,
            parentSpanId: "1111111111111111",
            startNs: START + 123_456n,
            name: "SELECT",
          },
        ),
        to,
      ),
    ).toEqual({
      app_id: "app-1",
      timestamp: "2025-11-23T06:00:00.000Z",
      environment: "production",
      trace_id: "5b8efff798038103d269b633813fc60c",
      span_id: "eee19b7ec3c1b174",
      parent_span_id: "1111111111111111",
      name: "SELECT",
      kind: "client",
      service_name: "checkout",
      duration_ms: 12.222222,
      status: "error",
      status_code: 503,
      attributes: { "db.system": "postgresql", "http.status_code": 503 },
    });
    expect(spanRecordOf(span({}, { kind: 0 }), { ...to, serviceName: "" })).toMatchObject({
      kind: "internal",
      status: "ok",
      status_code: 0,
    });
    expect(spanRecordOf(span({}, { kind: 0 }), { ...to, serviceName: "" })).not.toHaveProperty(
      "service_name",
    );
  });
});

describe("logRecordOf", () => {
  it("maps severity numbers by their ranges, else the text, else INFO", () => {
    const level = (severityNumber: number, severityText = "") => {
      const record = logRecordOf(log({ severityNumber, severityText }), to);
      return typeof record === "string" ? record : record.level;
    };
    expect([1, 5, 9, 13, 17, 21, 24].map((n) => level(n))).toEqual([
      "TRACE",
      "DEBUG",
      "INFO",
      "WARN",
      "ERROR",
      "FATAL",
      "FATAL",
    ]);
    expect(level(0, "warning")).toBe("warning");
    expect(level(0)).toBe("INFO");
  });

  it("takes structured bodies as JSON, the observed time when the time is unset", () => {
    const record = logRecordOf(
      log({ body: { reason: "declined", codes: [1, 2] }, timeNs: 0n, observedNs: START, scope: "payments" }),
      to,
    );
    expect(record).toMatchObject({
      message: '{"reason":"declined","codes":[1,2]}',
      timestamp: "2025-11-23T06:00:00.000Z",
      logger_name: "payments",
    });
  });

  it("says why a record cannot be kept", () => {
    expect(logRecordOf(log({ timeNs: 0n }), to)).toMatch(/time_unix_nano/);
    expect(logRecordOf(log({ body: null }), to)).toMatch(/empty body/);
    expect(logRecordOf(log({ body: null, eventName: "checkout.completed" }), to)).toMatchObject({
      message: "checkout.completed",
    });
  });
});

describe("recordAttributes", () => {
  it("keeps the first 64 attributes with usable keys, non-scalars as JSON", () => {
    const many = attrs(
      Object.fromEntries([
        ["k".repeat(129), "too long a key"],
        ["list", ["a", 1]],
        ...Array.from({ length: 70 }, (_, i) => [`a${i}`, i]),
      ]),
    );
    const kept = recordAttributes(many);
    expect(Object.keys(kept)).toHaveLength(64);
    expect(kept.list).toBe('["a",1]');
    expect(kept).not.toHaveProperty("k".repeat(129));
    expect(kept.a62).toBe(62);
    expect(kept).not.toHaveProperty("a63");
  });
});
