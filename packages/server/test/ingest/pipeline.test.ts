// The ingest pipeline as pure steps: timestamps, cutting, row ids, and prepareBatch over both
// record kinds (per-record errors, normalisation, app rules, serialisation in column order).
import { INGEST_LIMITS } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import type { KeyPrincipal } from "../../src/modules/ingest/directory.js";
import {
  type BatchContext,
  prepareBatch,
  prepareBatchInSlices,
  preparePlacedBatch,
} from "../../src/modules/ingest/ingest.pipeline.js";
import { logKind } from "../../src/modules/ingest/logs.records.js";
import { readHexId, type RecordProblem, type RowKind } from "../../src/modules/ingest/records.js";
import { requestKind } from "../../src/modules/ingest/requests.records.js";
import { API_LOGS, API_REQUESTS } from "../../src/stores/events/index.js";

const REQUEST_COLUMNS = API_REQUESTS.columnNames;
const LOG_COLUMNS = API_LOGS.columnNames;
import { uuidV7At, uuidV7Time } from "../../src/modules/ingest/row-ids.js";
import { cutChars, cutUtf8 } from "../../src/modules/ingest/text.js";
import { eventsTimestamp, parseTimestamp } from "../../src/modules/ingest/timestamps.js";

const NOW = Date.parse("2026-11-21T12:00:00.000Z");
const CHECKOUT = { id: "0b9d6c1e-3f0a-4c38-9c5e-2a8f1e7d4b21", slug: "checkout" };
const BILLING = { id: "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910", slug: "billing" };
const PROJECT_KEY: KeyPrincipal = { keyId: "k1", project: { id: "p-1", slug: "shop" }, app: null };
const APP_KEY: KeyPrincipal = { ...PROJECT_KEY, keyId: "k2", app: CHECKOUT };

function context(principal: KeyPrincipal = PROJECT_KEY, retentionDays = 90): BatchContext {
  return { principal, apps: [CHECKOUT, BILLING], nowMs: NOW, retentionDays, rollupDays: 365 };
}

function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: "2026-11-21T11:59:00.000Z",
    environment: "production",
    method: "get",
    path: "/users/42",
    status_code: 200,
    response_time_ms: 12.5,
    ...overrides,
  };
}

function log(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    app_id: "checkout",
    timestamp: "2026-11-21T11:59:00.000Z",
    environment: "production",
    level: "info",
    message: "hello",
    ...overrides,
  };
}

/** The stored rows of a prepared batch as column -> value objects. */
function rowsOf(body: Buffer | undefined, columns: readonly string[]): Record<string, unknown>[] {
  if (body === undefined) return [];
  return body
    .toString("utf8")
    .trimEnd()
    .split("\n")
    .map((line) => {
      const values = JSON.parse(line) as unknown[];
      expect(values).toHaveLength(columns.length);
      return Object.fromEntries(columns.map((column, i) => [column, values[i]]));
    });
}

