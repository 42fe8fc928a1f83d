// Statistics of the JSON values seen at one place of a payload — types, nulls, string formats,
// low-cardinality string values, object properties with their presence, array items — and the
// JSON Schema (2020-12) derived from them. Ours rather than a library's: the contract needs
// presence counts, bounded value sets, last-seen times and the drift rules below, which the
// schema-merging packages (genson-js, to-json-schema) do not keep. Thresholds: docs/adr/0021.
import { isSafeExample, STRING_FORMATS, formatBits } from "./value-kinds.js";

/** A property is required when present in at least this share of its objects. */
export const REQUIRED_SHARE = 0.999;
/** A string becomes an enum with at most this many distinct values… */
export const MAX_ENUM_VALUES = 12;
/** …each no longer than this… */
export const MAX_ENUM_VALUE_LENGTH = 48;
/** …seen at least this many times overall, every value at least ENUM_MIN_PER_VALUE times: with no
 *  value seen only once or twice, the Good–Turing estimate of an unseen value's share is zero. */
export const ENUM_MIN_OBSERVATIONS = 30;
export const ENUM_MIN_PER_VALUE = 3;
/** A drift (a field gone, a type changed, a field now always sent) is accepted only when the fresh
 *  observations would be less likely than this under the old statistics. */
export const DRIFT_PROBABILITY = 1e-9;
/** Fresh observations of a place needed before drift is judged there. */
export const MIN_DRIFT_SAMPLES = 20;

export interface StringStats {
  n: number;
  /** Counts of values satisfying each STRING_FORMATS entry, by index. */
  formats: number[];
  /** value -> [count, last seen ms]; null once more than MAX_ENUM_VALUES distinct values were seen
   *  or one was not enum material (too long, unsafe to keep). */
  values: Record<string, [number, number]> | null;
}

export interface PropertyStats {
  present: number;
  last: number;
  value: ValueStats;
}

export interface ValueStats {
  n: number;
  nulls: number;
  booleans: number;
  integers: number;
  /** Numbers with a fraction. */
  decimals: number;
  strings: StringStats | null;
  /** Objects seen; their properties. */
  objects: number;
  props: Record<string, PropertyStats>;
  arrays: number;
  items: ValueStats | null;
  /** One example value that passed the redaction rules, if any. */
  example?: string | number | boolean;
}

export function emptyStats(): ValueStats {
  return {
    n: 0,
    nulls: 0,
    booleans: 0,
    integers: 0,
    decimals: 0,
    strings: null,
    objects: 0,
    props: {},
    arrays: 0,
    items: null,
  };
}

/** Deepest nesting followed; deeper values count by type only. */
const MAX_DEPTH = 12;
/** Properties kept per object place (a map keyed by ids must not grow without bound). */
const MAX_PROPERTIES = 200;

/** Adds one observed value at this place. `name` is the field's name (for the redaction rules). */
export function observeValue(stats: ValueStats, value: unknown, name: string, at: number, depth = 0): void {
  stats.n += 1;
  if (value === null) {
    stats.nulls += 1;
    return;
  }
  switch (typeof value) {
    case "boolean":
      stats.booleans += 1;
      return;
    case "number":
      if (Number.isInteger(value)) stats.integers += 1;
      else stats.decimals += 1;
      if (stats.example === undefined && isSafeExample(name, value)) stats.example = value;
      return;
    case "string":
      observeString(stats, value, name, at);
      return;
    case "object":
      break;
    default:
      return;
  }
  if (Array.isArray(value)) {
    stats.arrays += 1;
    if (depth >= MAX_DEPTH) return;
    stats.items ??= emptyStats();
    for (const item of value) observeValue(stats.items, item, name, at, depth + 1);
    return;
  }
  stats.objects += 1;
  if (depth >= MAX_DEPTH) return;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    let prop = stats.props[key];
    if (prop === undefined) {
      if (Object.keys(stats.props).length >= MAX_PROPERTIES) continue;
      prop = { present: 0, last: at, value: emptyStats() };
      stats.props[key] = prop;
    }
    prop.present += 1;
    prop.last = at;
    observeValue(prop.value, child, key, at, depth + 1);
  }
}

