// The inferred contract against a declared document: every kind of difference the rule table
// names when read from a declaration to traffic, with $refs (a cyclic one too), allOf, OpenAPI
// 3.0's nullable, path-level parameters, a `4XX` range and `default` resolved as OpenAPI means
// them, and nothing reported for what the declaration allows but traffic does not use.
import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../src/modules/contract/contract-document.js";
import { diffDeclared } from "../../src/modules/contract/contract-diff.js";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const response = (schema: unknown) => ({ description: "Observed.", ...json(schema) });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const DECLARED = {
  openapi: "3.0.3",
  info: { title: "Shop", version: "1" },
  paths: {
    "/v1/orders/{orderId}": {
      parameters: [{ name: "orderId", in: "path", required: true, schema: { type: "integer" } }],
      get: {
        responses: {
          "200": { description: "An order", ...json(ref("Order")) },
          "4XX": { description: "A client error", ...json(ref("Error")) },
        },
      },
      // Declared, never called: the report's unused list, no difference here.
      patch: { responses: { "200": { description: "Updated" } } },
    },
    "/v1/orders": {
      get: {
        parameters: [
          { name: "page", in: "query", schema: { type: "integer" } },
          { name: "limit", in: "query", required: true, schema: { type: "integer" } },
          { name: "sort", in: "query", schema: { type: "string" } },
        ],
        responses: {
          "200": {
            description: "Orders",
            content: {
              "application/json; charset=utf-8": { schema: { type: "array", items: ref("Order") } },
            },
          },
        },
      },
      post: {
        requestBody: { content: { "application/json": { schema: ref("NewOrder") } } },
        responses: {
          "201": { description: "Placed", ...json(ref("Order")) },
          default: { description: "Error" },
        },
      },
    },
    "/v1/customers/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
        responses: { "200": { description: "A customer", ...json(ref("Customer")) } },
      },
    },
    "/v1/widgets": {
      get: {
        responses: {
          "200": { description: "Widgets", ...json(obj({ name: { type: "string" } }, ["name"])) },
        },
      },
    },
  },
  components: {
    schemas: {
      Base: obj({ id: { type: "integer" } }, ["id"]),
      Order: {
        allOf: [
          ref("Base"),
          obj(
            {
              status: { type: "string", enum: ["paid", "pending"] },
              total: { type: "number" },
              placed_on: { type: "string", format: "date" },
              note: { type: "string", nullable: true },
              items: { type: "array", items: ref("Item") },
              parent: ref("OrderRef"),
              payment: { oneOf: [obj({ card: { type: "string" } }), obj({ iban: { type: "string" } })] },
              code: { type: "string", format: "int-code" },
            },
            ["status", "total", "placed_on"],
          ),
        ],
      },
      // Refers to itself: resolved into a cycle, walked only as deep as the traffic's bodies go.
      OrderRef: obj({ id: { type: "integer" }, parent: ref("OrderRef") }, ["id"]),
      Item: obj({ sku: { type: "string" }, quantity: { type: "integer" } }, ["sku"]),
      NewOrder: obj({ items: { type: "array", items: ref("Item") }, coupon: { type: "string" } }, ["items"]),
      Customer: obj({
        id: { type: "string", format: "uuid" },
        email: { type: "string", format: "email" },
        metadata: { type: "object", additionalProperties: { type: "string" } },
      }),
      Error: obj({ error: { type: "string" } }, ["error"]),
    },
  },
} as unknown as OpenApiDocument;

const item = obj({ sku: { type: "string" }, quantity: { type: "number" } }, ["quantity", "sku"]);
const ORDER = obj(
  {
    id: { type: "integer" },
    status: { type: "string", enum: ["paid", "pending", "refunded", null] },
    total: { type: "number" },
    note: { type: ["string", "null"] },
    items: { type: "array", items: item },
    parent: obj({ id: { type: "integer" }, parent: obj({ id: { type: "string" } }, ["id"]) }, ["id"]),
    payment: obj({ card: { type: "string" }, iban: { type: "string" } }),
    code: { type: "string" },
    tracking_url: { type: "string", format: "uri" },
  },
  ["id", "items", "status", "total"],
);
const PLACED = obj(
  {
    id: { type: "integer" },
    status: { type: "string" },
    total: { type: "integer" },
    placed_on: { type: "string", format: "date" },
  },
  ["id", "placed_on", "status", "total"],
);