describe("parseTimestamp", () => {
  it.each([
    ["2026-11-21T06:00:00Z", "2026-11-21T06:00:00.000Z"],
    ["2026-11-21T06:00:00.123456Z", "2026-11-21T06:00:00.123Z"],
    ["2026-11-21T06:00:00.5", "2026-11-21T06:00:00.500Z"],
    ["2026-11-21 06:00:00", "2026-11-21T06:00:00.000Z"],
    ["2026-11-21T06:00", "2026-11-21T06:00:00.000Z"],
    ["2026-11-21T08:00:00+02:00", "2026-11-21T06:00:00.000Z"],
    ["2026-11-21T01:30:00-0430", "2026-11-21T06:00:00.000Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
  ])("reads %s as %s (no offset = UTC)", (text, iso) => {
    expect(new Date(parseTimestamp(text) as number).toISOString()).toBe(iso);
  });

  it.each([
    "2026-11-21",
    "21/11/2026 06:00",
    "2026-02-30T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "2026-11-21T24:00:00Z",
    "2026-11-21T06:60:00Z",
    "2026-11-21T06:00:00+25:00",
    "Sat, 21 Nov 2026 06:00:00 GMT",
    "1763704800000",
    "",
  ])("refuses %j", (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });

  it("writes the events store's zone-less UTC text", () => {
    expect(eventsTimestamp(Date.parse("2026-11-21T06:00:00.007Z"))).toBe("2026-11-21 06:00:00.007");
  });
});

describe("cutting strings", () => {
  it("cuts by characters without splitting a surrogate pair", () => {
    expect(cutChars("abcdef", 4)).toBe("abcd");
    expect(cutChars("ab😀cd", 3)).toBe("ab");
    expect(cutChars("short", 10)).toBe("short");
  });

  it("cuts by UTF-8 bytes without splitting a character", () => {
    expect(cutUtf8("aé".repeat(10), 8)).toBe("aéaéa");
    expect(Buffer.byteLength(cutUtf8("€".repeat(30_000), INGEST_LIMITS.payloadBytes))).toBeLessThanOrEqual(
      INGEST_LIMITS.payloadBytes,
    );
    expect(cutUtf8("€".repeat(30_000), INGEST_LIMITS.payloadBytes)).toBe("€".repeat(21_845));
  });
});

describe("row ids", () => {
  it("are version-7 UUIDs carrying the record's millisecond", () => {
    const ms = Date.parse("2026-11-21T06:00:00.123Z");
    const ids = Array.from({ length: 1000 }, () => uuidV7At(ms));
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuidV7Time(id)).toBe(ms);
    }
    expect(new Set(ids).size).toBe(1000);
  });
});

