// The OpenTelemetry mapping on its own: resource identity, which spans are requests, the rows
// spans become under either naming of the HTTP conventions (through ingest's placed-input
// pipeline), log severities and bodies.
import { INGEST_LIMITS } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import { type KeyPrincipal, preparePlacedBatch, type RowKind } from "../ingest/index.js";
import type { AttributeValue, OtlpLogRecord, OtlpSpan } from "./otlp.model.js";
import {
  logRecordOf,
  otlpRequestRows,
  otlpSpanRows,
  type PlacedSpan,
  placeSpan,
  recordAttributes,
  resourceIdentity,
  servesHttpRequest,
} from "./otlp.mapping.js";

const attrs = (entries: Record<string, AttributeValue>) => new Map(Object.entries(entries));
const APP = { id: "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21", slug: "checkout" };
const PRINCIPAL: KeyPrincipal = { keyId: "k1", project: { id: "p-1", slug: "shop" }, app: null };
const to = { app: APP, environment: "production", serviceName: "checkout" };
const START = 1_763_877_600_000_000_000n; // 2025-11-23T06:00:00Z
const NOW = 1_763_877_660_000; // a minute later

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

/** The rows a row kind builds from spans, as objects by column name, and the batch's problems. */
function rowsOf<Column extends string>(kind: RowKind<PlacedSpan, Column>, spans: readonly OtlpSpan[]) {
  const batch = preparePlacedBatch(
    kind,
    spans.map((item) => placeSpan(item, to)),
    { principal: PRINCIPAL, apps: [], nowMs: NOW, retentionDays: 30 },
  );
  const lines = batch.chunk === null ? [] : batch.chunk.body.toString("utf8").trimEnd().split("\n");
  const rows = lines.map((line) => {
    const values = JSON.parse(line) as unknown[];
    return Object.fromEntries(kind.table.columnNames.map((column, i) => [column, values[i]]));
  });
  return { rows, errors: batch.errors, discoveries: batch.discoveries };
}

const HTTP = { "http.request.method": "GET", "url.path": "/a", "http.response.status_code": 200 };

describe("otlpRequestRows", () => {
  it("maps a SERVER span with current HTTP conventions", () => {
    const served = span({
      "http.request.method": "get",
      "url.path": "/users/42",
      "url.query": "expand=orders",
      "http.route": "/users/:id",
      "http.response.status_code": 200,
      "client.address": "203.0.113.7",
      "user_agent.original": "curl/8",
      "http.request.body.size": 0,
      "http.response.body.size": 512,
      "enduser.id": "customer-42",
      "user.name": "Acme",
      "http.request.header.content-type": ["application/json"],
      "http.request.header.authorization": ["Bearer secret"],
      "http.response.header.x-request-id": ["a", "b"],
    });
    expect(servesHttpRequest(served)).toBe(true);
    const { rows, discoveries } = rowsOf(otlpRequestRows, [served]);
    expect(rows).toEqual([
      {
        id: expect.any(String),
        project_id: "p-1",
        app_id: APP.id,
        timestamp: "2025-11-23 06:00:00.000",
        environment: "production",
        method: "GET",
        path: "/users/42",
        route: "/users/{id}",
        status_code: 200,
        response_time_ms: 12.345678,
        request_size: 0,
        response_size: 512,
        ip_address: "203.0.113.7",
        user_agent: "curl/8",
        consumer_id: "customer-42",
        consumer_name: "Acme",
        consumer_group: "",
        request_payload: "",
        response_payload: "",
        request_headers: '{"content-type":"application/json","authorization":"[REDACTED]"}',
        response_headers: '{"x-request-id":"a, b"}',
        trace_id: "5b8efff798038103d269b633813fc60c",
        span_id: "eee19b7ec3c1b174",
        query: "expand=orders",
        base_url: "",
        scheme: "",
        validation_paths: [],
        validation_rules: [],
        validation_messages: [],
        retention_days: 30,
        stored_on: new Date(NOW).toISOString().slice(0, 10),
        // No rollup days in the context: 0, the server's days.
        rollup_days: 0,
      },
    ]);
    expect(discoveries).toEqual([
      {
        appId: APP.id,
        environments: ["production"],
        endpoints: [{ method: "GET", path: "/users/{id}", seenAt: "2025-11-23T06:00:00.000Z" }],
      },
    ]);
  });

  it("maps the older names, the path taken from http.url when http.target is absent", () => {
    const { rows } = rowsOf(otlpRequestRows, [
      span({
        "http.method": "POST",
        "http.url": "https://shop.example/orders/7?x=1",
        "http.status_code": "201",
        "net.peer.ip": "10.0.0.1",
        "http.user_agent": "legacy",
        "http.request_content_length": 17,
      }),
    ]);
    expect(rows[0]).toMatchObject({
      method: "POST",
      path: "/orders/7",
      route: "/orders/{id}",
      query: "x=1",
      status_code: 201,
      ip_address: "10.0.0.1",
      user_agent: "legacy",
      request_size: 17,
    });
  });

  it("rejects what a posted request record could not carry, saying which field", () => {
    const { rows, errors } = rowsOf(otlpRequestRows, [
      span({ ...HTTP, "http.request.method": "GET /a" }),
      span({ ...HTTP, "http.response.status_code": 700 }),
      span(HTTP, { endNs: START + 90_000_000_000_000n }),
      span({ ...HTTP, "http.response.body.size": 2 ** 41 }),
      span({ ...HTTP, "url.path": `/${"a".repeat(5000)}` }),
      span(HTTP, { traceId: "abc" }),
      span(HTTP),
    ]);
    expect(rows).toHaveLength(1);
    expect(errors.map((error) => error.pointer)).toEqual([
      "/requests/0/method",
      "/requests/1/status_code",
      "/requests/2/response_time_ms",
      "/requests/3/response_size",
      "/requests/4/path",
      "/requests/5/trace_id",
    ]);
  });

  it("serves no request for spans that are not handled HTTP requests", () => {
    expect(servesHttpRequest(span(HTTP, { kind: 3 }))).toBe(false); // CLIENT
    expect(servesHttpRequest(span({ ...HTTP, "http.response.status_code": null }))).toBe(false);
    expect(servesHttpRequest(span({ "url.path": "/a", "http.response.status_code": 200 }))).toBe(false);
    expect(servesHttpRequest(span({ "http.request.method": "GET", "http.response.status_code": 200 }))).toBe(
      false,
    );
    expect(servesHttpRequest(span({ ...HTTP, "url.path": "", "http.route": "/a/{id}" }))).toBe(true);
  });
});

