// Hostile requests generated from the app's own OpenAPI document: for every operation, its path
// parameters, query parameters, headers and JSON body are each replaced, one at a time, by values
// a careless or malicious client sends. Everything is derived from the document (parameters,
// schemas, security), so a route added anywhere is swept without touching this file. Values a
// generated request needs to reach the service (an existing project, app, key...) come from a
// caller-supplied map keyed by parameter or property name; unknown names get schema examples.
import { randomUUID } from "node:crypto";
import { amplifiedJsonBodies, otlpAmplificationBodies } from "./amplification.js";

export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly format?: string;
  readonly examples?: readonly unknown[];
  readonly example?: unknown;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly maxItems?: number;
  readonly maxProperties?: number;
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: boolean | JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly $ref?: string;
}

interface Parameter {
  readonly in: "path" | "query" | "header" | "cookie";
  readonly name: string;
  readonly required?: boolean;
  readonly schema?: JsonSchema;
  readonly example?: unknown;
}

interface OperationObject {
  readonly operationId?: string;
  readonly parameters?: readonly Parameter[];
  readonly security?: ReadonlyArray<Readonly<Record<string, readonly string[]>>>;
  readonly requestBody?: { readonly content?: Readonly<Record<string, { readonly schema?: JsonSchema }>> };
}

export interface OpenApiDocument {
  readonly paths: Readonly<Record<string, Readonly<Record<string, OperationObject>>>>;
  readonly security?: OperationObject["security"];
  readonly components?: {
    readonly schemas?: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes?: Readonly<
      Record<string, { type: string; in?: string; name?: string; scheme?: string }>
    >;
  };
}

/** How an operation authenticates, as far as a test client can satisfy it. */
export type Credential = { readonly kind: "bearer" } | { readonly kind: "header"; readonly name: string };

export interface Operation {
  readonly method: string;
  readonly template: string;
  readonly label: string;
  /** Empty when the operation is public. */
  readonly credentials: readonly Credential[];
  readonly parameters: readonly Parameter[];
  readonly body: { readonly contentType: string; readonly schema: JsonSchema } | undefined;
}

/** Values that let a generated request reach the service: by parameter or property name. */
export type KnownValues = Readonly<Record<string, string>>;

export interface SweepCase {
  readonly label: string;
  readonly method: string;
  /** Path and query, already percent-encoded as they go on the wire. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload?: string | Buffer;
  /** Whether the operation's credentials are attached. */
  readonly authenticated: boolean;
}

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const content = operation.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase(),
        template,
        label: `${method.toUpperCase()} ${template} (${operation.operationId ?? "no operationId"})`,
        credentials: credentialsOf(doc, operation.security ?? doc.security ?? []),
        parameters: operation.parameters ?? [],
        body:
          contentType === undefined
            ? undefined
            : { contentType, schema: resolve(doc, content[contentType]?.schema ?? {}) },
      });
    }
  }
  return operations;
}

function credentialsOf(
  doc: OpenApiDocument,
  security: NonNullable<OperationObject["security"]>,
): Credential[] {
  const credentials: Credential[] = [];
  for (const requirement of security) {
    for (const name of Object.keys(requirement)) {
      const scheme = doc.components?.securitySchemes?.[name];
      if (scheme?.type === "http" && scheme.scheme?.toLowerCase() === "bearer")
        credentials.push({ kind: "bearer" });
      else if (scheme?.type === "apiKey" && scheme.in === "header" && scheme.name !== undefined) {
        credentials.push({ kind: "header", name: scheme.name.toLowerCase() });
      }
    }
  }
  return credentials;
}

/** Inlines `#/components/schemas/...` references (the document keeps bodies mostly inline). */
function resolve(doc: OpenApiDocument, schema: JsonSchema, depth = 0): JsonSchema {
  if (depth > 20) return schema;
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, "").replace(/#$/, "");
    return resolve(doc, doc.components?.schemas?.[name] ?? {}, depth + 1);
  }
  const properties =
    schema.properties === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(schema.properties).map(([key, value]) => [key, resolve(doc, value, depth + 1)]),
        );
  return {
    ...schema,
    ...(properties === undefined ? {} : { properties }),
    ...(schema.items === undefined ? {} : { items: resolve(doc, schema.items, depth + 1) }),
  };
}

// ---- hostile values ----