describe("prepareBatch with request records", () => {
  it("normalises a full record into one row in column order", () => {
    const batch = prepareBatch(
      requestKind,
      [
        request({
          project_slug: "shop",
          app_id: CHECKOUT.id.toUpperCase(),
          environment: "  Production ",
          method: "patch",
          path: "/users/42/orders?page=2",
          request_size: 10,
          response_size: 20,
          ip_address: "203.0.113.7",
          user_agent: "u".repeat(2000),
          consumer_id: "c".repeat(300),
          consumer_name: "Acme",
          consumer_group: "gold",
          request_payload: "x".repeat(70_000),
          response_payload: "{}",
          request_headers: {
            "Content-Type": "application/json",
            Authorization: "Bearer secret",
            Accept: "a",
          },
          response_headers: { "Set-Cookie": "sid=1", ACCEPT: "b" },
          trace_id: "4BF92F3577B34DA6A3CE929D0E0E4736",
          span_id: "00f067aa0ba902b7",
        }),
      ],
      context(),
    );
    expect(batch).toMatchObject({ accepted: 1, rejected: 0, errors: [] });
    const [row] = rowsOf(batch.chunk?.body, REQUEST_COLUMNS);
    expect(row).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      project_id: "p-1",
      app_id: CHECKOUT.id,
      timestamp: "2026-11-21 11:59:00.000",
      environment: "production",
      method: "PATCH",
      path: "/users/42/orders",
      route: "/users/{id}/orders",
      status_code: 200,
      response_time_ms: 12.5,
      request_size: 10,
      response_size: 20,
      ip_address: "203.0.113.7",
      user_agent: "u".repeat(INGEST_LIMITS.userAgentLength),
      consumer_id: "c".repeat(INGEST_LIMITS.labelLength),
      consumer_name: "Acme",
      consumer_group: "gold",
      request_payload: "x".repeat(INGEST_LIMITS.payloadBytes),
      response_payload: "{}",
      request_headers: '{"content-type":"application/json","authorization":"[REDACTED]","accept":"a"}',
      response_headers: '{"set-cookie":"[REDACTED]","accept":"b"}',
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
      query: "page=2",
      base_url: "",
      scheme: "",
      validation_paths: [],
      validation_rules: [],
      validation_messages: [],
      // The project's days and the batch's arrival day: the one partition of the batch.
      retention_days: 90,
      stored_on: new Date(NOW).toISOString().slice(0, 10),
      // The project's rollup days, carried into the rollups by their views.
      rollup_days: 365,
    });
    expect(batch.chunk?.partition).toBe(`${new Date(NOW).toISOString().slice(0, 10)}/90`);
    expect(batch.probe).toEqual({ id: row?.id, timestampMs: Date.parse("2026-11-21T11:59:00.000Z") });
    expect(batch.discoveries).toEqual([
      {
        appId: CHECKOUT.id,
        environments: ["production"],
        endpoints: [{ method: "PATCH", path: "/users/{id}/orders", seenAt: "2026-11-21T11:59:00.000Z" }],
      },
    ]);
  });

  it("applies the spec's defaults and prefers a given route, rewritten to {name}", () => {
    const batch = prepareBatch(requestKind, [request({ route: "/users/:userId" })], context());
    const [row] = rowsOf(batch.chunk?.body, REQUEST_COLUMNS);
    expect(row).toMatchObject({
      route: "/users/{userId}",
      path: "/users/42",
      request_size: 0,
      response_size: 0,
      ip_address: "",
      user_agent: "",
      consumer_id: "",
      request_payload: "",
      request_headers: "{}",
      trace_id: "",
    });
  });

  it("keeps valid records and reports every problem of the others with index and pointer", () => {
    const batch = prepareBatch(
      requestKind,
      [
        request(),
        request({ status_code: 99, response_time_ms: -1 }),
        "not a record",
        request({ extra: 1 }),
        request({ method: "GE T", path: "users", request_size: 1.5 }),
        request({ app_id: "unknown-app", project_slug: "other", environment: "   " }),
        request({ timestamp: "yesterday" }),
        request({ timestamp: "2026-08-01T00:00:00Z" }),
        request({ timestamp: "2026-11-21T13:00:01Z" }),
        request({ trace_id: "0".repeat(32), span_id: "xyz" }),
        request({ response_time_ms: Number.POSITIVE_INFINITY }),
        request({ environment: "e".repeat(65) }),
        request({ path: `/${"a".repeat(2048)}` }),
        request({
          request_headers: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`h${i}`, "v"])),
        }),
        request(),
      ],
      context(),
    );
    // An unknown field no longer rejects its record: it is ignored and named once.
    expect(batch.accepted).toBe(3);
    expect(batch.rejected).toBe(12);
    expect(batch.ignoredFields).toEqual(["extra"]);
    expect(batch.errors).toEqual([
      { index: 1, pointer: "/requests/1/status_code", message: "must be >= 100" },
      { index: 1, pointer: "/requests/1/response_time_ms", message: "must be >= 0" },
      { index: 2, pointer: "/requests/2", message: "must be object" },
      {
        index: 4,
        pointer: "/requests/4/method",
        message: 'must match pattern "^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$"',
      },
      { index: 4, pointer: "/requests/4/path", message: 'must match pattern "^/"' },
      { index: 4, pointer: "/requests/4/request_size", message: "must be integer" },
      { index: 5, pointer: "/requests/5/project_slug", message: 'must be "shop", the API key\'s project' },
      { index: 5, pointer: "/requests/5/app_id", message: 'is not a live app of project "shop"' },
      { index: 5, pointer: "/requests/5/environment", message: "must be 1–64 characters after trimming" },
      {
        index: 6,
        pointer: "/requests/6/timestamp",
        message: "must be an ISO 8601 date-time such as 2026-11-21T06:00:00.000Z",
      },
      {
        index: 7,
        pointer: "/requests/7/timestamp",
        message: "is older than the retention window of 90 days",
      },
      {
        index: 8,
        pointer: "/requests/8/timestamp",
        message: "is more than 1 hour ahead of the server's clock",
      },
      {
        index: 9,
        pointer: "/requests/9/trace_id",
        message: "must be 32 hexadecimal digits, not all zero (W3C trace-id)",
      },
      {
        index: 9,
        pointer: "/requests/9/span_id",
        message: "must be 16 hexadecimal digits, not all zero (W3C span-id)",
      },
      { index: 10, pointer: "/requests/10/response_time_ms", message: "must be <= 86400000" },
      { index: 11, pointer: "/requests/11/environment", message: "must be 1–64 characters after trimming" },
      { index: 12, pointer: "/requests/12/path", message: "must NOT have more than 2048 characters" },
      { index: 13, pointer: "/requests/13/request_headers", message: "must have at most 100 headers" },
    ]);
    expect(rowsOf(batch.chunk?.body, REQUEST_COLUMNS)).toHaveLength(3);
  });

  it("lists at most 100 problems but counts every rejected record", () => {
    // Two problems each: 60 rejected records carry 120.
    const records = Array.from({ length: 61 }, (_, i) =>
      i === 60 ? request() : request({ status_code: 0, response_time_ms: -1 }),
    );
    const batch = prepareBatch(requestKind, records, context());
    expect(batch).toMatchObject({ refusedWhole: false, accepted: 1, rejected: 60 });
    expect(batch.errors).toHaveLength(100);
    expect(batch.errors.at(-1)?.index).toBe(49);
  });

  it("refuses a batch with more than 100 invalid records whole, without reading the records after", () => {
    let read = 0;
    const untouched = (): Record<string, unknown> =>
      new Proxy(request(), {
        get: (target, key) => {
          read += 1;
          return Reflect.get(target, key) as unknown;
        },
      });
    const records = [
      request(),
      ...Array.from({ length: INGEST_LIMITS.invalidRecordsPerBatch + 1 }, () => request({ status_code: 0 })),
      ...Array.from({ length: 500 }, untouched),
    ];
    const batch = prepareBatch(requestKind, records, context());
    expect(batch).toMatchObject({
      refusedWhole: true,
      accepted: 0,
      rejected: records.length,
      chunk: null,
      probe: null,
      discoveries: [],
    });
    expect(batch.errors).toHaveLength(INGEST_LIMITS.listedErrors);
    expect(batch.errors[0]).toEqual({
      index: 1,
      pointer: "/requests/1/status_code",
      message: "must be >= 100",
    });
    expect(read).toBe(0);
  });

  it("refuses a placed batch (OTLP's way in) with more than 100 invalid inputs whole", () => {
    const placed = (timestamp: string) => ({
      ...request({ timestamp }),
      app: CHECKOUT,
      timestampMs: Date.parse(timestamp),
      environment: "production",
    });
    const tooOld = "2020-01-01T00:00:00.000Z";
    const inputs = [
      placed("2026-11-21T11:59:00.000Z"),
      ...Array.from({ length: INGEST_LIMITS.invalidRecordsPerBatch + 1 }, () => placed(tooOld)),
    ];
    const batch = preparePlacedBatch(
      requestKind as unknown as RowKind<(typeof inputs)[number]>,
      inputs,
      context(),
    );
    expect(batch).toMatchObject({ refusedWhole: true, accepted: 0, rejected: inputs.length, chunk: null });
    const under = preparePlacedBatch(
      requestKind as unknown as RowKind<(typeof inputs)[number]>,
      inputs.slice(0, INGEST_LIMITS.invalidRecordsPerBatch + 1),
      context(),
    );
    expect(under).toMatchObject({
      refusedWhole: false,
      accepted: 1,
      rejected: INGEST_LIMITS.invalidRecordsPerBatch,
    });
  });

  it("builds RowBinary chunks when the store takes them, and answers a row it cannot encode as that record's problem", () => {
    const records = [request(), request({ path: "/users/7" })];
    const json = prepareBatch(requestKind, records, context());
    const binary = prepareBatch(requestKind, records, { ...context(), insertFormat: "RowBinary" });
    expect(binary).toMatchObject({ accepted: 2, rejected: 0, chunk: { format: "RowBinary", rowCount: 2 } });
    expect(json.chunk?.format).toBe("JSONCompactEachRow");
    // A kind whose row breaks its column's type (UInt16 status): one record's problem, not a 500.
    const breaking: RowKind<Record<string, unknown>> = {
      ...(requestKind as unknown as RowKind<Record<string, unknown>>),
      build(input, problems) {
        const built = requestKind.build(input as never, problems);
        if (built === null || input.path !== "/users/7") return built;
        return { ...built, row: { ...built.row, status_code: 70_000 } };
      },
    };
    const placed = records.map((record) => ({
      ...record,
      app: CHECKOUT,
      timestampMs: Date.parse(String(record.timestamp)),
      environment: "production",
    }));
    const refused = preparePlacedBatch(breaking, placed, { ...context(), insertFormat: "RowBinary" });
    expect(refused).toMatchObject({ accepted: 1, rejected: 1, chunk: { rowCount: 1 }, rowRecords: [0] });
    expect(refused.errors).toEqual([
      {
        index: 1,
        pointer: "/requests/1",
        message: "cannot be stored: Cannot encode column status_code: expected an integer in 0..65535",
      },
    ]);
  });

  it("prepares the same batch in paced slices, yielding to the event loop between them", async () => {
    const records = Array.from({ length: 300 }, (_, i) => request({ path: `/users/${i}` }));
    let yields = 0;
    const pace = { due: () => true, yield: async () => void (yields += 1) };
    const sliced = await prepareBatchInSlices(requestKind, records, context(), pace);
    const atOnce = prepareBatch(requestKind, records, context());
    expect(yields).toBe(Math.floor(records.length / 16));
    expect(sliced).toMatchObject({ accepted: 300, rejected: 0 });
    const withoutIds = (batch: typeof sliced) =>
      rowsOf(batch.chunk?.body, REQUEST_COLUMNS).map(({ id: _id, ...row }) => row);
    expect(withoutIds(sliced)).toEqual(withoutIds(atOnce));
  });

  it("lets an app key write to its own app only", () => {
    const batch = prepareBatch(
      requestKind,
      [request({ app_id: "checkout" }), request({ app_id: CHECKOUT.id }), request({ app_id: "billing" })],
      context(APP_KEY),
    );
    expect(batch.accepted).toBe(2);
    expect(batch.errors).toEqual([
      {
        index: 2,
        pointer: "/requests/2/app_id",
        message: 'must name app "checkout": this API key belongs to that app only',
      },
    ]);
  });

  it("groups discovery per app and keeps each endpoint's newest time", () => {
    const batch = prepareBatch(
      requestKind,
      [
        request({ path: "/users/1", timestamp: "2026-11-21T11:00:00Z" }),
        request({ path: "/users/2", timestamp: "2026-11-21T11:30:00Z", environment: "Staging" }),
        request({ path: "/users/3", timestamp: "2026-11-21T11:10:00Z" }),
        request({ app_id: "billing", method: "POST", path: "/invoices" }),
      ],
      context(),
    );
    expect(batch.discoveries).toEqual([
      {
        appId: CHECKOUT.id,
        environments: ["production", "staging"],
        endpoints: [{ method: "GET", path: "/users/{id}", seenAt: "2026-11-21T11:30:00.000Z" }],
      },
      {
        appId: BILLING.id,
        environments: ["production"],
        endpoints: [{ method: "POST", path: "/invoices", seenAt: "2026-11-21T11:59:00.000Z" }],
      },
    ]);
  });

  it("produces nothing to store for an empty or all-invalid batch", () => {
    expect(prepareBatch(requestKind, [], context())).toMatchObject({ accepted: 0, rejected: 0, chunk: null });
    expect(prepareBatch(requestKind, [{}], context())).toMatchObject({
      accepted: 0,
      rejected: 1,
      chunk: null,
    });
  });
});

