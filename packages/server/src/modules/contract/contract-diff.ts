// Differences between two versions of a contract, each classified breaking or non-breaking by
// the rule table (README "API contract", docs/adr/0021): between two inferred versions, or from
// the declared document to an inferred version (diffDeclared: traffic measured against what the
// team promises; what the declaration allows and traffic merely does not use is no difference).
import type { ContractChangeKind } from "@sightline/contracts";
import {
  HTTP_METHODS,
  LEARNING_EXTENSION,
  type OpenApiDocument,
  type OpenApiOperation,
} from "./contract-document.js";
import { declaredSchemaView, mediaTypeOf, normaliseDeclared } from "./declared-view.js";
import type { JsonSchema } from "./schema-stats.js";
import { STRING_FORMATS } from "./value-kinds.js";

export type ChangeLocation = "operation" | "path" | "query" | "request" | "response";

export interface ContractChange {
  readonly kind: ContractChangeKind;
  readonly breaking: boolean;
  readonly method: string;
  readonly path: string;
  readonly location: ChangeLocation;
  /** The response status for response changes, else null. */
  readonly status: string | null;
  /** The parameter name, or the field's place in the body (`/items/*\/sku`, `*` for any array
   *  item); null for whole-operation and status changes. */
  readonly field: string | null;
  readonly detail: string;
}

/** Whether each kind breaks consumers: the rule table, in one place. */
export const CHANGE_RULES: Readonly<Record<ContractChangeKind, { breaking: boolean; rule: string }>> = {
  operation_removed: { breaking: true, rule: "An operation is no longer served." },
  operation_added: { breaking: false, rule: "A new operation." },
  path_param_type_changed: { breaking: true, rule: "A path parameter's type or format changed." },
  query_param_required: {
    breaking: true,
    rule: "A query parameter became required (or was added as required).",
  },
  query_param_added: { breaking: false, rule: "An optional query parameter appeared." },
  query_param_removed: { breaking: false, rule: "A query parameter is no longer sent." },
  request_body_required: { breaking: true, rule: "The request body became required." },
  request_field_required: {
    breaking: true,
    rule: "A request field became required (or was added as required).",
  },
  request_field_added: { breaking: false, rule: "An optional request field appeared." },
  request_field_removed: { breaking: false, rule: "A request field is no longer sent." },
  request_field_type_changed: { breaking: true, rule: "A request field's type or format changed." },
  response_field_removed: { breaking: true, rule: "A response field is no longer returned." },
  response_field_optional: {
    breaking: true,
    rule: "A response field that was always returned may be absent.",
  },
  response_field_type_changed: {
    breaking: true,
    rule: "A response field's type or format changed (null included).",
  },
  response_field_added: { breaking: false, rule: "A response field appeared." },
  enum_value_removed: { breaking: true, rule: "A value of an enumeration is no longer used." },
  enum_value_added: { breaking: false, rule: "An enumeration gained a value (or became open text)." },
  enum_inferred: {
    breaking: false,
    rule: "Text turned out to take a closed set of values (enough evidence).",
  },
  status_added: { breaking: true, rule: "An operation returns a status code it did not before." },
  status_removed: { breaking: false, rule: "An operation no longer returns a status code." },
  content_type_added: { breaking: false, rule: "A body is also sent with another media type." },
  content_type_removed: { breaking: true, rule: "A body's media type is no longer used." },
};

interface Place {
  readonly method: string;
  readonly path: string;
  /** The earlier version was still learning the operation: nothing in it counts as breaking. */
  readonly learning?: boolean;
}

class Changes {
  readonly list: ContractChange[] = [];
  /** `before` is a declared document (diffDeclared), `after` the inferred one. */
  constructor(readonly declared: boolean) {}
  add(
    kind: ContractChangeKind,
    place: Place,
    location: ChangeLocation,
    detail: string,
    extra: { status?: string | null; field?: string | null } = {},
  ): void {
    this.list.push({
      kind,
      breaking: CHANGE_RULES[kind].breaking && place.learning !== true,
      method: place.method,
      path: place.path,
      location,
      status: extra.status ?? null,
      field: extra.field ?? null,
      detail,
    });
  }
}