/** Path segments as they go on the wire (already percent-encoded where needed). */
export const PATH_VALUES: readonly string[] = [
  "..",
  "..%2f..%2fetc%2fpasswd",
  "%00",
  "a%00b",
  "a".repeat(10_240),
  "%ED%A0%BD",
  "%FF%FE",
  "%E0%A4%A",
  "%",
  "'%20OR%20'1'%3D'1",
  "%3Cscript%3E",
  "%F0%9F%98%80",
  "%20",
  "ffffffff-ffff-7fff-bfff-ffffffffffff",
  "00000000-0000-7000-8000-000000000000",
];

/** Query values for text parameters, as they go on the wire. */
export const TEXT_QUERY_VALUES: readonly string[] = [
  "",
  "%00",
  "%ED%A0%BD",
  "%FF",
  "%01%1F%7F",
  "x".repeat(10_240),
  "%E2%82%AC".repeat(300),
  "'%20OR%201%3D1--",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "2026-13-45T99:99:99Z",
  "%2B275760-09-13T00:00:00Z",
  "1970-01-01",
  "9999-12-31T23:59:59Z",
  "SystemV%2FAST4",
  "..%2F..%2Fetc%2Flocaltime",
  "GET,,%00,999999999999",
];

/** Query values for numeric parameters, as they go on the wire. */
export const NUMBER_QUERY_VALUES: readonly string[] = [
  "",
  "abc",
  "1e16",
  "9007199254740993",
  "Infinity",
  "-Infinity",
  "NaN",
  "-1",
  "0",
  "1.5",
  "1e400",
  "0x1F",
];

/** JSON texts put in place of any body property: the wrong kinds of value. */
const WRONG_KIND_VALUES: readonly string[] = [
  "null",
  "true",
  "0",
  '"x"',
  "[]",
  "{}",
  '["a", 1, null]',
  '{"a": {"b": [1]}}',
];

/** JSON texts put in place of a text property. */
const TEXT_BODY_VALUES: readonly string[] = [
  '""',
  `"${"x".repeat(100_000)}"`,
  '"\\ud83d"',
  '"a\\ud83dz\\udc00"',
  '"\\u0000"',
  '"a\\u0000b\\u0001\\u001f\\u007f\\u2028"',
  `"' OR '1'='1"`,
  '"<script>alert(1)</script>"',
  '"../../etc/passwd"',
  '"${jndi:ldap://example.invalid/a}"',
  '"2026-13-45T99:99:99Z"',
  '"+275760-09-13T00:00:00.000Z"',
  '"SystemV/AST4"',
];

/** JSON texts put in place of a numeric property. */
const NUMBER_BODY_VALUES: readonly string[] = [
  "-1",
  "-0",
  "1.5",
  "1e308",
  "-1e308",
  "1e400",
  "9007199254740993",
  '"NaN"',
  '"Infinity"',
  '"-1e999"',
];

/** The values tried in place of one body property of this schema. */
function bodyValuesFor(schema: JsonSchema): readonly string[] {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const numeric = types.includes("number") || types.includes("integer");
  const text = types.includes("string");
  if (!numeric && !text) return [...WRONG_KIND_VALUES, ...TEXT_BODY_VALUES, ...NUMBER_BODY_VALUES];
  return [...WRONG_KIND_VALUES, ...(text ? TEXT_BODY_VALUES : []), ...(numeric ? NUMBER_BODY_VALUES : [])];
}

/** Whole bodies that are not what any route expects. */
const MALFORMED_BODIES: ReadonlyArray<[string, string]> = [
  ["truncated JSON", '{"a":'],
  ["unclosed array", "["],
  ["not JSON", "not json at all"],
  ["empty body", ""],
  ["JSON null", "null"],
  ["JSON array", "[]"],
  ["JSON string", '"text"'],
  ["JSON number", "123"],
  ["NaN literal", '{"a": NaN}'],
  ["Infinity literal", '{"a": Infinity}'],
  ["deep nesting", `${"[".repeat(50_000)}${"]".repeat(50_000)}`],
  ["__proto__ member", '{"__proto__": {"polluted": true}}'],
  ["constructor member", '{"constructor": {"prototype": {"polluted": true}}}'],
  ["duplicate members", '{"a": 1, "a": 2}'],
  ["a member named by a lone surrogate", '{"\\ud83d": 1, "a\\u0000": 2}'],
  ["BOM and whitespace", "\ufeff  {}  "],
];

// ---- baseline values ----