describe("prepareBatch with the APILens SDKs' spellings", () => {
  it('reads headers sent as JSON text, treats "" as none, and points at unreadable text', () => {
    const batch = prepareBatch(
      requestKind,
      [
        request({ request_headers: '{"Accept":"a","Cookie":"c"}', response_headers: "" }),
        request({ request_headers: "not json" }),
        request({ response_headers: '{"x":1}' }),
        request({ request_headers: "[]" }),
      ],
      context(),
    );
    expect(batch.accepted).toBe(1);
    expect(batch.errors.map((error) => error.pointer)).toEqual([
      "/requests/1/request_headers",
      "/requests/2/response_headers",
      "/requests/3/request_headers",
    ]);
    const [row] = rowsOf(batch.chunk?.body, REQUEST_COLUMNS);
    expect(row).toMatchObject({
      request_headers: '{"accept":"a","cookie":"[REDACTED]"}',
      response_headers: "{}",
    });
  });

  it("keeps base_url, splits the query string off the path, and reads microsecond timestamps", () => {
    const batch = prepareBatch(
      requestKind,
      [
        request({
          path: "/orders/42?expand=items&page=2",
          base_url: " https://shop.example.com ",
          timestamp: "2026-11-21T11:59:00.123456Z",
        }),
      ],
      context(),
    );
    const [row] = rowsOf(batch.chunk?.body, REQUEST_COLUMNS);
    expect(row).toMatchObject({
      path: "/orders/42",
      query: "expand=items&page=2",
      route: "/orders/{id}",
      base_url: "https://shop.example.com",
      timestamp: "2026-11-21 11:59:00.123",
    });
  });

  it("takes log records with an empty endpoint method and status 0, and rejects statuses 1–99", () => {
    const log = (fields: Record<string, unknown>) => ({
      app_id: "checkout",
      timestamp: "2026-11-21T11:59:00Z",
      environment: "production",
      level: "INFO",
      message: "m",
      ...fields,
    });
    const batch = prepareBatch(
      logKind,
      [
        log({
          endpoint_method: "",
          endpoint_path: "",
          status_code: 0,
          consumer_name: "Ada",
          consumer_group: "gold",
        }),
        log({ status_code: 42 }),
      ],
      context(),
    );
    expect(batch.accepted).toBe(1);
    expect(batch.errors).toEqual([
      { index: 1, pointer: "/logs/1/status_code", message: "must be 100–599, or 0 for none" },
    ]);
    const [row] = rowsOf(batch.chunk?.body, LOG_COLUMNS);
    expect(row).toMatchObject({
      endpoint_method: "",
      status_code: 0,
      consumer_name: "Ada",
      consumer_group: "gold",
    });
  });
});