/** Path templates compare without their parameter names: `/a/{id}` is `/a/{order_id}`. */
export function pathShape(path: string): string {
  return path.replace(/\{[^}]+\}/g, "{}");
}

function operationsOf(doc: OpenApiDocument): Map<string, { place: Place; op: OpenApiOperation }> {
  const ops = new Map<string, { place: Place; op: OpenApiOperation }>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method];
      if (op === undefined || typeof op !== "object") continue;
      ops.set(`${method.toUpperCase()} ${pathShape(path)}`, {
        place: { method: method.toUpperCase(), path },
        op,
      });
    }
  }
  return ops;
}

/** What changed from `before` to `after`, operations in `after`'s order. */
export function diffDocuments(before: OpenApiDocument, after: OpenApiDocument): ContractChange[] {
  return diffWith(new Changes(false), before, after);
}

/**
 * How the inferred document departs from the declared one, by the same rule table read from the
 * declaration to the traffic: an undeclared operation, query parameter, status, media type or
 * field; a declared required field the traffic omits; a type, format or path parameter the
 * declaration does not accept; an enum value it does not list. What the declaration allows but
 * traffic does not use (an operation, optional field or parameter, status, enum value or media
 * type never seen) is no difference — unused operations are the report's. The place named is the
 * inferred one (its path template and observed status), which is where the consumers are counted.
 */
export function diffDeclared(declared: OpenApiDocument, inferred: OpenApiDocument): ContractChange[] {
  return diffWith(new Changes(true), normaliseDeclared(declared), inferred);
}

function diffWith(changes: Changes, before: OpenApiDocument, after: OpenApiDocument): ContractChange[] {
  const old = operationsOf(before);
  const now = operationsOf(after);
  for (const [key, { place }] of old) {
    if (!now.has(key) && !changes.declared)
      changes.add(
        "operation_removed",
        place,
        "operation",
        `${place.method} ${place.path} is no longer served`,
      );
  }
  for (const [key, { place, op }] of now) {
    const earlier = old.get(key);
    if (earlier === undefined) {
      changes.add(
        "operation_added",
        place,
        "operation",
        changes.declared
          ? `${place.method} ${place.path} is not declared`
          : `${place.method} ${place.path} is new`,
      );
      continue;
    }
    // A change from an operation still being learnt is not breaking: its first calls made fields
    // look required. Against a declaration every difference is something calls were seen doing
    // (a type, a field, a status carried or lacked), so a young operation's count as any other's.
    const learning = !changes.declared && earlier.op[LEARNING_EXTENSION] === true;
    diffOperation(changes, { ...place, learning }, earlier.op, op);
  }
  return changes.list;
}

function diffOperation(
  changes: Changes,
  place: Place,
  before: OpenApiOperation,
  after: OpenApiOperation,
): void {
  diffParameters(changes, place, before, after);
  const beforeBody = before.requestBody;
  const afterBody = after.requestBody;
  // Every client sending a body tells nothing of whether the declared server requires one.
  if (!changes.declared && afterBody?.required === true && beforeBody?.required !== true) {
    changes.add("request_body_required", place, "request", "the request body is now always sent");
  }
  diffContent(changes, place, "request", null, beforeBody?.content ?? {}, afterBody?.content ?? {});
  const beforeStatuses = Object.keys(before.responses ?? {}).filter((status) => status !== "default");
  const afterStatuses = Object.keys(after.responses ?? {}).filter((status) => status !== "default");
  for (const status of afterStatuses) {
    // A declared `4XX` or `default` response covers the statuses it stands for.
    const match = changes.declared
      ? declaredResponseKey(before.responses ?? {}, status)
      : beforeStatuses.includes(status)
        ? status
        : undefined;
    if (match === undefined) {
      changes.add(
        "status_added",
        place,
        "response",
        changes.declared ? `returns ${status}, which is not declared` : `now returns ${status}`,
        { status },
      );
      continue;
    }
    diffContent(
      changes,
      place,
      "response",
      status,
      before.responses[match]?.content ?? {},
      after.responses[status]?.content ?? {},
    );
  }
  if (changes.declared) return;
  for (const status of beforeStatuses) {
    if (!afterStatuses.includes(status))
      changes.add("status_removed", place, "response", `no longer returns ${status}`, { status });
  }
}