/** Written the way buildDocument writes an inferred document. */
const INFERRED = {
  openapi: "3.1.0",
  info: { title: "shop (production)", version: "inferred" },
  paths: {
    "/v1/orders/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: {
          "200": response(ORDER),
          "404": response(obj({ error: { type: "string" } }, ["error"])),
          "500": { description: "Observed." },
        },
      },
    },
    "/v1/orders": {
      get: {
        parameters: [
          { name: "cursor", in: "query", required: false, schema: { type: "string" } },
          { name: "page", in: "query", required: true, schema: { type: "integer" } },
          { name: "sort", in: "query", required: false, schema: { type: "integer" } },
        ],
        responses: { "200": response({ type: "array", items: PLACED }) },
      },
      post: {
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: obj(
                {
                  coupon: { type: "string" },
                  gift: { type: "boolean" },
                  items: { type: "array", items: obj({ sku: { type: ["string", "integer"] } }, ["sku"]) },
                },
                ["coupon", "items"],
              ),
            },
            "application/x-www-form-urlencoded": {},
          },
        },
        responses: { "201": response(PLACED), "409": { description: "Observed." } },
      },
    },
    "/v1/customers/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: {
          "200": response(
            obj({ id: { type: "integer" }, metadata: obj({ plan: { type: "string" } }) }, ["id"]),
          ),
        },
      },
    },
    "/v1/widgets": {
      get: {
        "x-sightline-learning": true,
        responses: { "200": response(obj({ size: { type: "integer" } })) },
      },
    },
    "/v1/health": { get: { responses: { "200": { description: "Observed." } } } },
  },
} as unknown as OpenApiDocument;

describe("the inferred contract against the declared document", () => {
  it("classifies each difference by the rule table at the inferred place", () => {
    const changes = diffDeclared(DECLARED, INFERRED).map((change) => ({
      kind: change.kind,
      breaking: change.breaking,
      op: `${change.method} ${change.path}`,
      status: change.status,
      field: change.field,
    }));
    expect(changes).toEqual([
      // GET /v1/orders/{id}: the path template matches {orderId}; 404 falls under 4XX.
      {
        kind: "enum_value_added",
        breaking: false,
        op: "GET /v1/orders/{id}",
        status: "200",
        field: "/status",
      },
      {
        kind: "response_field_type_changed",
        breaking: true,
        op: "GET /v1/orders/{id}",
        status: "200",
        field: "/items/*/quantity",
      },
      // Through the cyclic $ref: parent.parent is an OrderRef, whose id is an integer.
      {
        kind: "response_field_type_changed",
        breaking: true,
        op: "GET /v1/orders/{id}",
        status: "200",
        field: "/parent/parent/id",
      },
      {
        kind: "response_field_added",
        breaking: false,
        op: "GET /v1/orders/{id}",
        status: "200",
        field: "/tracking_url",
      },
      {
        kind: "response_field_removed",
        breaking: true,
        op: "GET /v1/orders/{id}",
        status: "200",
        field: "/placed_on",
      },
      { kind: "status_added", breaking: true, op: "GET /v1/orders/{id}", status: "500", field: null },
      // GET /v1/orders: an undeclared parameter, a declared required one never sent.
      { kind: "query_param_added", breaking: false, op: "GET /v1/orders", status: null, field: "cursor" },
      { kind: "query_param_removed", breaking: false, op: "GET /v1/orders", status: null, field: "limit" },
      // POST /v1/orders: 409 falls under `default`.
      { kind: "content_type_added", breaking: false, op: "POST /v1/orders", status: null, field: null },
      { kind: "request_field_added", breaking: false, op: "POST /v1/orders", status: null, field: "/gift" },
      {
        kind: "request_field_type_changed",
        breaking: true,
        op: "POST /v1/orders",
        status: null,
        field: "/items/*/sku",
      },
      {
        kind: "path_param_type_changed",
        breaking: true,
        op: "GET /v1/customers/{id}",
        status: null,
        field: "id",
      },
      {
        kind: "response_field_type_changed",
        breaking: true,
        op: "GET /v1/customers/{id}",
        status: "200",
        field: "/id",
      },
      // Still being learnt, yet what its calls did is observed: a promised field none carried.
      { kind: "response_field_added", breaking: false, op: "GET /v1/widgets", status: "200", field: "/size" },
      {
        kind: "response_field_removed",
        breaking: true,
        op: "GET /v1/widgets",
        status: "200",
        field: "/name",
      },
      { kind: "operation_added", breaking: false, op: "GET /v1/health", status: null, field: null },
    ]);
  });

  it("finds no difference between a declaration and traffic that keeps to it", () => {
    const declared = {
      openapi: "3.1.0",
      info: { title: "Shop", version: "1" },
      paths: {
        "/v1/orders/{id}": {
          get: {
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "An order", ...json(PLACED) }, default: { description: "x" } },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const inferred = {
      openapi: "3.1.0",
      paths: {
        "/v1/orders/{order_id}": {
          get: {
            parameters: [{ name: "order_id", in: "path", required: true, schema: { type: "integer" } }],
            responses: { "200": response(PLACED), "503": { description: "Observed." } },
          },
        },
      },
    } as unknown as OpenApiDocument;
    expect(diffDeclared(declared, inferred)).toEqual([]);
  });
});
