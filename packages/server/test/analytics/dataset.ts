// The hand-checked traffic every analytics suite reads. NOW is 2026-03-30T12:00Z, so the default
// window is 2026-03-29T12:00Z .. NOW. The figures the suites expect are worked out here once.
//
// checkout, inside the default window (7 records):
//   A1 -10m  GET  /users/42          200  10 ms  req 100 resp 1000  c1 "Acme" gold
//   A2 -20m  GET  /users/7           200  20 ms  req 100 resp 2000  c1 "Acme Corp"
//   A3 -30m  GET  /users/9           404  30 ms  req   0 resp   50  c2 (no name) free
//   A4 -40m  POST /orders            201 100 ms  req 500 resp  300  c2, both payloads
//   A5 -50m  POST /orders            500 200 ms  req 400 resp    0  no consumer, response payload
//   A8 -70m  GET  /                  301  40 ms  req   0 resp    0  c3 "Beta" silver
//   A6 -120m GET  /orders/17/items   503  50 ms  req   0 resp   10  no consumer, env " Staging "
// checkout, outside it:
//   A7 -25h  GET  /users/1           200 1000 ms
// billing, inside it:
//   B1 -5m   GET  /invoices          200   5 ms  req 10 resp 20  c1 "Acme" gold
//   B2 -6m   GET  /users/5           200   6 ms
//
// checkout window: 7 requests, errors 3 (404 | 500, 503), error_rate 300/7 %, mean 450/7 ms;
// sorted latencies 10 20 30 40 50 100 200 -> p50 40, p95 170, p99 194 (linear interpolation
// between closest ranks: rank (n-1)q); bytes 1100 / 3360; 4 endpoints; consumers c1 c2 c3.
import { minutesBefore, request } from "../support/query-fixture.js";

export const checkoutRecords = (): Record<string, unknown>[] => [
  request(minutesBefore(10), {
    path: "/users/42",
    response_time_ms: 10,
    request_size: 100,
    response_size: 1000,
    consumer_id: "c1",
    consumer_name: "Acme",
    consumer_group: "gold",
  }),
  request(minutesBefore(20), {
    path: "/users/7",
    response_time_ms: 20,
    request_size: 100,
    response_size: 2000,
    consumer_id: "c1",
    consumer_name: "Acme Corp",
  }),
  request(minutesBefore(30), {
    path: "/users/9",
    status_code: 404,
    response_time_ms: 30,
    response_size: 50,
    consumer_id: "c2",
    consumer_group: "free",
  }),
  request(minutesBefore(40), {
    method: "POST",
    path: "/orders",
    status_code: 201,
    response_time_ms: 100,
    request_size: 500,
    response_size: 300,
    consumer_id: "c2",
    request_payload: '{"sku":"A-1"}',
    response_payload: '{"id":1}',
  }),
  request(minutesBefore(50), {
    method: "POST",
    path: "/orders",
    status_code: 500,
    response_time_ms: 200,
    request_size: 400,
    response_payload: '{"error":"boom"}',
  }),
  request(minutesBefore(70), {
    path: "/",
    status_code: 301,
    response_time_ms: 40,
    consumer_id: "c3",
    consumer_name: "Beta",
    consumer_group: "silver",
  }),
  request(minutesBefore(120), {
    path: "/orders/17/items",
    status_code: 503,
    response_time_ms: 50,
    response_size: 10,
    environment: " Staging ",
  }),
  request(minutesBefore(25 * 60), { path: "/users/1", response_time_ms: 1000 }),
];

export const billingRecords = (): Record<string, unknown>[] => [
  request(minutesBefore(5), {
    app_id: "billing",
    path: "/invoices",
    response_time_ms: 5,
    request_size: 10,
    response_size: 20,
    consumer_id: "c1",
    consumer_name: "Acme",
    consumer_group: "gold",
  }),
  request(minutesBefore(6), { app_id: "billing", path: "/users/5", response_time_ms: 6 }),
];

/** The stranger's records: same app slug, same routes, other numbers. Never in our figures. */
export const strangerRecords = (): Record<string, unknown>[] =>
  Array.from({ length: 5 }, (_, n) =>
    request(minutesBefore(15 + n), {
      path: "/users/1",
      status_code: 500,
      response_time_ms: 9999,
      consumer_id: "c1",
      consumer_name: "Stranger",
      environment: "secret-env",
      request_payload: "their secret",
    }),
  );
