// Fidelity of the inferred contract on a generated API of 32 operations: trained on one day of
// traffic, it accepts a held-out day and rejects malformed payloads; the document is valid
// OpenAPI 3.1, stores no unsafe example, and a day of unchanged traffic changes nothing.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildDocument, type OpenApiOperation } from "../../src/modules/contract/contract-document.js";
import { diffDocuments } from "../../src/modules/contract/contract-diff.js";
import { bodyChecker } from "../../src/modules/contract/contract-fidelity.js";
import { emptyState, operationsOf } from "../../src/modules/contract/contract-state.js";
import { trainState } from "../../src/modules/contract/contract-training.js";
import {
  generateTraffic,
  malformed,
  requestFields,
  responseFields,
  seededRandom,
  testOperations,
} from "../support/contract-traffic.js";

/** What the assertions read of a derived schema. */
interface SchemaTree {
  readonly type?: unknown;
  readonly format?: string;
  readonly enum?: unknown[];
  readonly required?: string[];
  readonly examples?: unknown[];
  readonly properties: Record<string, SchemaTree>;
  readonly items: SchemaTree;
}

function responseSchema(op: OpenApiOperation | undefined): SchemaTree {
  return op?.responses["200"]?.content?.["application/json"]?.schema as unknown as SchemaTree;
}

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1);
const TRAINING = { passMs: 60_000, samplePerOperation: 200, unusedAfterMs: 7 * DAY };
const TITLE = { app: "shop", environment: "production" };

function trained(days = 1) {
  const ops = testOperations();
  const state = emptyState();
  for (let day = 0; day < days; day++) {
    trainState(state, generateTraffic(ops, 20_000, 1 + day, START + day * DAY), TRAINING);
  }
  return { ops, state };
}

// Each test trains on days of generated traffic: seconds of CPU alone, several times that when
// the suite's other files share the cores.
describe("contract inference", { timeout: 180_000 }, () => {
  it("accepts at least 99% of a held-out day and rejects at least 95% of malformed bodies", () => {
    const { ops, state } = trained();
    const document = buildDocument(operationsOf(state), TITLE);
    expect(Object.values(document.paths).flatMap((item) => Object.keys(item))).toHaveLength(ops.length);
    const accepts = bodyChecker(document);
    const heldOut = generateTraffic(ops, 20_000, 99, START + DAY);
    let valid = 0;
    let checked = 0;
    let rejected = 0;
    let broken = 0;
    const random = seededRandom(7);
    for (const call of heldOut) {
      const parts: Array<["request" | number, unknown, ReturnType<typeof requestFields> | null]> = [
        [call.status, call.responseBody, call.status < 400 ? responseFields(call.operation) : null],
      ];
      if (call.requestBody !== undefined)
        parts.push(["request", call.requestBody, requestFields(call.operation)]);
      for (const [part, body, fields] of parts) {
        checked += 1;
        if (accepts({ method: call.method, route: call.route, part, body })) valid += 1;
        if (fields === null) continue;
        const bad = malformed(body, fields, random);
        if (bad === undefined) continue;
        broken += 1;
        if (!accepts({ method: call.method, route: call.route, part, body: bad })) rejected += 1;
      }
    }
    expect(checked).toBeGreaterThan(20_000);
    expect(broken).toBeGreaterThan(10_000);
    expect(valid / checked).toBeGreaterThanOrEqual(0.99);
    expect(rejected / broken).toBeGreaterThanOrEqual(0.95);
  });

  it("infers types, formats, enums, nullability, presence and parameters", () => {
    const { state } = trained();
    const document = buildDocument(operationsOf(state), TITLE);
    const getOrder = document.paths["/v1/orders/{id}"]?.get;
    expect(getOrder?.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
    ]);
    const getUser = document.paths["/v1/users/{id}"]?.get;
    expect(getUser?.parameters?.[0]?.schema).toEqual({ type: "string", format: "uuid" });
    const listOrders = document.paths["/v1/orders"]?.get;
    expect(listOrders?.parameters?.map((param) => [param.name, param.required, param.schema])).toEqual([
      ["limit", true, { type: "integer" }],
      ["status", false, { type: "string" }],
    ]);
    const order = responseSchema(getOrder);
    expect(order.required).toEqual([
      "currency",
      "customer_id",
      "id",
      "items",
      "placed_on",
      "shipping",
      "status",
      "total",
    ]);
    expect(order.properties.currency?.enum).toEqual(["EUR", "GBP", "USD"]);
    expect(order.properties.customer_id).toMatchObject({ type: "string", format: "uuid" });
    expect(order.properties.placed_on).toMatchObject({ type: "string", format: "date" });
    expect(order.properties.shipping?.type).toEqual(["object", "null"]);
    expect(order.properties.items?.items.required).toEqual(["price", "quantity", "sku"]);
    expect(order.properties.total?.type).toBe("number");
    const user = responseSchema(document.paths["/v1/users/{id}"]?.get);
    expect(user.properties.email).toMatchObject({ type: "string", format: "email" });
    expect(user.properties.email?.examples).toBeUndefined();
    expect(user.properties.created_at?.format).toBe("date-time");
    expect(user.properties.avatar_url).toMatchObject({ type: ["string", "null"], format: "uri" });
    const payment = responseSchema(document.paths["/v1/payments/{id}"]?.get);
    expect(payment.properties.client_ip?.format).toBe("ipv4");
    expect(payment.properties.method?.properties.type?.enum).toEqual(["bank", "card"]);
    expect(payment.properties.method?.required).toEqual(["type"]);
    const product = responseSchema(document.paths["/v1/products/{id}"]?.get);
    expect(product.properties.sku_code?.type).toEqual(["string", "integer"]);
    expect(getOrder?.responses["404"]).toBeDefined();
    expect(document.paths["/v1/orders"]?.post?.requestBody?.required).toBe(true);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const { state } = trained();
    const result = await new Validator().validate(buildDocument(operationsOf(state), TITLE));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("keeps no example that looks like an e-mail, a token, a card number or a secret", () => {
    const { state } = trained();
    const text = JSON.stringify(buildDocument(operationsOf(state), TITLE));
    expect(text).not.toMatch(/@example\.com/);
    const sensitive = generateTraffic(testOperations(), 10, 3, START).map((call) => ({
      ...call,
      method: "POST",
      route: "/v1/login",
      requestPayload: JSON.stringify({
        password: "hunter2",
        card: "4111 1111 1111 1111",
        token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        note: "sk_live_51H8abcdefghijklmnop",
        contact: "jane@example.org",
      }),
      requestType: "application/json",
    }));
    const withLogin = emptyState();
    trainState(withLogin, sensitive, TRAINING);
    const login = JSON.stringify(buildDocument(operationsOf(withLogin), TITLE));
    for (const secret of ["hunter2", "4111", "eyJ", "sk_live", "jane@"]) expect(login).not.toContain(secret);
  });

  it("finds no breaking change in days of unchanged traffic, only the learning of rare enums", () => {
    const { ops, state } = trained();
    let before = buildDocument(operationsOf(state), TITLE);
    for (const day of [1, 2]) {
      trainState(state, generateTraffic(ops, 20_000, 40 + day, START + day * DAY), TRAINING);
      const after = buildDocument(operationsOf(state), TITLE);
      const changes = diffDocuments(before, after);
      expect(changes.filter((change) => change.breaking)).toEqual([]);
      // What day one had too few calls to settle (an error body's closed set of values).
      expect(changes.filter((change) => change.kind !== "enum_inferred")).toEqual([]);
      before = after;
    }
  });
});
