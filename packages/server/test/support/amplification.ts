// Amplification bodies: the smallest bodies that decode to the most items. For JSON bodies they
// are generated from a route's schema (every array filled to its maxItems or the byte budget with
// minimal items, every map given as many keys, every free-form value nested as deep); OTLP's
// protobuf and JSON exports are written by hand (4.5 M empty spans in 8.8 KB of gzip, deep
// AnyValue nesting, 10k attributes). Shared by the OpenAPI sweep and `bench:ingest`'s
// amplification scenario.
import { gzipSync } from "node:zlib";

/** The parts of a JSON Schema the generator reads. */
export interface AmplifiableSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, AmplifiableSchema>>;
  readonly required?: readonly string[];
  readonly items?: AmplifiableSchema;
  readonly maxItems?: number;
  readonly maxProperties?: number;
  readonly patternProperties?: Readonly<Record<string, AmplifiableSchema>>;
  readonly additionalProperties?: boolean | AmplifiableSchema;
  readonly anyOf?: readonly AmplifiableSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
}

/** One amplification body: what it is, and its bytes as sent. */
export interface AmplificationBody {
  readonly label: string;
  readonly contentType: string;
  readonly contentEncoding?: "gzip";
  readonly payload: Buffer;
}

/** A step from a schema to one of its parts. */
type Step = { readonly property: string } | "item" | "value";

interface Location {
  readonly path: readonly Step[];
  readonly schema: AmplifiableSchema;
  readonly kind: "array" | "map" | "free-form";
}

const MARKER = "\u0000amplified\u0000";
const MARKER_JSON = JSON.stringify(MARKER);

/**
 * For a JSON body schema: one body per array, map and free-form value the schema lets a client
 * send (found through properties, array items, map values and anyOf options; an object that
 * tolerates unknown members has a free-form one), each filled to its declared maximum or to
 * `budgetBytes` with minimal items (and with copies of the baseline's valid item), inside a
 * baseline body `base`.
 */
export function amplifiedJsonBodies(
  schema: AmplifiableSchema,
  base: unknown,
  budgetBytes: number,
  contentType = "application/json",
): AmplificationBody[] {
  const bodies: AmplificationBody[] = [];
  for (const location of locationsOf(schema, [], 0)) {
    const shell = placeMarker(base, location.path);
    if (shell === undefined) continue;
    const room = budgetBytes - (shell.length - MARKER_JSON.length);
    if (room < 16) continue;
    const where = location.path.map((step) => (typeof step === "string" ? step : step.property)).join(".");
    for (const [what, text] of fillings(location, room, valueAt(base, location.path))) {
      bodies.push({
        label: `${where || "body"}: ${what}`,
        contentType,
        payload: Buffer.from(shell.replace(MARKER_JSON, () => text)),
      });
    }
  }
  return bodies;
}

/** The texts tried at one location, each at most `room` bytes; `valid` is the baseline's value. */
function fillings(location: Location, room: number, valid: unknown): Array<[string, string]> {
  const { schema } = location;
  if (location.kind === "free-form") {
    const depth = Math.floor((room - 2) / 2);
    return [[`nested ${depth} deep`, `${"[".repeat(depth)}${"]".repeat(depth)}`]];
  }
  if (location.kind === "map") {
    const value = minimalText(mapValueOf(schema) ?? {});
    const count = countFitting(room, (i) => `"k${i}":${value}`.length + 1, schema.maxProperties);
    const members = new Array<string>(count);
    for (let i = 0; i < count; i++) members[i] = `"k${i}":${value}`;
    return [[`${count} keys`, `{${members.join(",")}}`]];
  }
  const item = schema.items ?? {};
  const out: Array<[string, string]> = [];
  const texts: Array<[string, string]> = [["minimal items", minimalText(item)]];
  if (texts[0]?.[1] !== "{}") texts.push(["empty objects", "{}"]);
  if (Array.isArray(valid) && valid[0] !== undefined) texts.push(["valid items", JSON.stringify(valid[0])]);
  for (const [what, text] of texts) {
    const count = Math.min(schema.maxItems ?? Number.POSITIVE_INFINITY, Math.floor(room / (text.length + 1)));
    if (count < 1) continue;
    out.push([`${count} ${what}`, `[${new Array<string>(count).fill(text).join(",")}]`]);
  }
  return out;
}

