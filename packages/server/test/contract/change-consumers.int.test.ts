// The consumers each kind of change affects, counted exactly: a change of every kind of the rule
// table, at the places the scripted sequences (changes.test.ts) find them, is scoped as the job
// scopes it (consumerScopeOf) and counted by the events query over generated traffic with six
// consumers stored through the real ingest route on chDB; the list must equal an independent
// count over the generated calls (same operation, status, and a body carrying the field, `*`
// being any array item).
import { CONTRACT_CHANGE_KINDS, type ContractChangeKind } from "@sightline/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerScopeOf, consumersOf } from "../../src/modules/contract/change-consumers.js";
import {
  CHANGE_RULES,
  type ContractChange,
  fieldSegments,
} from "../../src/modules/contract/contract-diff.js";
import { createTestContext, type TestContext } from "../support/app.js";
import {
  type Field,
  type GeneratedCall,
  generateTraffic,
  type OperationSpec,
  type ResourceSpec,
  testOperations,
} from "../support/contract-traffic.js";
import { createIngestFixture, type IngestFixture } from "../ingest/helpers.js";
import { ingest } from "../support/query-fixture.js";

const HOUR = 3_600_000;

/** One change of each kind, where the scripted sequences find it. */
const CHANGES: ReadonlyArray<[ContractChangeKind, string, string | null, string | null]> = [
  ["operation_removed", "GET /v1/webhooks/{id}", null, null],
  ["operation_added", "GET /v1/reports", null, null],
  ["path_param_type_changed", "GET /v1/shipments/{id}", null, "id"],
  ["query_param_required", "GET /v1/invoices", null, "currency"],
  ["query_param_added", "GET /v1/orders", null, "coupon"],
  ["query_param_removed", "GET /v1/shipments", null, "carrier"],
  ["request_body_required", "PATCH /v1/products/{id}", null, null],
  ["request_field_required", "POST /v1/users", null, "/address"],
  ["request_field_added", "POST /v1/orders", null, "/gift_note"],
  ["request_field_removed", "POST /v1/orders", null, "/coupon"],
  ["request_field_type_changed", "POST /v1/payments", null, "/amount"],
  ["response_field_removed", "GET /v1/orders/{id}", "200", "/placed_on"],
  ["response_field_optional", "GET /v1/invoices/{id}", "200", "/issued_at"],
  ["response_field_type_changed", "GET /v1/products/{id}", "200", "/price"],
  ["response_field_added", "GET /v1/teams/{id}", "200", "/archived"],
  ["enum_value_removed", "GET /v1/shipments/{id}", "200", "/events/*/code"],
  ["enum_value_added", "GET /v1/payments/{id}", "200", "/state"],
  ["enum_inferred", "GET /v1/teams/{id}", "200", "/tier"],
  ["status_added", "POST /v1/invoices", "409", null],
  ["status_removed", "POST /v1/invoices", "422", null],
  ["content_type_added", "GET /v1/users/{id}", "200", null],
  ["content_type_removed", "GET /v1/users/{id}", "200", null],
];

function locationOf(kind: ContractChangeKind): ContractChange["location"] {
  if (kind.startsWith("operation_")) return "operation";
  if (kind.startsWith("path_")) return "path";
  if (kind.startsWith("query_")) return "query";
  if (kind.startsWith("request_")) return "request";
  return "response";
}

function withFields(resource: ResourceSpec, change: (fields: Record<string, Field>) => void): ResourceSpec {
  const fields = { ...resource.fields };
  change(fields);
  return { ...resource, fields };
}

function replace(
  ops: OperationSpec[],
  key: string,
  change: (op: OperationSpec) => OperationSpec,
): OperationSpec[] {
  return ops.map((op) => (`${op.method} ${op.route}` === key ? change(op) : op));
}

/** Whether a JSON value has the field at `segments` (`*`: any item of an array). */
function has(value: unknown, segments: readonly string[]): boolean {
  if (segments.length === 0) return true;
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === "*") return Array.isArray(value) && value.some((item) => has(item, rest));
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return head in value && has((value as Record<string, unknown>)[head], rest);
}

