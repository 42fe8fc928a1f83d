// Change detection on the generated API: scripted sequences of contract changes, together one per
// kind of the rule table, are found with the right kind and class, and nothing else is reported.
import { CONTRACT_CHANGE_KINDS } from "@sightline/contracts";
import { describe, expect, it } from "vitest";
import { buildDocument } from "../../src/modules/contract/contract-document.js";
import { type ContractChange, diffDocuments } from "../../src/modules/contract/contract-diff.js";
import { emptyState, operationsOf } from "../../src/modules/contract/contract-state.js";
import { trainState, type TrainingOptions } from "../../src/modules/contract/contract-training.js";
import {
  type Field,
  generateTraffic,
  type OperationSpec,
  type ResourceSpec,
  testOperations,
} from "../support/contract-traffic.js";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 1);
const TITLE = { app: "shop", environment: "production" };

function withFields(resource: ResourceSpec, change: (fields: Record<string, Field>) => void): ResourceSpec {
  const fields = { ...resource.fields };
  change(fields);
  return { ...resource, fields };
}

function replace(
  ops: OperationSpec[],
  method: string,
  route: string,
  change: (op: OperationSpec) => OperationSpec,
): OperationSpec[] {
  const index = ops.findIndex((op) => op.method === method && op.route === route);
  expect(index).toBeGreaterThanOrEqual(0);
  return ops.map((op, at) => (at === index ? change(op) : op));
}

/** Every kind the scripted sequences found: the last test checks that none of the rule table's
 *  kinds is left untested. */
const found = new Set<string>();

/** Learning a rare error body's values is not a change of traffic: left out of the comparisons. */
function traffic(changes: readonly ContractChange[]) {
  for (const change of changes) found.add(change.kind);
  return changes
    .filter((change) => change.kind !== "enum_inferred" || change.status?.startsWith("2") === true)
    .map((change) => ({
      kind: change.kind,
      breaking: change.breaking,
      op: `${change.method} ${change.path}`,
      status: change.status,
      field: change.field,
    }))
    .sort((a, b) => `${a.op} ${a.kind} ${a.field}`.localeCompare(`${b.op} ${b.kind} ${b.field}`));
}