/** How many items of growing size (`size(i)` bytes) fit in `room`, at most `max`. */
function countFitting(room: number, size: (i: number) => number, max = Number.POSITIVE_INFINITY): number {
  let used = 2;
  let count = 0;
  while (count < max) {
    const next = size(count);
    if (used + next > room) break;
    used += next;
    count++;
  }
  return count;
}

function mapValueOf(schema: AmplifiableSchema): AmplifiableSchema | undefined {
  const patterned = Object.values(schema.patternProperties ?? {})[0];
  if (patterned !== undefined) return patterned;
  return typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
}

/** The shortest JSON text of the schema's first type (objects with no members). */
function minimalText(schema: AmplifiableSchema): string {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object":
      return "{}";
    case "array":
      return "[]";
    case "string":
      return '""';
    case "integer":
    case "number":
      return "0";
    case "boolean":
      return "false";
    default:
      return schema.anyOf?.[0] === undefined ? "0" : minimalText(schema.anyOf[0]);
  }
}

function locationsOf(schema: AmplifiableSchema, path: readonly Step[], depth: number): Location[] {
  if (depth > 8) return [];
  const found: Location[] = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const freeForm =
    schema.type === undefined &&
    schema.properties === undefined &&
    schema.anyOf === undefined &&
    schema.items === undefined &&
    schema.enum === undefined &&
    schema.const === undefined;
  if (freeForm && path.length > 0) found.push({ path, schema, kind: "free-form" });
  if (
    schema.properties !== undefined &&
    schema.additionalProperties !== false &&
    mapValueOf(schema) === undefined
  ) {
    found.push({ path: [...path, { property: "unknown_member" }], schema: {}, kind: "free-form" });
  }
  if (types.includes("array") || schema.items !== undefined) {
    found.push({ path, schema, kind: "array" });
    if (schema.items !== undefined) found.push(...locationsOf(schema.items, [...path, "item"], depth + 1));
  }
  const mapValue = mapValueOf(schema);
  if (mapValue !== undefined) {
    found.push({ path, schema, kind: "map" });
    found.push(...locationsOf(mapValue, [...path, "value"], depth + 1));
  }
  for (const [property, child] of Object.entries(schema.properties ?? {})) {
    found.push(...locationsOf(child, [...path, { property }], depth + 1));
  }
  for (const option of schema.anyOf ?? []) found.push(...locationsOf(option, path, depth + 1));
  return found;
}

/** The baseline's value at `path` (map values under the key `k`), if it has one. */
function valueAt(base: unknown, path: readonly Step[]): unknown {
  let value = base;
  for (const step of path) {
    if (typeof value !== "object" || value === null) return undefined;
    if (step === "item") value = Array.isArray(value) ? value[0] : undefined;
    else value = (value as Record<string, unknown>)[step === "value" ? "k" : step.property];
  }
  return value;
}

/** The baseline body as JSON text with the value at `path` replaced by the marker (undefined when
 *  the baseline has no value to descend through). */
function placeMarker(base: unknown, path: readonly Step[]): string | undefined {
  const copy = structuredClone(base) as unknown;
  if (path.length === 0) return MARKER_JSON;
  let target: unknown = copy;
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as Step;
    const last = i === path.length - 1;
    if (typeof target !== "object" || target === null) return undefined;
    if (step === "item") {
      if (!Array.isArray(target)) return undefined;
      if (target.length === 0) target.push({});
      if (last) target[0] = MARKER;
      else target = target[0];
    } else if (step === "value") {
      const record = target as Record<string, unknown>;
      if (last) record.k = MARKER;
      else target = record.k ??= {};
    } else {
      const record = target as Record<string, unknown>;
      if (last) record[step.property] = MARKER;
      else target = record[step.property] ??= {};
    }
  }
  return JSON.stringify(copy);
}