/** The declared response a status falls under: itself, its class (`4XX`), or `default`. */
export function declaredResponseKey(responses: Record<string, unknown>, status: string): string | undefined {
  if (status in responses) return status;
  const range = `${status[0]}XX`;
  if (range in responses) return range;
  if (`${status[0]}xx` in responses) return `${status[0]}xx`;
  return "default" in responses ? "default" : undefined;
}

function diffParameters(
  changes: Changes,
  place: Place,
  before: OpenApiOperation,
  after: OpenApiOperation,
): void {
  const params = (op: OpenApiOperation, where: "path" | "query") =>
    (op.parameters ?? []).filter((param) => param.in === where);
  const beforePath = params(before, "path");
  params(after, "path").forEach((param, index) => {
    const earlier = beforePath[index];
    if (earlier === undefined) return;
    const was = typeText(earlier.schema ?? {});
    const is = typeText(param.schema ?? {});
    const differs = changes.declared
      ? !declaredTextAccepts(earlier.schema ?? {}, param.schema ?? {})
      : was !== is;
    if (differs) {
      changes.add(
        "path_param_type_changed",
        place,
        "path",
        changes.declared
          ? `path parameter ${param.name} is ${is}, declared ${was}`
          : `path parameter ${param.name}: ${was} -> ${is}`,
        { field: param.name },
      );
    }
  });
  const beforeQuery = new Map(params(before, "query").map((param) => [param.name, param]));
  const afterQuery = new Map(params(after, "query").map((param) => [param.name, param]));
  for (const [name, param] of afterQuery) {
    const earlier = beforeQuery.get(name);
    if (changes.declared) {
      // Clients always sending a declared optional parameter is no difference; an undeclared
      // one is, however often it is sent.
      if (earlier === undefined) {
        changes.add("query_param_added", place, "query", `query parameter ${name} is not declared`, {
          field: name,
        });
      }
    } else if (param.required === true && earlier?.required !== true) {
      changes.add("query_param_required", place, "query", `query parameter ${name} is now required`, {
        field: name,
      });
    } else if (earlier === undefined) {
      changes.add("query_param_added", place, "query", `optional query parameter ${name}`, { field: name });
    }
  }
  for (const [name, param] of beforeQuery) {
    if (afterQuery.has(name) || (changes.declared && param.required !== true)) continue;
    changes.add(
      "query_param_removed",
      place,
      "query",
      changes.declared
        ? `query parameter ${name} is declared required but never sent`
        : `query parameter ${name} is no longer sent`,
      { field: name },
    );
  }
}

/** Whether a declared parameter schema takes every value the inferred one was derived from:
 *  parameter text is a string whatever it looks like, so only a declared number, integer,
 *  boolean or recognised string format can be contradicted. */
function declaredTextAccepts(declared: JsonSchema, inferred: JsonSchema): boolean {
  const types = typesOf(declared);
  if (types.size === 0) return true;
  const seen = typeof inferred.type === "string" ? inferred.type : "string";
  if (types.has("string")) {
    const format = declared.format;
    if (typeof format !== "string" || !isInferredFormat(format)) return true;
    return inferred.format === format;
  }
  return types.has(seen);
}

/** Formats the inference recognises: a declared format outside them cannot be checked. */
function isInferredFormat(format: string): boolean {
  return (STRING_FORMATS as readonly string[]).includes(format);
}

type Content = Record<string, { schema?: JsonSchema }>;

function diffContent(
  changes: Changes,
  place: Place,
  side: "request" | "response",
  status: string | null,
  before: Content,
  after: Content,
): void {
  const covered = (type: string) =>
    changes.declared
      ? Object.keys(before).some((declared) => mediaCovers(declared, mediaTypeOf(type)))
      : type in before;
  for (const type of Object.keys(after)) {
    if (!covered(type) && Object.keys(before).length > 0) {
      changes.add(
        "content_type_added",
        place,
        side,
        changes.declared
          ? `${side} body sent as ${type}, which is not declared`
          : `${side} body also as ${type}`,
        { status },
      );
    }
  }
  if (!changes.declared) {
    for (const type of Object.keys(before)) {
      if (!(type in after) && Object.keys(after).length > 0) {
        changes.add("content_type_removed", place, side, `${side} body no longer as ${type}`, { status });
      }
    }
  }
  const beforeSchema = jsonSchemaOf(before);
  const afterSchema = jsonSchemaOf(after);
  if (beforeSchema !== undefined && afterSchema !== undefined) {
    diffSchema(changes, { place, side, status }, "", beforeSchema, afterSchema);
  }
}

