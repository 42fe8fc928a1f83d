// A generated test API for the contract inference (tests and bench:contract): 8 resources x 4
// operations with nested bodies, optional and nullable fields, enums, arrays of objects, string
// formats and polymorphic fields; seeded traffic over it, and malformed variants of its payloads.
import type { SampledCall } from "../../src/modules/contract/operation-stats.js";

export type FieldSpec =
  | {
      readonly kind: "int" | "num" | "bool" | "str" | "uuid" | "datetime" | "date" | "email" | "uri" | "ipv4";
    }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "obj"; readonly fields: Readonly<Record<string, Field>> }
  | { readonly kind: "arr"; readonly item: Field }
  /** int or text: a polymorphic scalar. */
  | { readonly kind: "poly" }
  /** One of several object shapes told apart by `type`. */
  | {
      readonly kind: "variant";
      readonly variants: Readonly<Record<string, Readonly<Record<string, Field>>>>;
    };

export type Field = FieldSpec & {
  /** Share of objects carrying the field (1 when absent). */
  readonly presence?: number;
  /** Share of values that are null. */
  readonly nulls?: number;
};

export interface ResourceSpec {
  readonly name: string;
  readonly idKind: "int" | "uuid";
  readonly fields: Readonly<Record<string, Field>>;
  /** Query parameters of the list operation: name -> kind, always sent when `required`. */
  readonly listQuery: Readonly<Record<string, { kind: "int" | "str" | "bool"; required: boolean }>>;
}

export interface OperationSpec {
  readonly method: string;
  readonly route: string;
  readonly resource: ResourceSpec;
  readonly role: "list" | "get" | "create" | "update";
  /** Status codes with their weights; 2xx bodies follow the resource, others an error body. */
  readonly statuses: ReadonlyArray<readonly [number, number]>;
  readonly weight: number;
  /** This operation's own request or response resource (a changed operation). */
  readonly requestResource?: ResourceSpec;
  readonly responseResource?: ResourceSpec;
  /** Kind of the `{id}` parameter when it differs from the resource's. */
  readonly idKind?: "int" | "uuid";
  /** Media types of 2xx response bodies with their weights (JSON text whatever the type);
   *  `application/json; charset=utf-8` when absent. */
  readonly responseTypes?: ReadonlyArray<readonly [string, number]>;
  /** Share of create and update calls that carry a body (1 when absent). */
  readonly bodyShare?: number;
}

const address: Field = {
  kind: "obj",
  fields: {
    line1: { kind: "str" },
    line2: { kind: "str", presence: 0.3 },
    city: { kind: "str" },
    country: { kind: "enum", values: ["DE", "FR", "GB", "US", "NL"] },
    postcode: { kind: "str", presence: 0.9 },
  },
};

