// An endpoint's top validation errors by field (issue 26 §4) over hand-counted records, on every
// events backend: field path, rule, occurrences, requests and share of the refused requests,
// ordered and tie-broken as documented; other endpoints, other apps, errors sent on a 2xx and
// records outside the window stay out; values never appear (only the validator's message).
import type { ValidationErrorCount } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventsBackend, eventsBackends } from "../support/events.js";
import {
  createQueryFixture,
  ingest,
  minutesBefore,
  type QueryFixture,
  qs,
  request,
} from "../support/query-fixture.js";

const at = (minutes: number) => minutesBefore(minutes).toISOString();
const order = { method: "POST", path: "/orders", route: "/orders" };
const failure = (path: string, rule: string, message: string) => ({ path, rule, message });

/** Six refused POST /orders requests (and noise the figures must not count). */
function records(): Array<Record<string, unknown>> {
  const refused = (minutes: number, status: number, errors: unknown[], fields = {}) =>
    request(minutesBefore(minutes), { ...order, status_code: status, validation_errors: errors, ...fields });
  return [
    refused(10, 422, [
      failure("body.email", "format", 'must match format "email"'),
      failure("body.qty", "minimum", "must be >= 1"),
    ]),
    refused(20, 422, [failure("body.email", "format", "older message")]),
    refused(30, 400, [failure("body.email", "required", "is required")]),
    refused(40, 400, [failure("", "type", "must be object")]),
    refused(50, 422, [
      failure("body.items.0.sku", "pattern", "must match pattern"),
      failure("body.items.1.sku", "pattern", "must match pattern"),
    ]),
    // One request failing the same field and rule twice: two occurrences, one request.
    refused(60, 422, [failure("body.tags", "maxItems", "at most 3"), failure("body.tags", "maxItems", "x")]),
    // Not counted: a 2xx (errors ignored at ingest), another endpoint, another app, outside 24 h.
    refused(5, 201, [failure("body.email", "format", "ignored")]),
    refused(6, 422, [failure("query.page", "type", "must be integer")], {
      method: "GET",
      path: "/users/1",
      route: "/users/{id}",
    }),
    refused(7, 422, [failure("body.email", "format", "billing")], { app_id: "billing" }),
    refused(25 * 60, 422, [failure("body.email", "format", "too old")]),
    // Accepted requests are not refused requests: they change no share.
    request(minutesBefore(8), { ...order, status_code: 201 }),
  ];
}

describe.each(eventsBackends())("endpoint validation errors on $name", (backend: EventsBackend) => {
  let fx: QueryFixture;
  const top = async (params: Record<string, string | number> = {}) => {
    const response = await fx.owner.get(
      `/api/v1/apps/checkout/analytics/endpoint-validation-errors${qs({ method: "POST", path: "/orders", ...params })}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ValidationErrorCount[]>();
  };

  beforeAll(async () => {
    fx = await createQueryFixture(backend);
    await ingest(fx.ctx, "requests", records(), fx.key);
  });
  afterAll(async () => {
    await fx?.ctx.close();
  });

  it("counts each field and rule with its share of the refused requests, most frequent first", async () => {
    const sixth = 100 / 6;
    expect(await top()).toEqual([
      {
        path: "body.email",
        rule: "format",
        occurrences: 2,
        requests: 2,
        share: expect.closeTo(2 * sixth, 9),
        message: 'must match format "email"',
        last_seen_at: at(10),
      },
      {
        path: "body.tags",
        rule: "maxItems",
        occurrences: 2,
        requests: 1,
        share: expect.closeTo(sixth, 9),
        message: expect.any(String),
        last_seen_at: at(60),
      },
      {
        path: "",
        rule: "type",
        occurrences: 1,
        requests: 1,
        share: expect.closeTo(sixth, 9),
        message: "must be object",
        last_seen_at: at(40),
      },
      {
        path: "body.email",
        rule: "required",
        occurrences: 1,
        requests: 1,
        share: expect.closeTo(sixth, 9),
        message: "is required",
        last_seen_at: at(30),
      },
      {
        path: "body.items.0.sku",
        rule: "pattern",
        occurrences: 1,
        requests: 1,
        share: expect.closeTo(sixth, 9),
        message: "must match pattern",
        last_seen_at: at(50),
      },
      {
        path: "body.items.1.sku",
        rule: "pattern",
        occurrences: 1,
        requests: 1,
        share: expect.closeTo(sixth, 9),
        message: "must match pattern",
        last_seen_at: at(50),
      },
      {
        path: "body.qty",
        rule: "minimum",
        occurrences: 1,
        requests: 1,
        share: expect.closeTo(sixth, 9),
        message: "must be >= 1",
        last_seen_at: at(10),
      },
    ]);
  });

  it("keeps shares against every refused request when the list is cut, and follows the window", async () => {
    const cut = await top({ limit: 1 });
    expect(cut.map((row) => [row.path, row.rule, row.share])).toEqual([
      ["body.email", "format", expect.closeTo(100 / 3, 9)],
    ]);
    // The last 35 minutes: three refused requests (10, 20, 30 minutes ago).
    const recent = await top({ since: at(35), until: at(0) });
    expect(recent.map((row) => [row.path, row.rule, row.occurrences, row.share])).toEqual([
      ["body.email", "format", 2, expect.closeTo(200 / 3, 9)],
      ["body.email", "required", 1, expect.closeTo(100 / 3, 9)],
      ["body.qty", "minimum", 1, expect.closeTo(100 / 3, 9)],
    ]);
    const other = await top({ method: "GET", path: "/users/{id}" });
    expect(other.map((row) => [row.path, row.rule, row.occurrences, row.share])).toEqual([
      ["query.page", "type", 1, 100],
    ]);
  });
});