// ---- OTLP, by hand ----

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A length-delimited protobuf field. */
function field(number: number, body: Buffer): Buffer {
  return Buffer.concat([varint((number << 3) | 2), varint(body.length), body]);
}

/** An export whose one resource and one scope hold `items` (spans or log records, already encoded
 *  as their field 2 entries). Traces and logs share the field numbers on this path. */
function export_(items: Buffer): Buffer {
  return field(1, field(2, items));
}

/** `12 00` × count: `count` empty spans (or log records). */
function emptyItems(count: number): Buffer {
  const items = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) items[i * 2] = 0x12;
  return items;
}

/** A span holding `attributes` (KeyValue entries, field 9) and nothing else. */
function spanWith(attributes: Buffer): Buffer {
  return field(2, attributes);
}

/** An attribute whose value is an AnyValue array nested `depth` deep. */
function deepAttribute(depth: number): Buffer {
  let value: Buffer = Buffer.alloc(0);
  for (let i = 0; i < depth; i++) value = field(5, field(1, value));
  return field(9, Buffer.concat([field(1, Buffer.from("deep")), field(2, value)]));
}

function manyAttributes(count: number): Buffer {
  const entries: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    entries.push(
      field(9, Buffer.concat([field(1, Buffer.from(`k${i}`)), field(2, field(1, Buffer.alloc(0)))])),
    );
  }
  return Buffer.concat(entries);
}

/** The hand-written OTLP amplification bodies of one signal, each under `budgetBytes` decoded. */
export function otlpAmplificationBodies(signal: "traces" | "logs", budgetBytes: number): AmplificationBody[] {
  const protobuf = "application/x-protobuf";
  const member =
    signal === "traces"
      ? ["resourceSpans", "scopeSpans", "spans"]
      : ["resourceLogs", "scopeLogs", "logRecords"];
  const most = Math.floor((budgetBytes - 16) / 2);
  const bodies: AmplificationBody[] = [
    {
      label: `${(most / 1e6).toFixed(1)} M empty items, gzip protobuf`,
      contentType: protobuf,
      contentEncoding: "gzip",
      payload: gzipSync(export_(emptyItems(most)), { level: 9 }),
    },
    {
      label: "1 M empty items, protobuf",
      contentType: protobuf,
      payload: export_(emptyItems(Math.min(1_000_000, most))),
    },
    {
      label: "empty items, gzip JSON",
      contentType: "application/json",
      contentEncoding: "gzip",
      payload: gzipSync(
        `{"${member[0]}":[{"${member[1]}":[{"${member[2]}":[${new Array<string>(Math.floor((budgetBytes - 64) / 3)).fill("{}").join(",")}]}]}]}`,
      ),
    },
  ];
  if (signal === "traces") {
    bodies.push(
      {
        // Each level is re-copied by its parent: 10k levels are 200 MB of copying to build.
        label: "AnyValue nested 10k deep, protobuf",
        contentType: protobuf,
        payload: export_(spanWith(deepAttribute(10_000))),
      },
      {
        label: "10k attributes on one span, protobuf",
        contentType: protobuf,
        payload: export_(spanWith(manyAttributes(10_000))),
      },
      {
        label: "AnyValue nested deep, JSON",
        contentType: "application/json",
        payload: Buffer.from(
          `{"resourceSpans":[{"scopeSpans":[{"spans":[{"attributes":[{"key":"deep","value":${'{"arrayValue":{"values":['.repeat(20_000)}{}${"]}}".repeat(20_000)}}]}]}]}]}`,
        ),
      },
    );
  }
  return bodies;
}