describe("prepareBatch with log records", () => {
  it("normalises levels and their aliases in any letter case", () => {
    const spellings = ["debug", "TRACE", "Info", "warn", "WARNING", "error", "Fatal", "critical"];
    const batch = prepareBatch(
      logKind,
      spellings.map((level) => log({ level })),
      context(undefined, 30),
    );
    expect(rowsOf(batch.chunk?.body, LOG_COLUMNS).map((row) => row.level)).toEqual([
      "DEBUG",
      "DEBUG",
      "INFO",
      "WARNING",
      "WARNING",
      "ERROR",
      "CRITICAL",
      "CRITICAL",
    ]);
  });

  it("rejects an unknown level with a clear message instead of storing INFO", () => {
    const batch = prepareBatch(
      logKind,
      [log({ level: "verbose" }), log({ level: "" })],
      context(undefined, 30),
    );
    expect(batch.accepted).toBe(0);
    expect(batch.errors).toEqual([
      {
        index: 0,
        pointer: "/logs/0/level",
        message:
          "must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL (or TRACE, WARN, FATAL; any letter case)",
      },
      {
        index: 1,
        pointer: "/logs/1/level",
        message:
          "must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL (or TRACE, WARN, FATAL; any letter case)",
      },
    ]);
  });

  it("stores attributes as text without losing 0 or false, and the endpoint's template", () => {
    const batch = prepareBatch(
      logKind,
      [
        log({
          logger_name: "app.payments",
          payload: "p",
          attributes: { zero: 0, no: false, ratio: 1.5, name: "x".repeat(2000), __proto__: "kept" },
          endpoint_method: "post",
          endpoint_path: "/orders/17/pay",
          status_code: 504,
          consumer_id: "customer-42",
          trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
        }),
      ],
      context(undefined, 30),
    );
    const [row] = rowsOf(batch.chunk?.body, LOG_COLUMNS);
    expect(row).toMatchObject({
      level: "INFO",
      message: "hello",
      logger_name: "app.payments",
      payload: "p",
      endpoint_method: "POST",
      endpoint_path: "/orders/17/pay",
      endpoint_route: "/orders/{id}/pay",
      status_code: 504,
      consumer_id: "customer-42",
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "",
    });
    expect(row?.attributes).toEqual({ zero: "0", no: "false", ratio: "1.5", name: "x".repeat(1024) });
    expect(batch.discoveries).toEqual([{ appId: CHECKOUT.id, environments: ["production"], endpoints: [] }]);
  });

  it("rejects records whose attributes break the rules", () => {
    const tooMany = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
    const batch = prepareBatch(
      logKind,
      [
        log({ attributes: tooMany }),
        log({ attributes: { nested: { a: 1 } } }),
        log({ attributes: { "": "empty key" } }),
        log({ attributes: { big: Number.POSITIVE_INFINITY } }),
        log({ message: "" }),
        log({ endpoint_path: "orders" }),
        log({ timestamp: "2026-10-21T11:00:00Z" }),
      ],
      context(undefined, 30),
    );
    expect(batch.accepted).toBe(0);
    expect(batch.errors.map((error) => [error.index, error.pointer])).toEqual([
      [0, "/logs/0/attributes"],
      [1, "/logs/1/attributes/nested"],
      [2, "/logs/2/attributes/"],
      [3, "/logs/3/attributes/big"],
      [4, "/logs/4/message"],
      [5, "/logs/5/endpoint_path"],
      [6, "/logs/6/timestamp"],
    ]);
    expect(batch.errors[1]?.message).toBe("must be string or number or boolean");
    expect(batch.errors[6]?.message).toBe("is older than the retention window of 30 days");
  });
});

describe("readHexId", () => {
  it("keeps W3C ids in lower case and rejects anything else", () => {
    const problems: RecordProblem[] = [];
    expect(readHexId("00F067AA0BA902B7", 16, "span_id", problems)).toBe("00f067aa0ba902b7");
    expect(readHexId("", 16, "span_id", problems)).toBe("");
    expect(readHexId(undefined, 16, "span_id", problems)).toBe("");
    expect(problems).toEqual([]);
    for (const bad of [
      "0000000000000000", // all zero
      "00f067aa0ba902b", // one digit short
      "00f067aa0ba902bg",
      "00f067aa0ba902b\u0010", // a control character one bit away from "0"
      "00f067aa0ba902b\u0130",
      "00f067aa0ba902 7",
    ]) {
      expect(readHexId(bad, 16, "span_id", problems)).toBe("");
    }
    expect(problems).toHaveLength(6);
    expect(problems[0]).toEqual({
      path: "/span_id",
      message: "must be 16 hexadecimal digits, not all zero (W3C span-id)",
    });
  });
});