/** A value valid for `schema`, preferring known values, then the document's examples. */
export function sample(schema: JsonSchema, name: string | undefined, known: KnownValues): unknown {
  if (name !== undefined && known[name] !== undefined) return known[name];
  if (schema.examples?.[0] !== undefined) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.[0] !== undefined) return schema.enum[0];
  if (schema.anyOf?.[0] !== undefined) return sample(schema.anyOf[0], name, known);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(schema.properties?.[key] ?? {}, key, known);
      return out;
    }
    case "array":
      return [sample(schema.items ?? {}, undefined, known)];
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    default:
      if (schema.format === "uuid") return randomUUID();
      if (schema.format === "date-time") return new Date().toISOString();
      if (schema.format === "email") return "sweep@example.com";
      return "x";
  }
}

// ---- cases ----

export interface CaseContext {
  readonly known: KnownValues;
  /** Headers carrying the operation's credentials, when the caller can provide them. */
  readonly credentials: (operation: Operation) => Readonly<Record<string, string>> | undefined;
}

/** Every hostile case of one operation, with and without credentials. */
export function casesOf(operation: Operation, context: CaseContext): SweepCase[] {
  const { known } = context;
  const pathValue = (parameter: Parameter): string =>
    encodeURIComponent(String(sample(parameter.schema ?? {}, parameter.name, known)));
  const baseQuery = operation.parameters
    .filter((parameter) => parameter.in === "query" && parameter.required === true)
    .map((parameter) => `${parameter.name}=${encodeURIComponent(String(sampleParameter(parameter, known)))}`);
  const baseHeaders = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === "header" && parameter.required === true)
      .map((parameter) => [parameter.name, String(sampleParameter(parameter, known))]),
  );

  const urlWith = (pathOverride?: [string, string], query: readonly string[] = baseQuery): string => {
    const path = operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (pathOverride !== undefined && pathOverride[0] === name) return pathOverride[1];
      const parameter = operation.parameters.find((p) => p.in === "path" && p.name === name);
      return parameter === undefined ? "x" : pathValue(parameter);
    });
    return query.length === 0 ? path : `${path}?${query.join("&")}`;
  };

  const body = operation.body;
  const baseBody = body === undefined ? undefined : (sample(body.schema, undefined, known) as unknown);
  const jsonBody = body !== undefined && body.contentType.startsWith("application/json");
  const basePayload: { payload?: string; headers: Record<string, string> } = jsonBody
    ? { payload: JSON.stringify(baseBody), headers: { "content-type": body.contentType } }
    : { headers: {} };

  // `perField`: one value in one field. Without credentials such a request is refused before its
  // fields are read, so those are sent with credentials only (when the operation has any).
  const variants: Array<Omit<SweepCase, "authenticated"> & { perField: boolean }> = [];
  const add = (
    label: string,
    parts: Partial<Omit<SweepCase, "authenticated" | "label" | "method">>,
    perField = false,
  ) =>
    variants.push({
      perField,
      label,
      method: operation.method,
      url: parts.url ?? urlWith(),
      headers: { ...baseHeaders, ...basePayload.headers, ...parts.headers },
      ...(() => {
        const payload = "payload" in parts ? parts.payload : basePayload.payload;
        return payload === undefined ? {} : { payload };
      })(),
    });

  add("baseline", {});
  add("with an unknown query parameter", { url: urlWith(undefined, [...baseQuery, "unexpected=1"]) });

  for (const parameter of operation.parameters) {
    if (parameter.in === "path") {
      for (const value of PATH_VALUES)
        add(`path ${parameter.name}=${short(value)}`, { url: urlWith([parameter.name, value]) });
    } else if (parameter.in === "query") {
      const others = baseQuery.filter((pair) => !pair.startsWith(`${parameter.name}=`));
      const type = parameter.schema?.type ?? parameter.schema?.items?.type;
      const values = type === "number" || type === "integer" ? NUMBER_QUERY_VALUES : TEXT_QUERY_VALUES;
      for (const value of values) {
        const url = urlWith(undefined, [...others, `${parameter.name}=${value}`]);
        add(`query ${parameter.name}=${short(value)}`, { url }, true);
      }
      const repeated = urlWith(undefined, [...others, `${parameter.name}=a`, `${parameter.name}=b`]);
      add(`query ${parameter.name} repeated`, { url: repeated }, true);
      add(
        `query ${parameter.name} without a value`,
        { url: urlWith(undefined, [...others, parameter.name]) },
        true,
      );
    } else if (parameter.in === "header") {
      for (const value of ["", " ", "x".repeat(8_000), "\t\u00ff\u00fe", "a,b", "%00"]) {
        add(`header ${parameter.name}=${short(value)}`, { headers: { [parameter.name]: value } }, true);
      }
    }
  }

  if (body !== undefined) {
    const type = body.contentType;
    for (const [label, payload] of MALFORMED_BODIES)
      add(`body: ${label}`, { payload, headers: { "content-type": type } });
    const basePayloadText = basePayload.payload ?? "{}";
    add("body as text/plain", { payload: basePayloadText, headers: { "content-type": "text/plain" } });
    add("body as a form", {
      payload: "a=b&c=d",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    add("body as UTF-16 JSON", {
      payload: basePayloadText,
      headers: { "content-type": "application/json; charset=utf-16" },
    });
    add("body without a content type", { payload: basePayloadText, headers: { "content-type": "" } });
    add("body claiming gzip", {
      payload: basePayloadText,
      headers: { "content-type": type, "content-encoding": "gzip" },
    });
    add("multipart without a boundary", {
      payload: "--x\r\n\r\n",
      headers: { "content-type": "multipart/form-data" },
    });
    add("multipart with garbage", {
      payload:
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot an image\r\n--b--\r\n',
      headers: { "content-type": "multipart/form-data; boundary=b" },
    });
    add("multipart cut short", {
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      headers: { "content-type": "multipart/form-data; boundary=b" },
    });
    if (jsonBody && isRecord(baseBody)) {
      for (const [label, text] of bodyVariants(body.schema, baseBody)) {
        add(`body ${label}`, { payload: text, headers: { "content-type": type } }, true);
      }
    }
  }

  const secured = operation.credentials.length > 0;
  const credentials = secured ? context.credentials(operation) : undefined;
  const cases: SweepCase[] = variants
    .filter((variant) => !secured || credentials === undefined || !variant.perField)
    .map(({ perField: _perField, ...variant }) => ({ ...variant, authenticated: false }));
  if (credentials !== undefined) {
    for (const { perField: _perField, ...variant } of variants) {
      cases.push({ ...variant, headers: { ...variant.headers, ...credentials }, authenticated: true });
    }
  }
  if (operation.credentials.length > 0) {
    for (const [label, headers] of badCredentials(operation)) {
      cases.push({
        label,
        method: operation.method,
        url: urlWith(),
        headers: { ...baseHeaders, ...basePayload.headers, ...headers },
        ...(basePayload.payload === undefined ? {} : { payload: basePayload.payload }),
        authenticated: false,
      });
    }
  }
  return cases;
}

// ---- amplification ----

export interface AmplificationContext extends CaseContext {
  /** Bytes the operation's body may have (after decoding), so bodies reach the service. */
  readonly budgetBytes: (operation: Operation) => number;
}

/**
 * The amplification class: for an operation that takes a body, the smallest bodies that decode
 * to the most items (see support/amplification.ts), with the operation's credentials. The OTLP
 * receivers get hand-written protobuf and JSON exports.
 */
export function amplificationCasesOf(operation: Operation, context: AmplificationContext): SweepCase[] {
  const { body } = operation;
  if (body === undefined) return [];
  const budget = context.budgetBytes(operation);
  const otlp = /\/otlp\/v1\/(traces|logs)$/.exec(operation.template)?.[1] as "traces" | "logs" | undefined;
  const bodies =
    otlp !== undefined
      ? otlpAmplificationBodies(otlp, budget)
      : body.contentType.startsWith("application/json")
        ? amplifiedJsonBodies(
            body.schema,
            sample(body.schema, undefined, context.known),
            budget,
            body.contentType,
          )
        : [];
  const path = operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters.find((p) => p.in === "path" && p.name === name);
    return encodeURIComponent(String(sample(parameter?.schema ?? {}, name, context.known)));
  });
  const query = operation.parameters
    .filter((parameter) => parameter.in === "query" && parameter.required === true)
    .map(
      (parameter) =>
        `${parameter.name}=${encodeURIComponent(String(sampleParameter(parameter, context.known)))}`,
    );
  const credentials = context.credentials(operation) ?? {};
  return bodies.map((amplified) => ({
    label: `amplification: ${amplified.label}`,
    method: operation.method,
    url: query.length === 0 ? path : `${path}?${query.join("&")}`,
    headers: {
      "content-type": amplified.contentType,
      ...(amplified.contentEncoding === undefined ? {} : { "content-encoding": amplified.contentEncoding }),
      ...credentials,
    },
    payload: amplified.payload,
    authenticated: Object.keys(credentials).length > 0,
  }));
}