/** Whether a declared media type (`application/json`, `application/*`, `*\/*`) covers `type`. */
function mediaCovers(declared: string, type: string): boolean {
  if (declared === type || declared === "*/*") return true;
  return declared.endsWith("/*") && type.startsWith(declared.slice(0, -1));
}

function jsonSchemaOf(content: Content): JsonSchema | undefined {
  const type = Object.keys(content).find((name) => name === "application/json" || name.endsWith("+json"));
  return type === undefined ? undefined : content[type]?.schema;
}

interface SchemaPlace {
  readonly place: Place;
  readonly side: "request" | "response";
  readonly status: string | null;
}

function typesOf(schema: JsonSchema): Set<string> {
  const type = schema.type;
  const types = new Set(Array.isArray(type) ? (type as string[]) : typeof type === "string" ? [type] : []);
  if (schema.nullable === true) types.add("null");
  // An integer is a number: integer -> number widens, number -> integer narrows.
  if (types.has("number")) types.add("integer");
  return types;
}

function typeText(schema: JsonSchema): string {
  const type = schema.type;
  const base = Array.isArray(type) ? (type as string[]).join("|") : typeof type === "string" ? type : "any";
  return typeof schema.format === "string" ? `${base} (${schema.format})` : base;
}

function diffSchema(
  changes: Changes,
  at: SchemaPlace,
  field: string,
  declaredOrBefore: JsonSchema,
  after: JsonSchema,
): void {
  const before = changes.declared ? declaredSchemaView(declaredOrBefore) : declaredOrBefore;
  if (before === undefined) return;
  const { place, side, status } = at;
  const label = field === "" ? `${side} body` : `${side} field ${field}`;
  const extra = { status, field: field === "" ? "/" : field };
  const beforeTypes = typesOf(before);
  const afterTypes = typesOf(after);
  if (beforeTypes.size > 0 && afterTypes.size > 0) {
    const added = [...afterTypes].filter((type) => !beforeTypes.has(type));
    const removed = [...beforeTypes].filter((type) => !afterTypes.has(type));
    const formatChanged =
      typeof before.format === "string" &&
      before.format !== after.format &&
      afterTypes.has("string") &&
      (!changes.declared || isInferredFormat(before.format));
    // Responses break when they may now carry what they did not; requests when what was sent
    // before may no longer be what the server takes. Against a declaration both sides break
    // when traffic carries what it does not accept.
    const breaks =
      side === "response" || changes.declared
        ? added.length > 0 || formatChanged
        : removed.length > 0 || formatChanged;
    if (breaks) {
      changes.add(
        side === "response" ? "response_field_type_changed" : "request_field_type_changed",
        place,
        side,
        changes.declared
          ? `${label} is ${typeText(after)}, declared ${typeText(before)}`
          : `${label}: ${typeText(before)} -> ${typeText(after)}`,
        extra,
      );
      return;
    }
  }
  diffEnum(changes, at, label, extra, before, after);
  // A declared object without properties (a map, or a free-form object) lists no fields to miss.
  if (changes.declared && before.properties === undefined) {
    diffItems(changes, at, field, before, after);
    return;
  }
  const beforeProps = (before.properties ?? {}) as Record<string, JsonSchema>;
  const afterProps = (after.properties ?? {}) as Record<string, JsonSchema>;
  const beforeRequired = new Set((before.required ?? []) as string[]);
  const afterRequired = new Set((after.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(afterProps)) {
    const child = `${field}/${escapeField(name)}`;
    const childExtra = { status, field: child };
    const earlier = beforeProps[name];
    if (earlier === undefined) {
      if (side === "request" && afterRequired.has(name) && !changes.declared) {
        changes.add(
          "request_field_required",
          place,
          side,
          `request field ${child} added as required`,
          childExtra,
        );
      } else {
        changes.add(
          side === "request" ? "request_field_added" : "response_field_added",
          place,
          side,
          changes.declared ? `${side} field ${child} is not declared` : `${side} field ${child} added`,
          childExtra,
        );
      }
      continue;
    }
    if (side === "request" && afterRequired.has(name) && !beforeRequired.has(name) && !changes.declared) {
      changes.add(
        "request_field_required",
        place,
        side,
        `request field ${child} is now required`,
        childExtra,
      );
    }
    if (side === "response" && beforeRequired.has(name) && !afterRequired.has(name)) {
      changes.add(
        "response_field_optional",
        place,
        side,
        changes.declared
          ? `response field ${child} is declared required but sometimes absent`
          : `response field ${child} may now be absent`,
        childExtra,
      );
    }
    diffSchema(changes, at, child, earlier, schema);
  }
  for (const name of Object.keys(beforeProps)) {
    if (name in afterProps) continue;
    // An optional declared field that traffic never carries is allowed to be absent.
    if (changes.declared && !beforeRequired.has(name)) continue;
    const child = `${field}/${escapeField(name)}`;
    const detail = changes.declared
      ? `${side} field ${child} is declared required but never ${side === "request" ? "sent" : "returned"}`
      : `${side} field ${child} ${side === "request" ? "is no longer sent" : "is no longer returned"}`;
    changes.add(
      side === "request" ? "request_field_removed" : "response_field_removed",
      place,
      side,
      detail,
      { status, field: child },
    );
  }
  diffItems(changes, at, field, before, after);
}

function diffItems(
  changes: Changes,
  at: SchemaPlace,
  field: string,
  before: JsonSchema,
  after: JsonSchema,
): void {
  const beforeItems = before.items as JsonSchema | undefined;
  const afterItems = after.items as JsonSchema | undefined;
  if (
    beforeItems !== undefined &&
    afterItems !== undefined &&
    beforeItems !== null &&
    typeof beforeItems === "object"
  ) {
    diffSchema(changes, at, `${field}/*`, beforeItems, afterItems);
  }
}

function diffEnum(
  changes: Changes,
  at: SchemaPlace,
  label: string,
  extra: { status: string | null; field: string },
  before: JsonSchema,
  after: JsonSchema,
): void {
  const beforeValues = Array.isArray(before.enum) ? (before.enum as unknown[]) : undefined;
  const afterValues = Array.isArray(after.enum) ? (after.enum as unknown[]) : undefined;
  if (changes.declared) {
    // Only a value traffic shows that the declaration does not list; whether text is open or
    // closed, and values unused, say nothing against it. Null is the type check's.
    if (beforeValues === undefined || afterValues === undefined) return;
    const added = afterValues.filter((value) => value !== null && !beforeValues.includes(value));
    if (added.length > 0) {
      changes.add(
        "enum_value_added",
        at.place,
        at.side,
        `${label}: ${added.map(String).join(", ")} not declared`,
        extra,
      );
    }
    return;
  }
  if (beforeValues === undefined) {
    if (afterValues !== undefined) {
      changes.add("enum_inferred", at.place, at.side, `${label} takes ${afterValues.length} values`, extra);
    }
    return;
  }
  if (afterValues === undefined) {
    changes.add(
      "enum_value_added",
      at.place,
      at.side,
      `${label} is no longer limited to ${beforeValues.length} values`,
      extra,
    );
    return;
  }
  const removed = beforeValues.filter((value) => !afterValues.includes(value));
  const added = afterValues.filter((value) => !beforeValues.includes(value));
  if (removed.length > 0) {
    changes.add(
      "enum_value_removed",
      at.place,
      at.side,
      `${label}: ${removed.map(String).join(", ")} no longer used`,
      extra,
    );
  }
  if (added.length > 0) {
    changes.add(
      "enum_value_added",
      at.place,
      at.side,
      `${label}: new value ${added.map(String).join(", ")}`,
      extra,
    );
  }
}

/** A property name inside a field path: `~` and `/` escaped as in JSON pointers, `*` as `~2`. */
function escapeField(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1").replace(/\*/g, "~2");
}

/** The property names of a field path, `*` standing for any array item. */
export function fieldSegments(field: string): string[] {
  return field
    .split("/")
    .slice(1)
    .filter((part) => part !== "")
    .map((part) => (part === "*" ? "*" : part.replace(/~2/g, "*").replace(/~1/g, "/").replace(/~0/g, "~")));
}