describe("otlpSpanRows", () => {
  it("keeps every span: kind by name, error status, the HTTP status code, millisecond start", () => {
    const { rows } = rowsOf(otlpSpanRows, [
      span(
        { "db.system": "postgresql", "http.status_code": 503, "db.rows": 3, tags: ["a", 1] },
        {
          kind: 3,
          statusCode: 2,
          parentSpanId: "1111111111111111",
          startNs: START + 123_456n,
          name: "SELECT",
        },
      ),
      span({}, { kind: 0 }),
    ]);
    expect(rows[0]).toEqual({
      id: expect.any(String),
      project_id: "p-1",
      app_id: APP.id,
      timestamp: "2025-11-23 06:00:00.000",
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
      attributes: { "db.system": "postgresql", "http.status_code": "503", "db.rows": "3", tags: '["a",1]' },
      retention_days: 30,
      stored_on: new Date(NOW).toISOString().slice(0, 10),
    });
    expect(rows[1]).toMatchObject({ kind: "internal", status: "ok", status_code: 0, attributes: {} });
  });

  it("keeps the first 64 attributes with usable keys, values cut, __proto__ as an attribute", () => {
    const { rows } = rowsOf(otlpSpanRows, [
      span(
        Object.fromEntries([
          ["k".repeat(129), "too long a key"],
          ["__proto__", "kept"],
          ["long", "v".repeat(5000)],
          ...Array.from({ length: 70 }, (_, i) => [`a${i}`, i]),
        ]),
      ),
    ]);
    const attributes = rows[0]?.attributes as Record<string, string>;
    expect(Object.keys(attributes)).toHaveLength(64);
    expect(Object.hasOwn(attributes, "__proto__")).toBe(true);
    expect(attributes.long).toHaveLength(INGEST_LIMITS.attributeValueLength);
    expect(attributes).not.toHaveProperty("k".repeat(129));
    expect(attributes.a61).toBe("61");
    expect(attributes).not.toHaveProperty("a62");
  });

  it("rejects spans without usable ids or with a duration over a day", () => {
    const { rows, errors } = rowsOf(otlpSpanRows, [
      span({}, { traceId: "" }),
      span({}, { spanId: "00000000000000000" }),
      span({}, { endNs: START + 90_000_000_000_000n }),
      span({}, { startNs: 0n }),
    ]);
    expect(rows).toEqual([]);
    expect(errors.map((error) => error.pointer)).toEqual([
      "/spans/0/trace_id",
      "/spans/1/span_id",
      "/spans/2/duration_ms",
      "/spans/3/timestamp",
    ]);
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