// Each test trains on days of generated traffic: seconds of CPU alone, several times that when
// the suite's other files share the cores.
describe("contract change detection", { timeout: 180_000 }, () => {
  it("finds each change of a scripted sequence with its class, and nothing else", () => {
    const training: TrainingOptions = { passMs: 60_000, samplePerOperation: 200, unusedAfterMs: 7 * DAY };
    const ops = testOperations();
    const state = emptyState();
    trainState(state, generateTraffic(ops, 20_000, 1, START), training);
    const before = buildDocument(operationsOf(state), TITLE);

    let changed = ops;
    // Response field removed: orders no longer carry placed_on.
    changed = replace(changed, "GET", "/v1/orders/{id}", (op) => ({
      ...op,
      responseResource: withFields(op.resource, (fields) => delete fields.placed_on),
    }));
    // Response field type changed: a product's price becomes text.
    changed = replace(changed, "GET", "/v1/products/{id}", (op) => ({
      ...op,
      responseResource: withFields(op.resource, (fields) => (fields.price = { kind: "str" })),
    }));
    // Request field became required: users are created with an address every time.
    changed = replace(changed, "POST", "/v1/users", (op) => ({
      ...op,
      requestResource: withFields(
        op.resource,
        (fields) => (fields.address = { ...(fields.address as Field), presence: 1 }),
      ),
    }));
    // Status code newly returned: 409 on invoice creation.
    changed = replace(changed, "POST", "/v1/invoices", (op) => ({
      ...op,
      statuses: [
        [201, 80],
        [422, 5],
        [409, 15],
      ],
    }));
    // Path parameter type changed: shipments addressed by uuid.
    changed = replace(changed, "GET", "/v1/shipments/{id}", (op) => ({ ...op, idKind: "uuid" }));
    // Optional response field added: teams gain `archived` on some.
    changed = replace(changed, "GET", "/v1/teams/{id}", (op) => ({
      ...op,
      responseResource: withFields(
        op.resource,
        (fields) => (fields.archived = { kind: "bool", presence: 0.4 }),
      ),
    }));
    // Optional request field added: orders take a gift note.
    changed = replace(changed, "POST", "/v1/orders", (op) => ({
      ...op,
      requestResource: withFields(
        op.resource,
        (fields) => (fields.gift_note = { kind: "str", presence: 0.5 }),
      ),
    }));
    // Operation added.
    const reports = testOperations().find(
      (op) => op.route === "/v1/invoices" && op.method === "GET",
    ) as OperationSpec;
    changed = [...changed, { ...reports, route: "/v1/reports" }];

    trainState(state, generateTraffic(changed, 20_000, 2, START + DAY, HOUR), training);
    const after = buildDocument(operationsOf(state), TITLE);
    expect(traffic(diffDocuments(before, after))).toEqual(
      [
        {
          kind: "path_param_type_changed",
          breaking: true,
          op: "GET /v1/shipments/{id}",
          status: null,
          field: "id",
        },
        { kind: "status_added", breaking: true, op: "POST /v1/invoices", status: "409", field: null },
        {
          kind: "response_field_removed",
          breaking: true,
          op: "GET /v1/orders/{id}",
          status: "200",
          field: "/placed_on",
        },
        {
          kind: "request_field_added",
          breaking: false,
          op: "POST /v1/orders",
          status: null,
          field: "/gift_note",
        },
        {
          kind: "response_field_type_changed",
          breaking: true,
          op: "GET /v1/products/{id}",
          status: "200",
          field: "/price",
        },
        { kind: "operation_added", breaking: false, op: "GET /v1/reports", status: null, field: null },
        {
          kind: "response_field_added",
          breaking: false,
          op: "GET /v1/teams/{id}",
          status: "200",
          field: "/archived",
        },
        {
          kind: "request_field_required",
          breaking: true,
          op: "POST /v1/users",
          status: null,
          field: "/address",
        },
      ].sort((a, b) => `${a.op} ${a.kind} ${a.field}`.localeCompare(`${b.op} ${b.kind} ${b.field}`)),
    );
  });

  it("finds an operation and an enum value gone once unused for the configured days", () => {
    const training: TrainingOptions = { passMs: 60_000, samplePerOperation: 200, unusedAfterMs: 2 * HOUR };
    const ops = replace(testOperations(), "GET", "/v1/users/{id}", (op) => ({
      ...op,
      responseTypes: [
        ["application/json", 80],
        ["application/vnd.api+json", 20],
      ],
    }));
    const state = emptyState();
    trainState(state, generateTraffic(ops, 20_000, 1, START, 3 * HOUR), training);
    const before = buildDocument(operationsOf(state), TITLE);
    const shipments = ops.find((op) => op.route === "/v1/shipments")?.resource as ResourceSpec;
    const noException = withFields(shipments, (fields) => {
      const events = fields.events as Extract<Field, { kind: "arr" }>;
      const item = events.item as Extract<Field, { kind: "obj" }>;
      fields.events = {
        ...events,
        item: {
          ...item,
          fields: { ...item.fields, code: { kind: "enum", values: ["picked", "in_transit", "delivered"] } },
        },
      };
    });
    let changed = ops
      .filter((op) => !(op.method === "GET" && op.route === "/v1/webhooks/{id}"))
      .map((op) =>
        op.route === "/v1/shipments/{id}" && op.method === "GET"
          ? { ...op, responseResource: noException }
          : op,
      );
    // Status removed: invoices are no longer refused with 422.
    changed = replace(changed, "POST", "/v1/invoices", (op) => ({ ...op, statuses: [[201, 1]] }));
    // Request field removed: orders no longer come with a coupon.
    changed = replace(changed, "POST", "/v1/orders", (op) => ({
      ...op,
      requestResource: withFields(op.resource, (fields) => delete fields.coupon),
    }));
    // Query parameter removed: shipments are no longer listed by carrier.
    changed = replace(changed, "GET", "/v1/shipments", (op) => ({
      ...op,
      resource: { ...op.resource, listQuery: {} },
    }));
    // Content type removed: users are no longer served as JSON:API.
    changed = replace(changed, "GET", "/v1/users/{id}", (op) => ({
      ...op,
      responseTypes: [["application/json", 1]],
    }));
    trainState(state, generateTraffic(changed, 20_000, 2, START + 3 * HOUR, 3 * HOUR), training);
    const after = buildDocument(operationsOf(state), TITLE);
    expect(traffic(diffDocuments(before, after))).toEqual([
      {
        kind: "query_param_removed",
        breaking: false,
        op: "GET /v1/shipments",
        status: null,
        field: "carrier",
      },
      {
        kind: "enum_value_removed",
        breaking: true,
        op: "GET /v1/shipments/{id}",
        status: "200",
        field: "/events/*/code",
      },
      { kind: "content_type_removed", breaking: true, op: "GET /v1/users/{id}", status: "200", field: null },
      { kind: "operation_removed", breaking: true, op: "GET /v1/webhooks/{id}", status: null, field: null },
      { kind: "status_removed", breaking: false, op: "POST /v1/invoices", status: "422", field: null },
      {
        kind: "request_field_removed",
        breaking: false,
        op: "POST /v1/orders",
        status: null,
        field: "/coupon",
      },
    ]);
  });

  it("finds the other kinds of the rule table: types, presence, enums, parameters, media types", () => {
    const training: TrainingOptions = { passMs: 60_000, samplePerOperation: 200, unusedAfterMs: 7 * DAY };
    // A rarely sent team tier (too few values for an enum yet), product updates without a body
    // half the time.
    const ops = replace(
      replace(testOperations(), "GET", "/v1/teams/{id}", (op) => ({
        ...op,
        responseResource: withFields(
          op.resource,
          (fields) => (fields.tier = { kind: "enum", values: ["free", "pro"], presence: 0.002 }),
        ),
      })),
      "PATCH",
      "/v1/products/{id}",
      (op) => ({ ...op, bodyShare: 0.5 }),
    );
    const state = emptyState();
    trainState(state, generateTraffic(ops, 20_000, 1, START), training);
    const before = buildDocument(operationsOf(state), TITLE);

    let changed = ops;
    // Response field optional: an invoice's issue time is sent half the time.
    changed = replace(changed, "GET", "/v1/invoices/{id}", (op) => ({
      ...op,
      responseResource: withFields(
        op.resource,
        (fields) => (fields.issued_at = { kind: "datetime", presence: 0.5 }),
      ),
    }));
    // Request field type changed: payments are created with the amount as text.
    changed = replace(changed, "POST", "/v1/payments", (op) => ({
      ...op,
      requestResource: withFields(op.resource, (fields) => (fields.amount = { kind: "str" })),
    }));
    // Enum value added: a payment may be disputed.
    changed = replace(changed, "GET", "/v1/payments/{id}", (op) => ({
      ...op,
      responseResource: withFields(
        op.resource,
        (fields) =>
          (fields.state = {
            kind: "enum",
            values: ["authorised", "captured", "refunded", "failed", "disputed"],
          }),
      ),
    }));
    // Optional query parameter added: orders are listed by coupon too.
    changed = replace(changed, "GET", "/v1/orders", (op) => ({
      ...op,
      resource: {
        ...op.resource,
        listQuery: { ...op.resource.listQuery, coupon: { kind: "str", required: false } },
      },
    }));
    // Query parameter that appears on every call: invoices listed by currency.
    changed = replace(changed, "GET", "/v1/invoices", (op) => ({
      ...op,
      resource: {
        ...op.resource,
        listQuery: { ...op.resource.listQuery, currency: { kind: "str", required: true } },
      },
    }));
    // Content type added: a user is also served as JSON:API.
    changed = replace(changed, "GET", "/v1/users/{id}", (op) => ({
      ...op,
      responseTypes: [
        ["application/json", 80],
        ["application/vnd.api+json", 20],
      ],
    }));

    // Request body required: product updates always carry one.
    changed = replace(changed, "PATCH", "/v1/products/{id}", (op) => ({ ...op, bodyShare: 1 }));
    // Enum inferred: the tier is sent often enough to show its two values.
    changed = replace(changed, "GET", "/v1/teams/{id}", (op) => ({
      ...op,
      responseResource: withFields(
        op.responseResource ?? op.resource,
        (fields) => (fields.tier = { kind: "enum", values: ["free", "pro"], presence: 0.5 }),
      ),
    }));

    trainState(state, generateTraffic(changed, 20_000, 2, START + DAY, HOUR), training);
    const after = buildDocument(operationsOf(state), TITLE);
    expect(traffic(diffDocuments(before, after))).toEqual([
      {
        kind: "query_param_required",
        breaking: true,
        op: "GET /v1/invoices",
        status: null,
        field: "currency",
      },
      {
        kind: "response_field_optional",
        breaking: true,
        op: "GET /v1/invoices/{id}",
        status: "200",
        field: "/issued_at",
      },
      { kind: "query_param_added", breaking: false, op: "GET /v1/orders", status: null, field: "coupon" },
      {
        kind: "enum_value_added",
        breaking: false,
        op: "GET /v1/payments/{id}",
        status: "200",
        field: "/state",
      },
      { kind: "enum_inferred", breaking: false, op: "GET /v1/teams/{id}", status: "200", field: "/tier" },
      { kind: "content_type_added", breaking: false, op: "GET /v1/users/{id}", status: "200", field: null },
      {
        kind: "request_body_required",
        breaking: true,
        op: "PATCH /v1/products/{id}",
        status: null,
        field: null,
      },
      {
        kind: "request_field_type_changed",
        breaking: true,
        op: "POST /v1/payments",
        status: null,
        field: "/amount",
      },
    ]);
  });

  it("reports nothing as breaking while an operation is still being learnt", () => {
    const training: TrainingOptions = { passMs: 60_000, samplePerOperation: 200, unusedAfterMs: 7 * DAY };
    const ops = testOperations();
    const state = emptyState();
    // Two calls: every field they carried looks required, and only their statuses are known.
    trainState(state, generateTraffic(ops, 2 * ops.length, 1, START, 30_000), training);
    const before = buildDocument(operationsOf(state), TITLE);
    trainState(state, generateTraffic(ops, 20_000, 2, START + 60_000), training);
    const changes = diffDocuments(before, buildDocument(operationsOf(state), TITLE));
    expect(changes.some((change) => change.kind === "response_field_optional")).toBe(true);
    expect(changes.filter((change) => change.breaking)).toEqual([]);
  });

  it("has found every kind of the rule table", () => {
    expect([...found].sort()).toEqual([...CONTRACT_CHANGE_KINDS].sort());
  });
});