export const TEST_RESOURCES: readonly ResourceSpec[] = [
  {
    name: "users",
    idKind: "uuid",
    fields: {
      id: { kind: "uuid" },
      email: { kind: "email" },
      name: { kind: "str" },
      role: { kind: "enum", values: ["admin", "member", "viewer"] },
      created_at: { kind: "datetime" },
      avatar_url: { kind: "uri", nulls: 0.4 },
      address: { ...address, presence: 0.6 },
      tags: { kind: "arr", item: { kind: "str" } },
    },
    listQuery: { page: { kind: "int", required: false }, role: { kind: "str", required: false } },
  },
  {
    name: "orders",
    idKind: "int",
    fields: {
      id: { kind: "int" },
      status: { kind: "enum", values: ["pending", "paid", "shipped", "cancelled"] },
      total: { kind: "num" },
      currency: { kind: "enum", values: ["EUR", "USD", "GBP"] },
      placed_on: { kind: "date" },
      customer_id: { kind: "uuid" },
      items: {
        kind: "arr",
        item: {
          kind: "obj",
          fields: {
            sku: { kind: "str" },
            quantity: { kind: "int" },
            price: { kind: "num" },
            note: { kind: "str", presence: 0.2 },
          },
        },
      },
      shipping: { ...address, nulls: 0.2 },
      coupon: { kind: "str", presence: 0.25 },
    },
    listQuery: { limit: { kind: "int", required: true }, status: { kind: "str", required: false } },
  },
  {
    name: "products",
    idKind: "int",
    fields: {
      id: { kind: "int" },
      title: { kind: "str" },
      price: { kind: "num" },
      in_stock: { kind: "bool" },
      category: { kind: "enum", values: ["books", "games", "music", "tools", "garden", "toys"] },
      dimensions: {
        kind: "obj",
        presence: 0.7,
        fields: {
          width: { kind: "num" },
          height: { kind: "num" },
          unit: { kind: "enum", values: ["cm", "in"] },
        },
      },
      sku_code: { kind: "poly" },
    },
    listQuery: { q: { kind: "str", required: false }, in_stock: { kind: "bool", required: false } },
  },
  {
    name: "invoices",
    idKind: "uuid",
    fields: {
      id: { kind: "uuid" },
      order_id: { kind: "int" },
      issued_at: { kind: "datetime" },
      due_on: { kind: "date" },
      amount: { kind: "num" },
      paid: { kind: "bool" },
      lines: {
        kind: "arr",
        item: {
          kind: "obj",
          fields: { label: { kind: "str" }, amount: { kind: "num" }, tax_rate: { kind: "num", nulls: 0.3 } },
        },
      },
      pdf_url: { kind: "uri", presence: 0.5 },
    },
    listQuery: { from: { kind: "str", required: false }, page: { kind: "int", required: false } },
  },
  {
    name: "payments",
    idKind: "uuid",
    fields: {
      id: { kind: "uuid" },
      amount: { kind: "num" },
      state: { kind: "enum", values: ["authorised", "captured", "refunded", "failed"] },
      method: {
        kind: "variant",
        variants: {
          card: {
            brand: { kind: "enum", values: ["visa", "mastercard", "amex"] },
            exp_month: { kind: "int" },
          },
          bank: { bank_name: { kind: "str" }, country: { kind: "enum", values: ["DE", "FR", "NL"] } },
        },
      },
      captured_at: { kind: "datetime", nulls: 0.3 },
      client_ip: { kind: "ipv4" },
    },
    listQuery: { limit: { kind: "int", required: true } },
  },
  {
    name: "shipments",
    idKind: "int",
    fields: {
      id: { kind: "int" },
      carrier: { kind: "enum", values: ["dhl", "ups", "fedex", "postnl"] },
      tracking: { kind: "str" },
      events: {
        kind: "arr",
        item: {
          kind: "obj",
          fields: {
            at: { kind: "datetime" },
            code: { kind: "enum", values: ["picked", "in_transit", "delivered", "exception"] },
            location: {
              kind: "obj",
              presence: 0.8,
              fields: { city: { kind: "str" }, lat: { kind: "num" }, lon: { kind: "num" } },
            },
          },
        },
      },
      eta: { kind: "date", nulls: 0.25 },
    },
    listQuery: { carrier: { kind: "str", required: false } },
  },
  {
    name: "teams",
    idKind: "uuid",
    fields: {
      id: { kind: "uuid" },
      name: { kind: "str" },
      members: {
        kind: "arr",
        item: {
          kind: "obj",
          fields: { user_id: { kind: "uuid" }, role: { kind: "enum", values: ["lead", "member"] } },
        },
      },
      settings: {
        kind: "obj",
        fields: {
          visibility: { kind: "enum", values: ["public", "private"] },
          notify: { kind: "bool" },
          limits: {
            kind: "obj",
            presence: 0.5,
            fields: { seats: { kind: "int" }, storage_gb: { kind: "num" } },
          },
        },
      },
    },
    listQuery: { page: { kind: "int", required: false } },
  },
  {
    name: "webhooks",
    idKind: "int",
    fields: {
      id: { kind: "int" },
      url: { kind: "uri" },
      events: {
        kind: "arr",
        item: { kind: "enum", values: ["order.paid", "order.shipped", "invoice.issued", "user.created"] },
      },
      active: { kind: "bool" },
      last_delivery: {
        kind: "obj",
        nulls: 0.3,
        fields: { at: { kind: "datetime" }, status: { kind: "int" }, duration_ms: { kind: "num" } },
      },
      target: { kind: "poly" },
    },
    listQuery: { active: { kind: "bool", required: false } },
  },
];