describe("the consumers each kind of change affects", () => {
  let ctx: TestContext;
  let fx: IngestFixture;
  let calls: GeneratedCall[];
  const untilMs = Date.now() - 60_000;
  const sinceMs = untilMs - 3 * HOUR;

  beforeAll(async () => {
    ctx = await createTestContext();
    fx = await createIngestFixture(ctx);
    // Before: a team tier, product updates without a body half the time, users also as JSON:API,
    // invoices refused with 422 often enough to be counted. After: the changes of the scripted sequences that add or drop what is counted.
    let before = replace(testOperations(), "GET /v1/teams/{id}", (op) => ({
      ...op,
      responseResource: withFields(
        op.resource,
        (fields) => (fields.tier = { kind: "enum", values: ["free", "pro"], presence: 0.5 }),
      ),
    }));
    before = replace(before, "PATCH /v1/products/{id}", (op) => ({ ...op, bodyShare: 0.5 }));
    before = replace(before, "GET /v1/users/{id}", (op) => ({
      ...op,
      responseTypes: [
        ["application/json", 80],
        ["application/vnd.api+json", 20],
      ],
    }));
    before = replace(before, "POST /v1/invoices", (op) => ({
      ...op,
      statuses: [
        [201, 80],
        [422, 20],
      ],
    }));
    let after = replace(before, "GET /v1/orders/{id}", (op) => ({
      ...op,
      responseResource: withFields(op.resource, (fields) => delete fields.placed_on),
    }));
    after = replace(after, "GET /v1/teams/{id}", (op) => ({
      ...op,
      responseResource: withFields(
        op.responseResource ?? op.resource,
        (fields) => (fields.archived = { kind: "bool", presence: 0.4 }),
      ),
    }));
    after = replace(after, "POST /v1/orders", (op) => ({
      ...op,
      requestResource: withFields(op.resource, (fields) => {
        delete fields.coupon;
        fields.gift_note = { kind: "str", presence: 0.5 };
      }),
    }));
    after = replace(after, "POST /v1/invoices", (op) => ({
      ...op,
      statuses: [
        [201, 80],
        [409, 20],
      ],
    }));
    const reports = after.find((op) => op.method === "GET" && op.route === "/v1/invoices") as OperationSpec;
    after = [...after, { ...reports, route: "/v1/reports" }];
    calls = [
      ...generateTraffic(before, 1_500, 11, sinceMs, HOUR),
      ...generateTraffic(after, 1_500, 12, sinceMs + HOUR, HOUR),
    ];
    const records = calls.map((call) => ({
      app_id: fx.checkout.slug,
      environment: "production",
      timestamp: new Date(call.at).toISOString(),
      method: call.method,
      path: `${call.path}${call.query === "" ? "" : `?${call.query}`}`,
      route: call.route,
      status_code: call.status,
      response_time_ms: 10,
      consumer_id: call.consumer,
      consumer_name: call.consumer.toUpperCase(),
      request_headers: call.requestType === "" ? {} : { "content-type": call.requestType },
      response_headers: { "content-type": call.responseType },
      request_payload: call.requestPayload,
      response_payload: call.responsePayload,
    }));
    await ingest(ctx, "requests", records, fx.projectKey);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("names one change of every kind of the rule table", () => {
    expect(CHANGES.map(([kind]) => kind).sort()).toEqual([...CONTRACT_CHANGE_KINDS].sort());
  });

  it.each(CHANGES)(
    "%s on %s: exactly the consumers of the calls it affects",
    async (kind, op, status, field) => {
      const [method, path] = op.split(" ") as [string, string];
      const location = locationOf(kind);
      const change: ContractChange = {
        kind,
        breaking: CHANGE_RULES[kind].breaking,
        method,
        path,
        location,
        status,
        field,
        detail: kind,
      };
      const scope = consumerScopeOf({ id: fx.checkout.id, project_id: fx.project.id }, "production", change, {
        sinceMs,
        untilMs,
      });
      const counted = await consumersOf(ctx.deps.events, scope);

      // The same question over the generated calls.
      const bodyField = field !== null && (location === "request" || location === "response");
      const segments = bodyField ? fieldSegments(field) : [];
      const tally = new Map<string, number>();
      for (const call of calls) {
        if (call.method !== method || call.route !== path) continue;
        if (status !== null && String(call.status) !== status) continue;
        if (bodyField && !has(location === "request" ? call.requestBody : call.responseBody, segments))
          continue;
        tally.set(call.consumer, (tally.get(call.consumer) ?? 0) + 1);
      }
      const expected = [...tally.entries()]
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
        .map(([consumer, requests]) => ({
          consumer_id: consumer,
          consumer_name: consumer.toUpperCase(),
          requests,
        }));
      expect(expected.length).toBeGreaterThan(0);
      expect(counted).toEqual({ consumers: expected, total: expected.length });
    },
  );
});