function sampleParameter(parameter: Parameter, known: KnownValues): unknown {
  if (known[parameter.name] !== undefined) return known[parameter.name];
  return parameter.example ?? sample(parameter.schema ?? {}, parameter.name, known);
}

function badCredentials(operation: Operation): Array<[string, Record<string, string>]> {
  const out: Array<[string, Record<string, string>]> = [];
  for (const credential of operation.credentials) {
    if (credential.kind === "bearer") {
      out.push(["bearer: not a JWT", { authorization: "Bearer not-a-token" }]);
      out.push(["bearer: forged JWT", { authorization: `Bearer ${forgedJwt()}` }]);
      out.push(["bearer: wrong scheme", { authorization: "Basic dXNlcjpwYXNz" }]);
      out.push(["bearer: 8 KB token", { authorization: `Bearer ${"a".repeat(8_000)}` }]);
    } else {
      out.push([`${credential.name}: unknown key`, { [credential.name]: `sl_${"A".repeat(54)}` }]);
      out.push([`${credential.name}: empty`, { [credential.name]: "" }]);
    }
  }
  return out;
}

function forgedJwt(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: randomUUID(), sid: randomUUID(), type: "access" })}.`;
}

/** The body with one property (top level, or of the first item of an array of objects) replaced,
 *  removed, or joined by an unknown one. */
function bodyVariants(schema: JsonSchema, base: Record<string, unknown>): Array<[string, string]> {
  const variants: Array<[string, string]> = [];
  const visit = (
    objectSchema: JsonSchema,
    value: Record<string, unknown>,
    path: string,
    rebuild: (inner: string) => string,
  ) => {
    const properties = objectSchema.properties ?? {};
    for (const [key, propertySchema] of Object.entries(properties)) {
      const others = Object.entries(value).filter(([name]) => name !== key);
      const with_ = (text: string) =>
        rebuild(
          `{${[...others.map(([name, item]) => `${JSON.stringify(name)}:${JSON.stringify(item)}`), `${JSON.stringify(key)}:${text}`].join(",")}}`,
        );
      for (const text of [
        ...bodyValuesFor(propertySchema),
        ...schemaAwareValues(propertySchema, value[key]),
      ]) {
        variants.push([`${path}${key}=${short(text)}`, with_(text)]);
      }
      if ((objectSchema.required ?? []).includes(key)) {
        variants.push([`${path}${key} missing`, rebuild(JSON.stringify(Object.fromEntries(others)))]);
      }
      const items = propertySchema.items;
      const first = value[key];
      if (items?.properties !== undefined && Array.isArray(first) && isRecord(first[0])) {
        visit(items, first[0], `${path}${key}[0].`, (inner) => with_(`[${inner}]`));
      }
    }
    variants.push([`${path}unknown member`, rebuild(JSON.stringify({ ...value, unexpected_member: 1 }))]);
    variants.push([`${path}every member missing`, rebuild("{}")]);
  };
  visit(schema, base, "", (inner) => inner);
  return variants;
}

/** Values at the edge of what the schema allows: multi-byte strings of its maximum length, also
 *  grown from the valid value so that a pattern on its start (`^/`) still matches. */
function schemaAwareValues(schema: JsonSchema, valid: unknown): string[] {
  if (schema.maxLength === undefined) return [];
  const max = schema.maxLength;
  const values = [wide(max), "😀".repeat(max)];
  if (typeof valid === "string" && valid.length < max) values.push(valid + wide(max - [...valid].length));
  return values.map((value) => JSON.stringify(value));
}

/** `length` three-byte characters that do not repeat: incompressible, so a store sees its full size. */
function wide(length: number): string {
  return Array.from({ length }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_000))).join("");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 24)}…(${text.length} chars)` : text;
}

/** Every number a client sends (parameters and request bodies) that has no maximum. */
export function unboundedNumbers(doc: OpenApiDocument): string[] {
  const found: string[] = [];
  const walk = (schema: JsonSchema, where: string) => {
    const type = Array.isArray(schema.type) ? schema.type : [schema.type];
    // A literal (`const`) or an enumeration is bounded by its values.
    const bounded = schema.maximum !== undefined || schema.const !== undefined || schema.enum !== undefined;
    if ((type.includes("number") || type.includes("integer")) && !bounded) found.push(where);
    for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, `${where}.${key}`);
    if (schema.items !== undefined) walk(schema.items, `${where}[]`);
    for (const [i, option] of (schema.anyOf ?? []).entries()) walk(option, `${where}|${i}`);
  };
  for (const operation of operationsOf(doc)) {
    for (const parameter of operation.parameters)
      walk(parameter.schema ?? {}, `${operation.label} ${parameter.in} ${parameter.name}`);
    if (operation.body !== undefined) walk(operation.body.schema, `${operation.label} body`);
  }
  return found;
}
