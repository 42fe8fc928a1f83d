// A declared OpenAPI document seen the way the inferred one is written, so the two can be diffed:
// local $refs resolved (a cyclic schema becomes a cyclic object graph, never an endless copy),
// path-level parameters merged into each operation, media types without their parameters, and
// per schema the view the diff compares (allOf merged; oneOf/anyOf and `{}` opaque).
import { HTTP_METHODS, type OpenApiDocument, type OpenApiParameter } from "./contract-document.js";
import type { JsonSchema } from "./schema-stats.js";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value at a local JSON pointer (`#/components/schemas/Order`), or undefined. */
function pointerGet(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let current = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(current) && !Array.isArray(current)) return undefined;
    current = (current as Json)[key];
  }
  return current;
}

/** The document with every local $ref replaced by what it points at. Each ref resolves to one
 *  shared object, so a schema that refers to itself becomes a cycle the diff walks only as deep
 *  as the inferred document goes. A remote or dangling ref becomes `{}` (anything). */
function resolveRefs(document: Json): Json {
  const memo = new Map<string, unknown>();
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isObject(value)) return value;
    const ref = value.$ref;
    if (typeof ref === "string") {
      const known = memo.get(ref);
      if (known !== undefined) return known;
      const target = pointerGet(document, ref);
      if (!isObject(target)) {
        const resolved = target === undefined ? {} : walk(target);
        memo.set(ref, resolved);
        return resolved;
      }
      const out: Json = {};
      memo.set(ref, out);
      const resolved = walk(target);
      if (isObject(resolved)) Object.assign(out, resolved);
      return out;
    }
    const copy: Json = {};
    for (const [key, child] of Object.entries(value)) copy[key] = walk(child);
    return copy;
  };
  return walk(document) as Json;
}

/** `application/json; charset=utf-8` -> `application/json`. */
export function mediaTypeOf(name: string): string {
  return (name.split(";")[0] ?? "").trim().toLowerCase();
}

function normaliseContent(content: unknown): Json | undefined {
  if (!isObject(content)) return undefined;
  const out: Json = {};
  for (const [type, media] of Object.entries(content)) out[mediaTypeOf(type)] = media;
  return out;
}

/** The declared document ready for diffDocuments(…, { declared: true }). */
export function normaliseDeclared(declared: OpenApiDocument): OpenApiDocument {
  const resolved = resolveRefs(declared as Json);
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, rawItem] of Object.entries(isObject(resolved.paths) ? resolved.paths : {})) {
    if (!isObject(rawItem)) continue;
    const shared = Array.isArray(rawItem.parameters) ? (rawItem.parameters as OpenApiParameter[]) : [];
    const item: Record<string, Json> = {};
    for (const method of HTTP_METHODS) {
      const op = rawItem[method];
      if (!isObject(op)) continue;
      const own = Array.isArray(op.parameters) ? (op.parameters as OpenApiParameter[]) : [];
      // An operation's parameter overrides the path item's of the same name and place.
      const parameters = [
        ...shared.filter(
          (param) => !own.some((mine) => isObject(mine) && mine.name === param.name && mine.in === param.in),
        ),
        ...own,
      ].filter(isObject);
      const requestBody = isObject(op.requestBody)
        ? { ...op.requestBody, content: normaliseContent(op.requestBody.content) ?? {} }
        : undefined;
      const responses: Json = {};
      for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
        if (!isObject(response)) continue;
        const content = normaliseContent(response.content);
        responses[status] = { ...response, ...(content === undefined ? {} : { content }) };
      }
      item[method] = {
        ...op,
        parameters,
        ...(requestBody === undefined ? {} : { requestBody }),
        responses,
      };
    }
    paths[path] = item;
  }
  return { ...resolved, openapi: String(resolved.openapi), paths } as OpenApiDocument;
}

/** allOf members merged at most this deep (a cycle through allOf stops here). */
const ALL_OF_DEPTH = 8;

/**
 * What the diff compares of a declared schema: its own keywords with its allOf members' merged in
 * (types intersected by the first that names one, properties and required united), or undefined
 * when it says nothing the inference could contradict — `{}`, or a oneOf/anyOf without properties
 * of its own (a union the inferred document writes as one merged object).
 */
export function declaredSchemaView(schema: JsonSchema, depth = 0): JsonSchema | undefined {
  let view: JsonSchema = { ...schema };
  if (Array.isArray(schema.allOf) && depth < ALL_OF_DEPTH) {
    for (const member of schema.allOf as unknown[]) {
      if (!isObject(member)) continue;
      const part = declaredSchemaView(member as JsonSchema, depth + 1);
      if (part === undefined) continue;
      view = {
        ...part,
        ...view,
        properties: { ...(part.properties as Json | undefined), ...(view.properties as Json | undefined) },
        required: [
          ...new Set([...((part.required as string[]) ?? []), ...((view.required as string[]) ?? [])]),
        ],
      };
    }
    delete view.allOf;
  }
  if (Object.keys((view.properties as Json | undefined) ?? {}).length === 0) delete view.properties;
  if (Array.isArray(view.required) && view.required.length === 0) delete view.required;
  const union = Array.isArray(view.oneOf) || Array.isArray(view.anyOf);
  const says =
    view.type !== undefined ||
    view.properties !== undefined ||
    isObject(view.items) ||
    Array.isArray(view.enum) ||
    view.required !== undefined;
  if (!says || (union && view.properties === undefined)) return undefined;
  return view;
}