/** The 32 operations: list, get, create and update of each resource. */
export function testOperations(resources: readonly ResourceSpec[] = TEST_RESOURCES): OperationSpec[] {
  return resources.flatMap((resource) => [
    {
      method: "GET",
      route: `/v1/${resource.name}`,
      resource,
      role: "list",
      statuses: [
        [200, 97],
        [400, 3],
      ],
      weight: 4,
    },
    {
      method: "GET",
      route: `/v1/${resource.name}/{id}`,
      resource,
      role: "get",
      statuses: [
        [200, 94],
        [404, 6],
      ],
      weight: 4,
    },
    {
      method: "POST",
      route: `/v1/${resource.name}`,
      resource,
      role: "create",
      statuses: [
        [201, 95],
        [422, 5],
      ],
      weight: 2,
    },
    {
      method: "PATCH",
      route: `/v1/${resource.name}/{id}`,
      resource,
      role: "update",
      statuses: [
        [200, 95],
        [404, 5],
      ],
      weight: 1,
    },
  ]);
}

/** A small seeded PRNG (mulberry32), so every run sees the same traffic. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function hex(random: () => number, length: number): string {
  let text = "";
  for (let index = 0; index < length; index++) text += "0123456789abcdef"[Math.floor(random() * 16)];
  return text;
}

export function valueOf(field: Field, random: () => number): unknown {
  if (field.nulls !== undefined && random() < field.nulls) return null;
  switch (field.kind) {
    case "int":
      return Math.floor(random() * 100_000);
    case "num":
      return Math.round(random() * 100_000) / 100 + 0.01;
    case "bool":
      return random() < 0.5;
    case "str":
      return `${pick(random, WORDS)} ${pick(random, WORDS)} ${Math.floor(random() * 1000)}`;
    case "uuid":
      return `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`;
    case "datetime":
      return new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 3e10)).toISOString();
    case "date":
      return new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 3e10)).toISOString().slice(0, 10);
    case "email":
      return `${pick(random, WORDS)}.${Math.floor(random() * 1000)}@example.com`;
    case "uri":
      return `https://cdn.example.com/${pick(random, WORDS)}/${Math.floor(random() * 1000)}`;
    case "ipv4":
      return `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`;
    case "enum":
      return pick(random, field.values);
    case "obj":
      return objectOf(field.fields, random);
    case "arr": {
      const length = Math.floor(random() * 4);
      return Array.from({ length }, () => valueOf(field.item, random));
    }
    case "poly":
      return random() < 0.5
        ? Math.floor(random() * 10_000)
        : `code-${pick(random, WORDS)}-${Math.floor(random() * 100)}`;
    case "variant": {
      const type = pick(random, Object.keys(field.variants));
      return { type, ...objectOf(field.variants[type] ?? {}, random) };
    }
  }
}

function objectOf(fields: Readonly<Record<string, Field>>, random: () => number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.presence !== undefined && random() >= field.presence) continue;
    object[name] = valueOf(field, random);
  }
  return object;
}

/** The writable fields of a resource (all but `id`). */
function inputFields(resource: ResourceSpec, partial: boolean): Record<string, Field> {
  const fields: Record<string, Field> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (name === "id") continue;
    fields[name] = partial ? { ...field, presence: 0.5 } : field;
  }
  return fields;
}

export interface GeneratedCall extends SampledCall {
  readonly consumer: string;
  /** The parsed bodies (undefined: none), for validation. */
  readonly requestBody: unknown;
  readonly responseBody: unknown;
  readonly operation: OperationSpec;
}

const CONSUMERS = ["web-app", "ios-app", "android-app", "partner-acme", "partner-globex", "batch-jobs"];

/** `count` calls spread over one day from `startMs`, drawn by weight from `operations`. */
export function generateTraffic(
  operations: readonly OperationSpec[],
  count: number,
  seed: number,
  startMs: number,
  spanMs = 86_400_000,
): GeneratedCall[] {
  const random = seededRandom(seed);
  const totalWeight = operations.reduce((sum, op) => sum + op.weight, 0);
  const calls: GeneratedCall[] = [];
  for (let index = 0; index < count; index++) {
    let roll = random() * totalWeight;
    let op = operations[0] as OperationSpec;
    for (const candidate of operations) {
      roll -= candidate.weight;
      if (roll < 0) {
        op = candidate;
        break;
      }
    }
    calls.push(callOf(op, random, startMs + Math.floor((index / count) * spanMs)));
  }
  return calls;
}

function weighted<T>(random: () => number, choices: ReadonlyArray<readonly [T, number]>): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [value, weight] of choices) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return (choices[choices.length - 1] as readonly [T, number])[0];
}