function observeString(stats: ValueStats, value: string, name: string, at: number): void {
  const strings = (stats.strings ??= { n: 0, formats: STRING_FORMATS.map(() => 0), values: {} });
  strings.n += 1;
  const bits = formatBits(value);
  for (let index = 0; index < STRING_FORMATS.length; index++) {
    if (bits & (1 << index)) strings.formats[index] = (strings.formats[index] ?? 0) + 1;
  }
  if (strings.values !== null) {
    const known = strings.values[value];
    if (known !== undefined) {
      known[0] += 1;
      known[1] = at;
    } else if (
      bits === 0 &&
      value.length <= MAX_ENUM_VALUE_LENGTH &&
      Object.keys(strings.values).length < MAX_ENUM_VALUES &&
      isSafeExample(name, value)
    ) {
      strings.values[value] = [1, at];
    } else {
      strings.values = null;
    }
  }
  if (stats.example === undefined && isSafeExample(name, value)) stats.example = value;
}

/** `into` += `from` (both places of the same payload position). */
export function mergeStats(into: ValueStats, from: ValueStats): void {
  mergeCounts(into, from);
  for (const [key, prop] of Object.entries(from.props)) {
    const mine = into.props[key];
    if (mine === undefined) {
      if (Object.keys(into.props).length < MAX_PROPERTIES) into.props[key] = structuredClone(prop);
      continue;
    }
    mine.present += prop.present;
    mine.last = Math.max(mine.last, prop.last);
    mergeStats(mine.value, prop.value);
  }
  if (from.items !== null) {
    if (into.items === null) into.items = structuredClone(from.items);
    else mergeStats(into.items, from.items);
  }
}

/** Everything but properties' and items' own statistics. */
function mergeCounts(into: ValueStats, from: ValueStats): void {
  into.n += from.n;
  into.nulls += from.nulls;
  into.booleans += from.booleans;
  into.integers += from.integers;
  into.decimals += from.decimals;
  if (from.strings !== null) {
    if (into.strings === null) into.strings = structuredClone(from.strings);
    else mergeStrings(into.strings, from.strings);
  }
  into.objects += from.objects;
  into.arrays += from.arrays;
  if (into.example === undefined && from.example !== undefined) into.example = from.example;
}

function mergeStrings(into: StringStats, from: StringStats): void {
  into.n += from.n;
  into.formats = into.formats.map((count, index) => count + (from.formats[index] ?? 0));
  if (into.values === null || from.values === null) {
    into.values = null;
    return;
  }
  for (const [value, [count, last]] of Object.entries(from.values)) {
    const known = into.values[value];
    if (known !== undefined) {
      known[0] += count;
      known[1] = Math.max(known[1], last);
    } else into.values[value] = [count, last];
  }
  if (Object.keys(into.values).length > MAX_ENUM_VALUES) into.values = null;
}

type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "object" | "array";

/** Counts per JSON type (integers and decimals apart). */
function typeCounts(stats: ValueStats): Record<JsonType, number> {
  return {
    null: stats.nulls,
    boolean: stats.booleans,
    integer: stats.integers,
    number: stats.decimals,
    string: stats.strings?.n ?? 0,
    object: stats.objects,
    array: stats.arrays,
  };
}

/**
 * Folds `fresh` (recent observations of the same place) into `cumulative`, first applying the
 * drift rules where `fresh` holds enough observations to judge: a place whose fresh types were
 * (almost) never seen before takes the fresh statistics whole (type changed); a property present
 * in (almost) every earlier object and in no fresh one is dropped (field removed); a property
 * that was optional and is now in every fresh object counts as always present (now required).
 * "Almost" is DRIFT_PROBABILITY: the fresh sample must be that unlikely under the old shares.
 */
export function mergeWithDrift(cumulative: ValueStats, fresh: ValueStats): ValueStats {
  if (cumulative.n === 0) return structuredClone(fresh);
  if (fresh.n >= MIN_DRIFT_SAMPLES && typeChanged(cumulative, fresh)) return structuredClone(fresh);
  if (fresh.objects >= MIN_DRIFT_SAMPLES && cumulative.objects > 0) applyPresenceDrift(cumulative, fresh);
  mergeCounts(cumulative, fresh);
  for (const [key, prop] of Object.entries(fresh.props)) {
    const mine = cumulative.props[key];
    if (mine === undefined) {
      if (Object.keys(cumulative.props).length < MAX_PROPERTIES)
        cumulative.props[key] = structuredClone(prop);
      continue;
    }
    mine.present += prop.present;
    mine.last = Math.max(mine.last, prop.last);
    mine.value = mergeWithDrift(mine.value, prop.value);
  }
  if (fresh.items !== null) {
    cumulative.items =
      cumulative.items === null
        ? structuredClone(fresh.items)
        : mergeWithDrift(cumulative.items, fresh.items);
  }
  return cumulative;
}

/** Before `fresh`'s counts join: drops properties gone, marks properties now always sent. */
function applyPresenceDrift(cumulative: ValueStats, fresh: ValueStats): void {
  for (const [key, prop] of Object.entries(cumulative.props)) {
    const share = Math.min(prop.present / cumulative.objects, 1);
    const freshProp = fresh.props[key];
    if (freshProp === undefined) {
      if (Math.pow(1 - share, fresh.objects) < DRIFT_PROBABILITY) delete cumulative.props[key];
    } else if (
      freshProp.present === fresh.objects &&
      share < REQUIRED_SHARE &&
      Math.pow(share, fresh.objects) < DRIFT_PROBABILITY
    ) {
      // Counted as present in every earlier object: with the fresh ones it is now required.
      prop.present = cumulative.objects;
    }
  }
}

function typeChanged(cumulative: ValueStats, fresh: ValueStats): boolean {
  const before = typeCounts(cumulative);
  const now = typeCounts(fresh);
  let share = 0;
  for (const type of Object.keys(now) as JsonType[]) {
    if (now[type] === 0) continue;
    // An integer where decimals were seen (or the reverse) is the same type, "number".
    const alike = type === "integer" || type === "number" ? before.integer + before.number : before[type];
    share += alike / cumulative.n;
  }
  return Math.pow(Math.min(share, 1), fresh.n) < DRIFT_PROBABILITY;
}

/**
 * Forgets what was last seen before `cutoff` (epoch ms): properties and enum values. What
 * remains keeps its counts; a property dropped here is "removed" in the next document.
 */
export function expireStats(stats: ValueStats, cutoff: number): void {
  for (const [key, prop] of Object.entries(stats.props)) {
    if (prop.last < cutoff) {
      stats.objects = Math.max(stats.objects, prop.present);
      delete stats.props[key];
      continue;
    }
    expireStats(prop.value, cutoff);
  }
  if (stats.strings?.values) {
    for (const [value, [, last]] of Object.entries(stats.strings.values)) {
      if (last < cutoff) delete stats.strings.values[value];
    }
  }
  if (stats.items !== null) expireStats(stats.items, cutoff);
}

export type JsonSchema = Record<string, unknown>;

/** On each inferred object property: the observed share (0–1) of objects that carry it. */
export const PRESENCE_EXTENSION = "x-sightline-presence";

export interface DeriveOptions {
  /** Put `examples` on leaves that have a redaction-safe one. */
  readonly examples: boolean;
}

/** The JSON Schema 2020-12 of what was seen at this place; `{}` when nothing was. */
export function deriveSchema(stats: ValueStats, options: DeriveOptions): JsonSchema {
  const counts = typeCounts(stats);
  const types: JsonType[] = [];
  if (counts.object > 0) types.push("object");
  if (counts.array > 0) types.push("array");
  if (counts.string > 0) types.push("string");
  if (counts.number > 0) types.push("number");
  else if (counts.integer > 0) types.push("integer");
  if (counts.boolean > 0) types.push("boolean");
  if (types.length === 0 && counts.null === 0) return {};
  if (counts.null > 0) types.push("null");
  const schema: JsonSchema = { type: types.length === 1 ? types[0] : types };
  if (counts.object > 0) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const key of Object.keys(stats.props).sort()) {
      const prop = stats.props[key] as PropertyStats;
      const child = deriveSchema(prop.value, options);
      properties[key] = child;
      // The share of objects carrying the property, shown by the dashboard; like examples it is
      // left out of the fingerprint's shape, so a moving share never makes a version.
      if (options.examples) {
        child[PRESENCE_EXTENSION] = Math.round((prop.present / stats.objects) * 1000) / 1000;
      }
      if (prop.present / stats.objects >= REQUIRED_SHARE) required.push(key);
    }
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
  }
  if (counts.array > 0 && stats.items !== null && stats.items.n > 0) {
    schema.items = deriveSchema(stats.items, options);
  }
  const strings = stats.strings;
  if (strings !== null && strings.n > 0) {
    const format = STRING_FORMATS.find((_, index) => strings.formats[index] === strings.n);
    if (format !== undefined) schema.format = format;
    else if (isEnum(strings)) {
      const values = Object.keys(strings.values ?? {}).sort();
      // In 2020-12 `enum` constrains every instance, so a nullable enum lists null too.
      schema.enum = counts.null > 0 ? [...values, null] : values;
    }
  }
  if (options.examples && stats.example !== undefined && schema.enum === undefined) {
    schema.examples = [stats.example];
  }
  return schema;
}

function isEnum(strings: StringStats): boolean {
  if (strings.values === null) return false;
  const counts = Object.values(strings.values);
  return (
    counts.length > 0 &&
    strings.n >= ENUM_MIN_OBSERVATIONS &&
    counts.every(([count]) => count >= ENUM_MIN_PER_VALUE)
  );
}