function callOf(op: OperationSpec, random: () => number, at: number): GeneratedCall {
  const resource = op.responseResource ?? op.resource;
  const statusTotal = op.statuses.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * statusTotal;
  let status = op.statuses[0]?.[0] ?? 200;
  for (const [code, weight] of op.statuses) {
    roll -= weight;
    if (roll < 0) {
      status = code;
      break;
    }
  }
  const id =
    (op.idKind ?? op.resource.idKind) === "int"
      ? String(Math.floor(random() * 100_000))
      : (valueOf({ kind: "uuid" }, random) as string);
  const path = op.route.replace("{id}", id);
  const query = new URLSearchParams();
  if (op.role === "list") {
    for (const [name, param] of Object.entries(op.resource.listQuery)) {
      if (!param.required && random() < 0.5) continue;
      query.set(
        name,
        param.kind === "int"
          ? String(Math.floor(random() * 50))
          : param.kind === "bool"
            ? String(random() < 0.5)
            : pick(random, WORDS),
      );
    }
  }
  const input = op.requestResource ?? op.resource;
  const bodyless = op.bodyShare !== undefined && random() >= op.bodyShare;
  const requestBody = bodyless
    ? undefined
    : op.role === "create"
      ? objectOf(inputFields(input, false), random)
      : op.role === "update"
        ? objectOf(inputFields(input, true), random)
        : undefined;
  let responseBody: unknown;
  if (status >= 400)
    responseBody = {
      error: pick(random, ["not_found", "validation_error", "bad_request"]),
      message: `${pick(random, WORDS)} failed at step ${Math.floor(random() * 100)}`,
    };
  else if (op.role === "list")
    responseBody = {
      data: Array.from({ length: 1 + Math.floor(random() * 3) }, () => objectOf(resource.fields, random)),
      next: random() < 0.5 ? null : `${Math.floor(random() * 100)}`,
    };
  else responseBody = objectOf(resource.fields, random);
  return {
    method: op.method,
    route: op.route,
    path,
    query: query.toString(),
    status,
    at,
    requestType: requestBody === undefined ? "" : "application/json",
    responseType:
      status < 400 && op.responseTypes !== undefined
        ? weighted(random, op.responseTypes)
        : "application/json; charset=utf-8",
    requestPayload: requestBody === undefined ? "" : JSON.stringify(requestBody),
    responsePayload: JSON.stringify(responseBody),
    consumer: pick(random, CONSUMERS),
    requestBody,
    responseBody,
    operation: op,
  };
}

/**
 * A malformed copy of `body` under `fields` (the spec it was generated from), or undefined when
 * it has nothing to break: one of a wrong type, a required field dropped, a value outside an
 * enum, a broken format, or null where none is allowed.
 */
export function malformed(
  body: unknown,
  fields: Readonly<Record<string, Field>>,
  random: () => number,
): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const copy = structuredClone(body) as Record<string, unknown>;
  const candidates = Object.entries(fields).filter(([name]) => name in copy);
  if (candidates.length === 0) return undefined;
  const [name, field] = pick(random, candidates);
  const value = copy[name];
  const mutations: Array<() => void> = [];
  const required = field.presence === undefined;
  if (required) mutations.push(() => delete copy[name]);
  if (value !== null) {
    mutations.push(() => {
      copy[name] =
        typeof value === "string" || typeof value === "number" ? { unexpected: true } : "unexpected text";
    });
    if (field.nulls === undefined) mutations.push(() => (copy[name] = null));
    if (field.kind === "enum") mutations.push(() => (copy[name] = "zz_not_a_value"));
    if (["uuid", "datetime", "date", "email", "uri", "ipv4"].includes(field.kind))
      mutations.push(() => (copy[name] = "not formatted"));
  }
  if (mutations.length === 0) return undefined;
  pick(random, mutations)();
  return copy;
}

/** The spec of a 2xx response body of `op` (list bodies wrap items in `data`). */
export function responseFields(op: OperationSpec): Readonly<Record<string, Field>> {
  return op.role === "list"
    ? {
        data: { kind: "arr", item: { kind: "obj", fields: (op.responseResource ?? op.resource).fields } },
        next: { kind: "str", nulls: 0.5 },
      }
    : (op.responseResource ?? op.resource).fields;
}

export function requestFields(op: OperationSpec): Readonly<Record<string, Field>> {
  return inputFields(op.requestResource ?? op.resource, op.role === "update");
}
